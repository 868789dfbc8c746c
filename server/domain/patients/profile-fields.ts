import { randomUUID } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, NotFoundError, ValidationError } from "@/server/domain/errors";
import { refreshSearchTextOfPatient } from "@/server/domain/pharmacy-orders/search-text";
import { displayNameOf } from "./shop-customers";

/**
 * Profile fields: values of the organisation's PatientFieldDefinition rows per patient
 * (gaps-reference G19, G24). The rules for their values live here, for every door that sets them
 * (POST /v1/management/patients, the patient-data properties endpoint).
 * docs/decisions/telemedicine.md#doctors-and-patients
 */

/** The types a value can be checked against; a definition of any other type (a picture, an ID scan) cannot be set by value. */
export const PATIENT_FIELD_TYPES = ["text", "date", "phone", "email", "number", "boolean"] as const;
export type PatientFieldType = (typeof PATIENT_FIELD_TYPES)[number];
const isCheckable = (type: string): type is PatientFieldType => (PATIENT_FIELD_TYPES as readonly string[]).includes(type);

/** Who set a value (the definition's own source names where it usually comes from). */
export const PATIENT_FIELD_SOURCES = ["shop", "survey", "user"] as const;
export type PatientFieldSource = (typeof PATIENT_FIELD_SOURCES)[number];

export const MAX_FIELD_VALUE_LENGTH = 1000;

export const UNKNOWN_FIELD_MESSAGE = "No profile field with this key in the organisation.";

/**
 * The fields the profile's own columns follow: setting one sets the column (and the display name
 * from the two names). date_of_birth fills a date column, so it is checked as a date whatever the
 * type of its definition.
 */
type ProfileColumnField = "first_name" | "last_name" | "date_of_birth";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Digits with an optional leading +, as written with spaces, hyphens, dots, slashes or brackets.
const PHONE_SEPARATORS = /[\s\-./()]/g;
const PHONE = /^\+?\d{6,15}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export type FieldValueCheck = { value: string } | { error: string };

/** The stored form of a value for a field of this type, or why it is not one. */
export function normaliseFieldValue(type: string, raw: string | number | boolean): FieldValueCheck {
  if (!isCheckable(type)) return { error: `A field of type "${type}" cannot be set by value.` };
  const text = String(raw).trim();
  if (text === "") return { error: "This field may not be blank." };
  if (text.length > MAX_FIELD_VALUE_LENGTH) return { error: `Ensure this field has no more than ${MAX_FIELD_VALUE_LENGTH} characters.` };
  switch (type) {
    case "text":
      return { value: text };
    case "date": {
      const match = DATE.exec(text);
      const [y, m, d] = match ? match.slice(1).map(Number) : [];
      const date = match ? new Date(Date.UTC(y, m - 1, d)) : null;
      const real = date !== null && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
      return real ? { value: text } : { error: "Enter a real date as YYYY-MM-DD." };
    }
    case "phone": {
      const digits = text.replace(PHONE_SEPARATORS, "");
      return PHONE.test(digits) ? { value: digits } : { error: "Enter a phone number of 6 to 15 digits, optionally starting with +." };
    }
    case "email":
      return EMAIL.test(text) && text.length <= 254 ? { value: text } : { error: "Enter a valid email address." };
    case "number":
      return NUMBER.test(text) ? { value: text } : { error: "A valid number is required." };
    case "boolean": {
      const lower = text.toLowerCase();
      return lower === "true" || lower === "false" ? { value: lower } : { error: "Must be a valid boolean (true or false)." };
    }
  }
}

type Definition = { id: string; key: string; type: string };

/** The type a definition's values are checked against. */
const checkedType = (definition: Definition) => (definition.key === "date_of_birth" ? "date" : definition.type);

export type FieldInput = { field: string; value: string | number | boolean; source?: PatientFieldSource };
export type FieldValue = { fieldId: string; key: string; value: string; source: PatientFieldSource };

/**
 * The values of `fields` checked against the organisation's definitions, all problems at once as
 * field errors under `path` (`fields.<i>.field` for an unknown or repeated key, `fields.<i>.value`
 * for a value its type refuses). Nothing is written.
 */
export function checkProfileFields(
  tx: Tx,
  organisationId: string,
  fields: readonly FieldInput[],
  path: readonly (string | number)[] = ["fields"],
): Promise<FieldValue[]> {
  return checkFields(tx, organisationId, fields, (i) => [...path, i]);
}

