import type { Db } from "@/server/db/client";

/** The sandbox organisation's profile fields (G24): the names and date of birth the profile follows, and a phone number. */
const FIELDS = [
  { key: "first_name", displayName: "First name", type: "text" },
  { key: "last_name", displayName: "Last name", type: "text" },
  { key: "date_of_birth", displayName: "Date of birth", type: "date" },
  { key: "phone", displayName: "Phone", type: "phone" },
];

/** Idempotent: a field that exists is left as it is (an admin may have renamed it). */
export async function seedPatientFields(db: Db, organisationId: string): Promise<void> {
  await db.patientFieldDefinition.createMany({
    data: FIELDS.map((f) => ({ organisationId, ...f, source: "shop" })),
    skipDuplicates: true,
  });
}
