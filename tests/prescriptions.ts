/** Prescriptions for tests: a patient, a doctor and lines on the tenant's SKUs, written directly. */
import type { Tenant } from "./fixtures";

export async function createPrescription(
  t: Tenant,
  options: { status?: string; withDoctor?: boolean; deleted?: boolean; organisationId?: string } = {},
) {
  const organisationId = options.organisationId ?? t.organisation.id;
  const patient = await t.db.patientProfile.create({
    data: { organisationId, displayName: "erika@example.com", firstName: "Erika", lastName: "Müller", dateOfBirth: new Date("1984-03-09T00:00:00Z") },
  });
  const doctor =
    options.withDoctor === false ? null : await t.db.doctor.create({ data: { organisationId, displayName: "Dr. Anna Schmidt" } });
  return t.db.prescription.create({
    data: {
      organisationId,
      patientId: patient.id,
      doctorId: doctor?.id ?? null,
      status: options.status ?? "waiting for doctor",
      source: "DOCTOR",
      deletedAt: options.deleted ? new Date() : null,
      lines: {
        create: [
          { skuId: t.rxSku.id, quantity: 2, dosage: "1 tablet daily" },
          { skuId: t.sku.id, quantity: 1 },
        ],
      },
    },
  });
}