/** One value checked as checkProfileFields checks each, its errors on `field` and `value` (the patient-data properties form). */
export async function checkProfileField(tx: Tx, organisationId: string, input: FieldInput): Promise<FieldValue> {
  const [value] = await checkFields(tx, organisationId, [input], () => []);
  return value;
}

async function checkFields(
  tx: Tx,
  organisationId: string,
  fields: readonly FieldInput[],
  entryPath: (index: number) => (string | number)[],
): Promise<FieldValue[]> {
  if (fields.length === 0) return [];
  const definitions = await tx.patientFieldDefinition.findMany({
    where: { organisationId, key: { in: [...new Set(fields.map((f) => f.field))] } },
    select: { id: true, key: true, type: true },
  });
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const errors = new FieldErrorCollector();
  const seen = new Set<string>();
  const values: FieldValue[] = [];
  for (const [i, input] of fields.entries()) {
    const definition = byKey.get(input.field);
    if (!definition) {
      errors.add([...entryPath(i), "field"], UNKNOWN_FIELD_MESSAGE);
      continue;
    }
    if (seen.has(input.field)) {
      errors.add([...entryPath(i), "field"], "This field is given more than once.");
      continue;
    }
    seen.add(input.field);
    const check = normaliseFieldValue(checkedType(definition), input.value);
    if ("error" in check) errors.add([...entryPath(i), "value"], check.error);
    else values.push({ fieldId: definition.id, key: definition.key, value: check.value, source: input.source ?? "shop" });
  }
  errors.throwIfAny();
  return values;
}

/**
 * Writes checked values (insert or replace, one statement), and keeps the profile's columns in
 * step: first_name, last_name and date_of_birth set the columns of the same meaning, and either
 * name sets the display name.
 */
