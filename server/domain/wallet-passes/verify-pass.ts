import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { passStatus } from "./revoke-pass";
import { barcodeHash } from "./secrets";

export type PassVerification = { valid: boolean; status: string; walletPassId: string; shopCustomerId: string };

/**
 * Checks a scanned barcode value: a live pass is valid; a deleted one answers valid false with status
 * revoked (spec: not 404). A value of no pass of the organisation is not found. Identity handles only.
 * The one rule for the Management API's verify and the pharmacy portal's counter check.
 */
export async function verifyWalletPass(organisationId: string, barcodeValue: string): Promise<PassVerification> {
  const db = await database();
  const pass = await db.walletPass.findFirst({
    where: { barcodeHash: barcodeHash(barcodeValue), template: { organisationId } },
    select: { id: true, status: true, deletedAt: true, shopCustomer: { select: { shopCustomerId: true } } },
  });
  if (!pass) throw new NotFoundError();
  return {
    valid: pass.deletedAt === null,
    status: passStatus(pass),
    walletPassId: pass.id,
    shopCustomerId: pass.shopCustomer.shopCustomerId,
  };
}
