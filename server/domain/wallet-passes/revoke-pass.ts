import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";
import { requestPassUpdatePush } from "./push-pass-update";

/** The status a pass shows once deleted: verify answers it with valid false (spec: "verified as revoked"). */
export const REVOKED = "revoked";

/** A pass's status as every reader shows it: a deleted pass is revoked, whatever its row says. */
export const passStatus = (pass: { status: string; deletedAt: Date | null }): string => (pass.deletedAt === null ? pass.status : REVOKED);

/**
 * Soft-deletes a live pass of the organisation (deletedAt set, status revoked); a deleted or foreign
 * pass is not found. Its devices are told, so phones fetch it voided. The same command for the
 * Management API's DELETE and the admin tool's "Revoke pass", audited either way. The live row is
 * locked first: of two revocations at once the second finds it deleted (not found), so one
 * revocation makes one audit entry and one push.
 */
export async function revokeWalletPass(organisationId: string, passId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const [pass] = await tx.$queryRaw<{ template: string; shopIdentifier: string; shopCustomerId: string; patientId: string }[]>`
      SELECT t."displayName" AS "template", s."identifier" AS "shopIdentifier", c."shopCustomerId", c."patientId"
        FROM "WalletPass" p
        JOIN "WalletPassTemplate" t ON t."id" = p."templateId"
        JOIN "Shop" s ON s."id" = t."shopId"
        JOIN "ShopCustomer" c ON c."id" = p."shopCustomerId"
       WHERE p."id" = ${passId} AND p."deletedAt" IS NULL AND t."organisationId" = ${organisationId}
         FOR UPDATE OF p`;
    if (!pass) throw new NotFoundError();
    await tx.walletPass.update({ where: { id: passId }, data: { deletedAt: new Date(), status: REVOKED } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "wallet_pass",
      entityId: passId,
      action: "revoked",
      values: { template: pass.template, customer: pass.shopCustomerId, shop: pass.shopIdentifier },
      // The shop's customer id is an identity handle, not a name: the log stays free of patient data.
      summary: `Wallet pass "${pass.template}" of customer ${pass.shopCustomerId} (${pass.shopIdentifier}) revoked`,
      details: { patient_uid: pass.patientId, shop_identifier: pass.shopIdentifier, shop_customer_id: pass.shopCustomerId },
    });
    await requestPassUpdatePush(tx, passId);
  });
}
