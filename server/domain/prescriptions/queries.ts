import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { redemptionsOf } from "./redemption";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUSES } from "./statuses";

/**
 * One live prescription of the organisation with its doctor and lines, each with what of it is
 * redeemed; another organisation's or a deleted one is not found.
 */
export async function getPrescription(organisationId: string, prescriptionId: string) {
  const db = await database();
  const prescription = await db.prescription.findFirst({
    where: { id: prescriptionId, organisationId, deletedAt: null },
    select: {
      id: true,
      status: true,
      orderId: true,
      renderedFileKey: true,
      signedAt: true,
      createdAt: true,
      updatedAt: true,
      doctor: { select: { id: true, displayName: true } },
      lines: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          skuId: true,
          quantity: true,
          dosage: true,
          anamnesisId: true,
          orderItem: { select: { anamnesisId: true } },
          sku: { select: { displayName: true, pzn: true, dosage: true } },
        },
      },
    },
  });
  if (!prescription) throw new NotFoundError();
  const redeemed = new Map((await redemptionsOf(db, [prescription.id])).get(prescription.id)?.lines.map((l) => [l.lineId, l]));
  return {
    ...prescription,
    lines: prescription.lines.map((line) => ({
      ...line,
      redeemed: redeemed.get(line.id)?.redeemed ?? 0,
      remaining: redeemed.get(line.id)?.remaining ?? line.quantity,
    })),
  };
}

export type PrescriptionDetail = Awaited<ReturnType<typeof getPrescription>>;

export type PrescriptionStatistics = { total: number; byStatus: Record<string, number> };

/**
 * How many of the organisation's live (not deleted) prescriptions are in each status now, without
 * a date filter. Every status is listed (0 when none); other spellings of a status count under its
 * one spelling.
 */
export async function prescriptionStatistics(organisationId: string): Promise<PrescriptionStatistics> {
  const db = await database();
  const groups = await db.prescription.groupBy({
    by: ["status"],
    where: { organisationId, deletedAt: null },
    _count: { _all: true },
  });
  const byStatus: Record<string, number> = Object.fromEntries(PRESCRIPTION_STATUSES.map((s) => [s, 0]));
  let total = 0;
  for (const group of groups) {
    const status = normalisePrescriptionStatus(group.status) ?? group.status;
    byStatus[status] = (byStatus[status] ?? 0) + group._count._all;
    total += group._count._all;
  }
  return { total, byStatus };
}
