"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useStatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";

/** What the Status card's and the queue's confirmation say and how its button is named. */
export type StatusConfirmation = { title: string; confirmLabel: string; tone: "primary" | "danger"; consequence: ReactNode };

const { completed, cancelled } = PHARMACY_ORDER_STATUS;

// The consequences as the domain carries them out (messages pharmacy.confirm.*): cancel.ts (stock
// back only when the goods came back, routed payouts flagged, projected ones removed; cancelled is final) and complete.ts (stock
// and money move at the first completion only, so an order that leaves completed and comes back is
// not counted twice); a cancelled order never completed is given back for re-routing (reroute.ts).

/** The one question of a cancellation only the pharmacist can answer: did the completed order's goods come back? Default no. */
export function GoodsReturnedChoice({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="mt-3 flex items-start gap-2 text-sm text-slate-800">
      <input type="checkbox" className="mt-0.5 h-4 w-4" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** The confirmations of status changes in the page's language. */
export function useStatusConfirmations() {
  const t = useTranslations("pharmacy.confirm");
  const statusLabel = useStatusLabel();
  return {
    /**
     * The confirmation a single order's status change needs, or null when it needs none: cancelling
     * (final) and any move out of completed ask; the everyday moves between live statuses do not.
     */
    single(orderName: string, from: string, to: string): StatusConfirmation | null {
      if (to === cancelled) {
        return {
          title: t("cancelTitle", { order: orderName }),
          confirmLabel: t("cancelConfirm"),
          tone: "danger",
          consequence: (
            <>
              <p>{t("cancelledIsFinal")}</p>
              <p>{from === completed ? t("cancellingCompleted", { order: orderName }) : t("cancellingMaybeCompleted")}</p>
              {from === completed ? null : <p>{t("cancellingGivesBack")}</p>}
            </>
          ),
        };
      }
      if (from === completed) {
        const status = statusLabel("pharmacyOrder", to);
        return {
          title: t("reopenTitle", { order: orderName }),
          confirmLabel: t("reopenConfirm", { status }),
          tone: "primary",
          consequence: (
            <>
              <p>{t("reopenMeans", { order: orderName, status })}</p>
              <p>{t("leavingCompleted")}</p>
            </>
          ),
        };
      }
      return null;
    },
    /** The confirmation of the queue's bulk status change, which always asks: many orders move at once. */
    bulk(count: number, completedCount: number, to: string): StatusConfirmation {
      const status = statusLabel("pharmacyOrder", to);
      return {
        title: t("bulkTitle", { count, status }),
        confirmLabel: t("bulkConfirm", { count }),
        tone: to === cancelled ? "danger" : "primary",
        consequence: (
          <>
            <p>{t("bulkMeans", { status })}</p>
            {to === cancelled ? <p>{t("cancelledIsFinal")}</p> : null}
            {to === cancelled ? <p>{t("cancellingGivesBack")}</p> : null}
            {completedCount === 0 ? null : <p>{to === cancelled ? t("bulkCancellingCompleted", { count: completedCount }) : t("bulkReopening", { count: completedCount })}</p>}
          </>
        ),
      };
    },
  };
}
