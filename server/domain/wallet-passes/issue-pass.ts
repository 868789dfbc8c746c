import { randomUUID } from "node:crypto";
import { database, type Tx } from "@/server/db/client";
import { BadRequestError, ConflictError, NotFoundError, UnprocessableError } from "@/server/domain/errors";
import { SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "@/server/domain/prescriptions/statuses";
import { requestPassUpdatePush } from "./push-pass-update";
import { findLivePass, findShopOfOrganisation, type WalletPassView } from "./queries";
import { newBarcode } from "./secrets";

export const NOT_A_CUSTOMER = "The patient must already be a customer of the shop: no customer with this shop_customer_id in this shop.";
export const NEEDS_SIGNED_PRESCRIPTION = "This wallet pass template requires a signed prescription for the patient.";

export type IssuePassInput = { templateId: string; shopIdentifier: string; shopCustomerId: string };

/**
 * Issues a customer's pass for a template, or refreshes the live one they already hold (one live
 * pass per customer and template, also under concurrent requests: the partial unique index
 * WalletPass_live_template_customer_key with INSERT … ON CONFLICT DO NOTHING, then the winner's row
 * locked and refreshed). Refreshing bumps updatedAt and tells the pass's devices, so phones that
 * hold the pass fetch it again; the barcode stays. docs/decisions/patients.md#wallet-passes.
 */
export async function issueWalletPass(organisationId: string, input: IssuePassInput): Promise<{ pass: WalletPassView; created: boolean }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const shop = await findShopOfOrganisation(tx, organisationId, input.shopIdentifier);
    const template = await tx.walletPassTemplate.findFirst({
      where: { id: input.templateId, shopId: shop.id, organisationId },
      select: { id: true, requiresSignedPrescription: true },
    });
    if (!template) throw new NotFoundError();
    const customer = await tx.shopCustomer.findUnique({
      where: { shopId_shopCustomerId: { shopId: shop.id, shopCustomerId: input.shopCustomerId } },
      select: { id: true, patientId: true },
    });
    if (!customer) throw new BadRequestError(NOT_A_CUSTOMER, { code: "not_a_shop_customer" });
    if (template.requiresSignedPrescription && !(await hasSignedPrescription(tx, organisationId, customer.patientId))) {
      throw new UnprocessableError(NEEDS_SIGNED_PRESCRIPTION);
    }

    // Twice at most: the live pass that made the insert give way may be deleted before it is read.
    for (let round = 0; round < 2; round++) {
      const barcode = newBarcode();
      const inserted = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "WalletPass" ("id", "templateId", "shopCustomerId", "status", "barcodeHash", "barcodeSealed", "updatedAt")
        VALUES (${randomUUID()}, ${template.id}, ${customer.id}, 'active', ${barcode.hash}, ${barcode.sealed}, now())
        ON CONFLICT ("templateId", "shopCustomerId") WHERE "deletedAt" IS NULL DO NOTHING
        RETURNING "id"`;
      if (inserted.length > 0) return { pass: await findLivePass(tx, organisationId, inserted[0].id), created: true };

      // The customer already holds a live pass of this template (perhaps committed a moment ago by a concurrent request).
      const [existing] = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "WalletPass"
         WHERE "templateId" = ${template.id} AND "shopCustomerId" = ${customer.id} AND "deletedAt" IS NULL
           FOR UPDATE`;
      if (!existing) continue;
      await tx.walletPass.update({ where: { id: existing.id }, data: { updatedAt: new Date() } });
      await requestPassUpdatePush(tx, existing.id);
      return { pass: await findLivePass(tx, organisationId, existing.id), created: false };
    }
    throw new ConflictError("The customer's wallet pass changed during the request: retry it.");
  });
}

/** A signed prescription of the patient: signed (any signed status) and not deleted. */
async function hasSignedPrescription(tx: Tx, organisationId: string, patientId: string): Promise<boolean> {
  const found = await tx.prescription.findFirst({
    where: { organisationId, patientId, deletedAt: null, signedAt: { not: null }, status: { in: storedSpellings(SIGNED_PRESCRIPTION_STATUSES) } },
    select: { id: true },
  });
  return found !== null;
}
