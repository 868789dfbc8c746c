import type { Tx } from "@/server/db/client";

import { CANCELLED_AFTER_COMPLETION_REVIEW } from "./descriptions";

export { CANCELLED_AFTER_COMPLETION_REVIEW };

/**
 * A cancelled pharmacy order's payouts, in the cancelling transaction: projected rows are removed
 * (a preview of money that, without completion, is never paid — docs/decisions/pharmacy-orders.md#cancellation-after-completion);
 * routed rows stay as they are (the route exists at the provider) and are flagged for review, once.
 * Returns the rows flagged now.
 */
export async function settlePayoutsOfCancelledOrder(
  tx: Tx,
  pharmacyOrderId: string,
  now: Date,
): Promise<{ componentType: string; amount: number; currency: string }[]> {
  await tx.payout.deleteMany({ where: { pharmacyOrderId, status: "PROJECTED" } });
  const routed = await tx.payout.findMany({
    where: { pharmacyOrderId, status: "ROUTED", reviewFlaggedAt: null },
    select: { id: true, componentType: true, amount: true, currency: true },
    orderBy: [{ componentType: "asc" }, { id: "asc" }],
  });
  if (routed.length > 0) {
    await tx.payout.updateMany({
      where: { id: { in: routed.map((p) => p.id) } },
      data: { reviewFlaggedAt: now, reviewReason: CANCELLED_AFTER_COMPLETION_REVIEW },
    });
  }
  return routed.map(({ componentType, amount, currency }) => ({ componentType, amount, currency }));
}
