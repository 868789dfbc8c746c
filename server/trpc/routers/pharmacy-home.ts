/**
 * Pharmacy portal, Home: what needs the pharmacist's attention — orders waiting for the pharmacy,
 * orders on hold, and webhook deliveries that failed for good in the last days.
 */
import { listWebhookDeliveries } from "@/server/domain/webhooks/delivery-logs";
import { resolvePharmacyScope } from "@/server/domain/pharmacies/pharmacy-scope";
import { countPharmacyOrdersByStatus } from "@/server/domain/pharmacy-orders/tally";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { uid } from "@/server/wire/schemas";
import { z } from "zod";

/** How far back the home page counts failed deliveries. */
export const FAILED_DELIVERY_DAYS = 7;

export const pharmacyHomeRouter = router({
  summary: pharmacistProcedure.input(z.object({ pharmacyUid: uid().optional() }).default({})).query(async ({ ctx, input }) => {
    const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    const since = new Date(Date.now() - FAILED_DELIVERY_DAYS * 24 * 60 * 60 * 1000);
    const [orders, failed] = await Promise.all([
      countPharmacyOrdersByStatus(pharmacyIds),
      listWebhookDeliveries({ pharmacyIds, state: "failed", from: since, page: 0, limit: 1 }),
    ]);
    return {
      waitingForPharmacy: orders[PHARMACY_ORDER_STATUS.waitingForPharmacy] ?? 0,
      onHold: orders[PHARMACY_ORDER_STATUS.onHold] ?? 0,
      failedDeliveries: { count: failed.total, since: unix(since), days: FAILED_DELIVERY_DAYS },
    };
  }),
});
