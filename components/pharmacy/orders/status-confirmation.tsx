import type { ReactNode } from "react";
import type { StatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";

/** What the Status card's and the queue's confirmation say and how its button is named. */
export type StatusConfirmation = { title: string; confirmLabel: string; tone: "primary" | "danger"; consequence: ReactNode };

const { completed, cancelled } = PHARMACY_ORDER_STATUS;

// The consequences as the domain carries them out: cancel.ts (stock back, routed payouts flagged,
// projected ones removed; cancelled is final) and complete.ts (stock and money move at the first
// completion only, so an order that leaves completed and comes back is not counted twice).
const CANCELLED_IS_FINAL = "A cancelled order is final: it cannot be changed or completed afterwards.";
const CANCELLING_A_COMPLETION =
  "The stock its completion took goes back to the pharmacy's stock, and its routed payouts are flagged for review (what happens to the money is decided by a person). The shipment stays recorded.";
const LEAVING_COMPLETED =
  "The shipment stays recorded, the stock its completion took stays taken and its payouts stay routed. Completing it again later reduces no stock and routes no payouts a second time.";

/**
 * The confirmation a single order's status change needs, or null when it needs none: cancelling
 * (final) and any move out of completed ask; the everyday moves between live statuses do not.
 */
export function statusChangeConfirmation(statusLabel: StatusLabel, orderName: string, from: string, to: string): StatusConfirmation | null {
  if (to === cancelled) {
    return {
      title: `Cancel order ${orderName}?`,
      confirmLabel: "Cancel the order",
      tone: "danger",
      consequence: (
        <>
          <p>{CANCELLED_IS_FINAL}</p>
          <p>
            {from === completed
              ? `${orderName} is completed. ${CANCELLING_A_COMPLETION}`
              : `If it was completed before, the stock its completion took goes back and its routed payouts are flagged for review.`}
          </p>
        </>
      ),
    };
  }
  if (from === completed) {
    const label = statusLabel("pharmacyOrder", to);
    return {
      title: `Reopen completed order ${orderName}?`,
      confirmLabel: `Move to ${label}`,
      tone: "primary",
      consequence: (
        <>
          <p>
            {orderName} leaves completed and goes back to “{label}”: it is in the pharmacy&apos;s queue again.
          </p>
          <p>{LEAVING_COMPLETED}</p>
        </>
      ),
    };
  }
  return null;
}

/** The confirmation of the queue's bulk status change, which always asks: many orders move at once. */
export function bulkStatusChangeConfirmation(statusLabel: StatusLabel, count: number, completedCount: number, to: string): StatusConfirmation {
  const orders = `${count} order${count === 1 ? "" : "s"}`;
  const label = statusLabel("pharmacyOrder", to);
  const completedNote =
    completedCount === 0
      ? null
      : to === cancelled
        ? `${completedCount} of them ${completedCount === 1 ? "is" : "are"} completed: ${CANCELLING_A_COMPLETION}`
        : `${completedCount} of them ${completedCount === 1 ? "is" : "are"} completed and go${completedCount === 1 ? "es" : ""} back to the queue. ${LEAVING_COMPLETED}`;
  return {
    title: `Change the status of ${orders} to “${label}”?`,
    confirmLabel: `Change status of ${orders}`,
    tone: to === cancelled ? "danger" : "primary",
    consequence: (
      <>
        <p>
          Each selected order moves to “{label}”, one by one; an order that cannot (a cancelled one) is listed as refused.
        </p>
        {to === cancelled ? <p>{CANCELLED_IS_FINAL}</p> : null}
        {completedNote ? <p>{completedNote}</p> : null}
      </>
    ),
  };
}
