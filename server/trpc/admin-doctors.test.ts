/**
 * The admin tool's doctor form (a doctor's prescriber details) over tRPC on a real database: who
 * may call, validation with field messages, another organisation's doctor not found, the change
 * audited once, and what the doctor's next prescription shows.
 */
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { toFieldErrors } from "@/server/wire/field-errors";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { trpcCode } from "@/tests/trpc";

let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let doctor: { id: string };
let foreignDoctor: { id: string };

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Anna Weber", email: "weber@example.com" } });
  foreignDoctor = await other.db.doctor.create({ data: { organisationId: other.organisation.id, displayName: "Dr. Fremd", phone: "+49 40 111111" } });
});

const details = {
  professionalTitle: "Fachärztin für Allgemeinmedizin",
  practiceName: "Hausarztpraxis am Markt",
  practiceStreet: "Marktstraße 1",
  practicePostalCode: "10115",
  practiceCity: "Berlin",
  practiceCountry: "de",
  phone: "+49 (30) 123 456-7",
  prescriptionEmail: "",
  identificationType: "LANR",
  identificationValue: "123456789",
};
const admin = () => as(users.admin).admin.doctors;
const auditOf = (entityId: string) => t.db.auditEvent.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });

/** The field messages of a refused call (zod's issues or the domain's fields), by field. */
async function fieldErrors(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe("BAD_REQUEST");
  const cause = (error as TRPCError).cause;
  expect(cause).toBeInstanceOf(ZodError);
  return toFieldErrors((cause as ZodError).issues);
}

describe("admin.doctors", () => {
  it("refuses the signed out, pharmacists and doctors, and does not find another organisation's doctor; nothing is written", async () => {
    const calls = (caller: ReturnType<typeof as>) => [
      () => caller.admin.doctors.get({ doctorUid: doctor.id }),
      () => caller.admin.doctors.changePrescriberDetails({ doctorUid: doctor.id, ...details }),
      // The Doctors section (issue 35).
      () => caller.admin.doctors.list(),
      () => caller.admin.doctors.context({ doctorUid: doctor.id }),
      () =>
        caller.admin.doctors.changeSettings({
          doctorUid: doctor.id,
          name: "Dr. X",
          email: null,
          minutesToRespond: 5,
          canSignQes: true,
          canSeeAllPrescriptions: false,
          questionnaireUids: [],
        }),
      () => caller.admin.doctors.requeue({ doctorUid: doctor.id, toDoctorUid: null }),
      () => caller.admin.doctors.setActive({ doctorUid: doctor.id, active: false }),
    ];
    for (const call of calls(as(null))) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const user of [users.pharmacist, users.doctor]) for (const call of calls(as(user))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await trpcCode(admin().get({ doctorUid: foreignDoctor.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(admin().changePrescriberDetails({ doctorUid: foreignDoctor.id, ...details }))).toBe("NOT_FOUND");
    expect(await trpcCode(admin().get({ doctorUid: "no-such-doctor" }))).toBe("NOT_FOUND");
    expect(await trpcCode(admin().context({ doctorUid: foreignDoctor.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(admin().requeue({ doctorUid: foreignDoctor.id, toDoctorUid: null }))).toBe("NOT_FOUND");
    expect(await trpcCode(admin().setActive({ doctorUid: foreignDoctor.id, active: false }))).toBe("NOT_FOUND");
    expect((await admin().list()).items.map((d) => d.uid)).not.toContain(foreignDoctor.id);
    expect(await other.db.doctor.findUniqueOrThrow({ where: { id: foreignDoctor.id } })).toMatchObject({ professionalTitle: null, phone: "+49 40 111111" });
    expect(await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).toMatchObject({ professionalTitle: null, phone: null });
    expect(await t.db.auditEvent.count({ where: { entityType: "doctor" } })).toBe(0);
  });

  it("refuses invalid details field by field, writing nothing", async () => {
    expect(
      await fieldErrors(
        admin().changePrescriberDetails({
          doctorUid: doctor.id,
          ...details,
          practiceCountry: "XX",
          phone: "call me",
          prescriptionEmail: "not an address",
          identificationValue: "12345678",
          professionalTitle: "x".repeat(201),
          practicePostalCode: "1",
        }),
      ),
    ).toEqual({
      practiceCountry: ["Enter a 2-letter ISO country code, e.g. DE."],
      phone: ["Enter a telephone number: digits, spaces and + ( ) / - only, at least 6 digits."],
      prescriptionEmail: ["Enter a valid e-mail address."],
      identificationValue: ["A LANR has exactly 9 digits."],
      professionalTitle: ["Ensure this field has no more than 200 characters."],
      practicePostalCode: ["Enter a postal code: 2 to 20 letters, digits, spaces or hyphens."],
    });
    expect(await fieldErrors(admin().changePrescriberDetails({ doctorUid: doctor.id, ...details, identificationType: "" }))).toEqual({
      identificationType: ["Name the kind of identification, e.g. LANR."],
    });
    expect(await fieldErrors(admin().changePrescriberDetails({ doctorUid: doctor.id, ...details, identificationType: "BSNR", identificationValue: " " }))).toEqual({
      identificationValue: ["Enter the identification number."],
    });
    expect(await fieldErrors(admin().changePrescriberDetails({ doctorUid: doctor.id, ...details, phone: "+49 1" }))).toEqual({
      phone: ["Enter a telephone number: digits, spaces and + ( ) / - only, at least 6 digits."],
    });
    expect(await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).toMatchObject({ professionalTitle: null, identificationValue: null });
    expect(await auditOf(doctor.id)).toHaveLength(0);
  });

  it("stores the details (empty as none, the country code in capitals), audits the change once, and shows it back", async () => {
    const saved = await admin().changePrescriberDetails({ doctorUid: doctor.id, ...details });
    expect(saved).toMatchObject({
      uid: doctor.id,
      name: "Dr. Anna Weber",
      email: "weber@example.com",
      prescriber: { ...details, practiceCountry: "DE", prescriptionEmail: null },
    });
    expect(await admin().get({ doctorUid: doctor.id })).toEqual(saved);
    expect(await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).toMatchObject({ practiceCountry: "DE", prescriptionEmail: null, phone: "+49 (30) 123 456-7" });
    const audit = await auditOf(doctor.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organisationId: t.organisation.id,
      entityType: "doctor",
      action: "prescriber_details_changed",
      actorType: "USER",
      actorUserId: users.admin.id,
      summary:
        'Doctor "Dr. Anna Weber": professional title, practice name, practice street, practice postal code, practice city, practice country, telephone, identification type, identification changed',
    });
    expect((audit[0].details as { changed: Record<string, unknown> }).changed.phone).toEqual({ from: null, to: "+49 (30) 123 456-7" });

    // The same again: nothing recorded. One field: only it.
    await admin().changePrescriberDetails({ doctorUid: doctor.id, ...details });
    expect(await auditOf(doctor.id)).toHaveLength(1);
    await admin().changePrescriberDetails({ doctorUid: doctor.id, ...details, prescriptionEmail: "rezepte@praxis.example" });
    expect((await auditOf(doctor.id)).map((a) => a.summary)).toEqual([expect.any(String), 'Doctor "Dr. Anna Weber": prescription e-mail changed']);
    // The audit log lists it under its kind.
    const log = await as(users.admin).admin.audit.list({ kinds: ["doctor"], limit: 10 });
    expect(log.entries.map((e) => e.summary)).toEqual(['Doctor "Dr. Anna Weber": prescription e-mail changed', expect.stringContaining("professional title")]);
  });
});
