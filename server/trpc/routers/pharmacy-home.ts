/**
 * Pharmacy portal, Home: what needs the pharmacist's attention — orders waiting for the pharmacy,
 * orders on hold, orders with an admin's answer not read yet, and webhook deliveries that failed
 * for good in the last days.
 */
import { listWebhookDeliveries } from "@/server/domain/webhooks/delivery-logs";
import { countPharmacyOrdersByStatus } from "@/server/domain/pharmacy-orders/tally";
import { listUnreadAnswers } from "@/server/domain/pharmacy-orders/issue-thread-answers";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { uid } from "@/server/wire/schemas";
import { z } from "zod";

/** How far back the home page counts failed deliveries. */
export const FAILED_DELIVERY_DAYS = 7;
/** How many of the orders with a new answer the home page names (the count covers all). */
export const NEW_ANSWERS_SHOWN = 5;

export const pharmacyHomeRouter = router({
  summary: pharmacyProcedure.input(z.object({ pharmacyUid: uid().optional() }).default({})).query(async ({ ctx, input }) => {
    const pharmacyIds = ctx.scope.pharmacyIds(input.pharmacyUid);
    const since = new Date(Date.now() - FAILED_DELIVERY_DAYS * 24 * 60 * 60 * 1000);
    const [orders, answers, failed] = await Promise.all([
      countPharmacyOrdersByStatus(pharmacyIds),
      listUnreadAnswers(pharmacyIds, NEW_ANSWERS_SHOWN),
      listWebhookDeliveries({ pharmacyIds, state: "failed", from: since, page: 0, limit: 1 }),
    ]);
    return {
      waitingForPharmacy: orders[PHARMACY_ORDER_STATUS.waitingForPharmacy] ?? 0,
      onHold: orders[PHARMACY_ORDER_STATUS.onHold] ?? 0,
      newAnswers: { count: answers.count, orders: answers.orders.map((o) => ({ uid: o.id, name: o.name, answeredAt: unix(o.unreadAnswerAt) })) },
      failedDeliveries: { count: failed.total, since: unix(since), days: FAILED_DELIVERY_DAYS },
    };
  }),
});
