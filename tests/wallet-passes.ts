/** Wallet pass fixtures: templates of a tenant's shops and patients who are customers of a shop. */
import { randomUUID } from "node:crypto";
import { database } from "@/server/db/client";
import type { Tenant } from "./fixtures";

export async function createWalletTemplates(t: Tenant) {
  const db = await database();
  const organisationId = t.organisation.id;
  const plain = await db.walletPassTemplate.create({ data: { organisationId, shopId: t.shop.id, displayName: "Member card" } });
  const rx = await db.walletPassTemplate.create({
    data: { organisationId, shopId: t.shop.id, displayName: "Treatment card", requiresSignedPrescription: true },
  });
  const otherShop = await db.walletPassTemplate.create({ data: { organisationId, shopId: t.otherShop.id, displayName: "Shop 2 card" } });
  return { plain, rx, otherShop };
}

/** A patient profile of the tenant and its customer link to a shop (the shop's own customer id). */
export async function createCustomer(t: Tenant, options: { shopId?: string; shopCustomerId?: string; firstName?: string } = {}) {
  const db = await database();
  const tag = randomUUID().slice(0, 8);
  const patient = await db.patientProfile.create({
    data: { organisationId: t.organisation.id, displayName: `Patient ${tag}`, firstName: options.firstName ?? "Erika", lastName: "Muster", email: `p-${tag}@example.com` },
  });
  const customer = await db.shopCustomer.create({
    data: { shopId: options.shopId ?? t.shop.id, shopCustomerId: options.shopCustomerId ?? `cust-${tag}`, patientId: patient.id, email: patient.email },
  });
  return { patient, customer, shopCustomerId: customer.shopCustomerId };
}

/** A prescription of the patient, signed or not. */
export async function createPrescription(t: Tenant, patientId: string, signed: boolean) {
  const db = await database();
  return db.prescription.create({
    data: {
      organisationId: t.organisation.id,
      patientId,
      status: signed ? "signed" : "waiting for doctor",
      source: "DOCTOR",
      signedAt: signed ? new Date() : null,
    },
  });
}