export async function writeProfileFields(tx: Tx, patientId: string, values: readonly FieldValue[]): Promise<void> {
  if (values.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "PatientProperty" ("id", "patientId", "fieldId", "value", "source", "updatedAt")
    SELECT v."id", ${patientId}, v."fieldId", v."value", v."source", now()
      FROM unnest(${values.map(() => randomUUID())}::text[], ${values.map((v) => v.fieldId)}::text[],
                  ${values.map((v) => v.value)}::text[], ${values.map((v) => v.source)}::text[]) AS v("id", "fieldId", "value", "source")
    ON CONFLICT ("patientId", "fieldId") DO UPDATE SET "value" = EXCLUDED."value", "source" = EXCLUDED."source", "updatedAt" = now()`;

  const column = (key: ProfileColumnField) => values.find((v) => v.key === key)?.value;
  const firstName = column("first_name");
  const lastName = column("last_name");
  const dateOfBirth = column("date_of_birth");
  if (firstName === undefined && lastName === undefined && dateOfBirth === undefined) return;
  const profile = await tx.patientProfile.findUniqueOrThrow({ where: { id: patientId }, select: { firstName: true, lastName: true, displayName: true } });
  const names = { firstName: firstName ?? profile.firstName, lastName: lastName ?? profile.lastName };
  const displayName = displayNameOf(names);
  await tx.patientProfile.update({
    where: { id: patientId },
    data: {
      ...(firstName !== undefined || lastName !== undefined ? { ...names, displayName } : {}),
      ...(dateOfBirth !== undefined ? { dateOfBirth: new Date(`${dateOfBirth}T00:00:00Z`) } : {}),
    },
  });
  // The pharmacy orders' search finds the patient by the new name (the update above holds the row).
  if ((firstName !== undefined || lastName !== undefined) && displayName !== profile.displayName) await refreshSearchTextOfPatient(tx, patientId);
}

// ——— The definitions, as admins manage them (admin tool, Settings → Profile fields) ———

export type ProfileFieldDefinition = { id: string; key: string; displayName: string; type: string; source: string; valueCount: number };

/** The organisation's profile fields by key, with how many patients have a value for each. */
export async function listProfileFieldDefinitions(organisationId: string): Promise<ProfileFieldDefinition[]> {
  const db = await database();
  const rows = await db.patientFieldDefinition.findMany({
    where: { organisationId },
    select: { id: true, key: true, displayName: true, type: true, source: true, _count: { select: { values: true } } },
    orderBy: [{ key: "asc" }],
  });
  return rows.map(({ _count, ...row }) => ({ ...row, valueCount: _count.values }));
}

// The key is what the APIs name (`fields[].field`, `?field=`): short, lowercase, stable.
const FIELD_KEY = /^[a-z][a-z0-9_]*$/;

export type ProfileFieldInput = { displayName: string; type: string; source: string };

function checkedDefinition(input: ProfileFieldInput, errors: FieldErrorCollector): ProfileFieldInput {
  const displayName = input.displayName.trim();
  if (!displayName) errors.add(["displayName"], errorText("fields.notBlank"));
  else if (displayName.length > 200) errors.add(["displayName"], errorText("fields.maxLength", { maximum: 200 }));
  if (!isCheckable(input.type)) errors.add(["type"], errorText("fields.chooseOneOf", { values: PATIENT_FIELD_TYPES.join(", ") }));
  if (!(PATIENT_FIELD_SOURCES as readonly string[]).includes(input.source)) errors.add(["source"], errorText("fields.chooseOneOf", { values: PATIENT_FIELD_SOURCES.join(", ") }));
  return { ...input, displayName };
}

/** Adds a profile field; a key the organisation already has is a field error on `key`, nothing written. */
export async function addProfileFieldDefinition(organisationId: string, userId: string, input: ProfileFieldInput & { key: string }): Promise<{ id: string }> {
  const errors = new FieldErrorCollector();
  const key = input.key.trim();
  if (!key) errors.add(["key"], errorText("fields.notBlank"));
  else if (key.length > 64 || !FIELD_KEY.test(key)) errors.add(["key"], errorText("profileFields.keyFormat"));
  const definition = checkedDefinition(input, errors);
  errors.throwIfAny();
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      const created = await tx.patientFieldDefinition.create({ data: { organisationId, key, ...definition }, select: { id: true } });
      await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
        entity: "setting",
        entityId: created.id,
        action: "profile_field_added",
        values: { name: definition.displayName, key, type: definition.type },
        summary: `Profile field "${definition.displayName}" (${key}, ${definition.type}) added`,
      });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("key", errorText("profileFields.keyTaken"));
    throw error;
  }
}

/**
 * Changes a field's display name, type and source; the key stays (integrations name it). The type
 * may change only while no patient has a value, since stored values were checked against the old one.
 */
export async function changeProfileFieldDefinition(organisationId: string, userId: string, fieldId: string, input: ProfileFieldInput): Promise<void> {
  const errors = new FieldErrorCollector();
  const definition = checkedDefinition(input, errors);
  errors.throwIfAny();
  const db = await database();
  await db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ key: string; displayName: string; type: string; source: string }[]>`
      SELECT "key", "displayName", "type", "source" FROM "PatientFieldDefinition" WHERE "id" = ${fieldId} AND "organisationId" = ${organisationId} FOR UPDATE`;
    if (!current) throw new NotFoundError();
    if (definition.type !== current.type && (await tx.patientProperty.count({ where: { fieldId } })) > 0) {
      throw ValidationError.field("type", errorText("profileFields.typeInUse"));
    }
    const changes = (["displayName", "type", "source"] as const).filter((k) => definition[k] !== current[k]);
    if (changes.length === 0) return;
    await tx.patientFieldDefinition.update({ where: { id: fieldId }, data: definition });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "setting",
      entityId: fieldId,
      action: "profile_field_changed",
      values: { key: current.key, changes: changes.map((k) => `${k === "displayName" ? "name" : k} "${current[k]}" → "${definition[k]}"`).join(", ") },
      summary: `Profile field ${current.key} changed: ${changes.map((k) => `${k === "displayName" ? "name" : k} "${current[k]}" → "${definition[k]}"`).join(", ")}`,
    });
  });
}

/** Removes a field with every patient's value of it (the admin tool confirms, naming how many). */
export async function removeProfileFieldDefinition(organisationId: string, userId: string, fieldId: string): Promise<{ removedValues: number }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const definition = await tx.patientFieldDefinition.findFirst({ where: { id: fieldId, organisationId }, select: { key: true, displayName: true } });
    if (!definition) throw new NotFoundError();
    const { count } = await tx.patientProperty.deleteMany({ where: { fieldId } });
    // A concurrent removal got there first: this one removes nothing (and records nothing).
    if ((await tx.patientFieldDefinition.deleteMany({ where: { id: fieldId } })).count === 0) throw new NotFoundError();
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "setting",
      entityId: fieldId,
      action: "profile_field_removed",
      values: { name: definition.displayName, key: definition.key, count },
      summary: `Profile field "${definition.displayName}" (${definition.key}) removed with ${count} patient value${count === 1 ? "" : "s"}`,
    });
    return { removedValues: count };
  });
}
