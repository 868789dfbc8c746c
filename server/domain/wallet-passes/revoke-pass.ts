import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { requestPassUpdatePush } from "./push-pass-update";

/** The status a pass shows once deleted: verify answers it with valid false (spec: "verified as revoked"). */
export const REVOKED = "revoked";

/**
 * Soft-deletes a live pass of the organisation (deletedAt set, status revoked); a deleted or foreign
 * pass is not found. Its devices are told, so phones fetch it voided.
 */
export async function revokeWalletPass(organisationId: string, passId: string): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const { count } = await tx.walletPass.updateMany({
      where: { id: passId, deletedAt: null, template: { organisationId } },
      data: { deletedAt: new Date(), status: REVOKED },
    });
    if (count === 0) throw new NotFoundError();
    await requestPassUpdatePush(tx, passId);
  });
}
