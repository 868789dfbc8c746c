import { database, type Tx } from "@/server/db/client";
import { ValidationError } from "@/server/domain/errors";
import { checkProfileField, UNKNOWN_FIELD_MESSAGE, writeProfileFields } from "./profile-fields";
import { knownShopCustomerPatient, type ShopCustomerRef } from "./shop-customers";

/**
 * One profile field of a shop customer's patient (GET and POST /api/v0/patient/properties, G24,
 * G25): the field's definition with the patient's value, null while none is set.
 * docs/decisions/patients.md#patient-data-and-patient-tokens
 */
export type PatientProperty = {
  key: string;
  displayName: string;
  type: string;
  /** Where the field's values usually come from (the definition's source). */
  source: string;
  value: string | null;
  /** Who set the current value. */
  valueSource: string | null;
  updatedAt: Date | null;
};

async function propertyOf(tx: Tx, organisationId: string, patientId: string, key: string): Promise<PatientProperty> {
  const definition = await tx.patientFieldDefinition.findUnique({
    where: { organisationId_key: { organisationId, key } },
    include: { values: { where: { patientId }, select: { value: true, source: true, updatedAt: true } } },
  });
  if (!definition) throw ValidationError.field("field", UNKNOWN_FIELD_MESSAGE);
  const [value] = definition.values;
  return {
    key: definition.key,
    displayName: definition.displayName,
    type: definition.type,
    source: definition.source,
    value: value?.value ?? null,
    valueSource: value?.source ?? null,
    updatedAt: value?.updatedAt ?? null,
  };
}

/** The customer's value of one profile field; an unknown customer is not found, an unknown field key a validation error on `field`. */
export async function getPatientProperty(organisationId: string, customer: ShopCustomerRef, key: string): Promise<PatientProperty> {
  const db = await database();
  const patientId = await knownShopCustomerPatient(db, organisationId, customer);
  return propertyOf(db, organisationId, patientId, key);
}

/**
 * Sets one profile field of a known customer's patient, checked against the field's type (the
 * profile's names and date of birth follow, profile-fields.ts), source `shop`. One transaction:
 * concurrent sets of one field leave one row, the last one's value.
 */
export async function setPatientProperty(
  organisationId: string,
  customer: ShopCustomerRef,
  input: { field: string; value: string },
): Promise<PatientProperty> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const patientId = await knownShopCustomerPatient(tx, organisationId, customer);
    const value = await checkProfileField(tx, organisationId, { field: input.field, value: input.value, source: "shop" });
    await writeProfileFields(tx, patientId, [value]);
    return propertyOf(tx, organisationId, patientId, value.key);
  });
}
