/** Prescriptions for tests: a patient, a doctor and lines on the tenant's SKUs, written directly. */
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
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

/**
 * A signed prescription of a shop customer's patient (the customer is created if new), prescribing
 * `lines` (default one of the Rx SKU): what intake path (c) redeems for that customer's orders, up to
 * its quantities (docs/decisions/prescriptions.md#prescription-redemption). Issued outside any order.
 */
export async function signedPrescriptionOf(
  t: Tenant,
  customerId: string,
  lines: { skuId?: string; quantity: number }[] = [{ quantity: 1 }],
  options: { source?: "DOCTOR" | "EXTERNAL"; doctorId?: string } = {},
) {
  const patient = await t.db.$transaction((tx) => findOrCreateShopCustomer(tx, t.organisation.id, t.shop.id, { id: customerId }));
  return t.db.prescription.create({
    data: {
      organisationId: t.organisation.id,
      patientId: patient.id,
      doctorId: options.doctorId ?? null,
      status: "signed",
      source: options.source ?? "DOCTOR",
      signedAt: new Date(),
      lines: { create: lines.map((l) => ({ skuId: l.skuId ?? t.rxSku.id, quantity: l.quantity })) },
    },
  });
}
