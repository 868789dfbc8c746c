import type { Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

export type LockedPrescription = {
  id: string;
  organisationId: string;
  orderId: string | null;
  patientId: string;
  doctorId: string | null;
  status: string;
  renderedFileKey: string | null;
  signedFileKey: string | null;
  /** A Sign centre batch's claim on it and the claim's end (sign-approved.ts). */
  signingClaimId: string | null;
  signingClaimedUntil: Date | null;
  /** Its order is on hold (on_hold at intake, until released): no doctor decides on it meanwhile. */
  orderOnHold: boolean;
};

/**
 * Locks a live (not deleted) prescription of the organisation for the rest of the transaction, so
 * that decisions, external signing and rendering on one prescription run one after the other.
 * Its order is locked first (FOR UPDATE), the order in which order commands (fulfillment
 * cancellation, adding a fulfillment) take their locks, so the two never wait on each other in a
 * circle. A prescription of another organisation, or a deleted one, is not found.
 */
export async function lockPrescription(tx: Tx, organisationId: string, prescriptionId: string): Promise<LockedPrescription> {
  const found = await tx.prescription.findFirst({
    where: { id: prescriptionId, organisationId, deletedAt: null },
    select: { orderId: true },
  });
  if (!found) throw new NotFoundError();
  const [order] = found.orderId
    ? await tx.$queryRaw<{ onHold: boolean }[]>`SELECT "onHold" FROM "Order" WHERE "id" = ${found.orderId} FOR UPDATE`
    : [];
  const [row] = await tx.$queryRaw<Omit<LockedPrescription, "orderOnHold">[]>`
    SELECT "id", "organisationId", "orderId", "patientId", "doctorId", "status", "renderedFileKey", "signedFileKey", "signingClaimId", "signingClaimedUntil"
    FROM "Prescription"
    WHERE "id" = ${prescriptionId} AND "organisationId" = ${organisationId} AND "deletedAt" IS NULL
    FOR UPDATE`;
  if (!row) throw new NotFoundError();
  return { ...row, orderOnHold: order?.onHold ?? false };
}

/** Claimed by a batch other than `claimId` whose lease has not run out: nobody else signs it meanwhile. */
export function claimedByAnother(p: Pick<LockedPrescription, "signingClaimId" | "signingClaimedUntil">, claimId?: string | null, now = new Date()): boolean {
  return !!p.signingClaimId && p.signingClaimId !== claimId && !!p.signingClaimedUntil && new Date(p.signingClaimedUntil) > now;
}
