/**
 * The admin tool, Home: what needs attention in the organisation, each a count the page links to
 * its filtered list (server/domain/admin-home/attention.ts).
 */
import {
  countFailedDeliveries,
  countOpenThreads,
  countOrdersWaitingForDoctor,
  countOrdersWithoutPharmacy,
  countOverdueRequests,
  countPharmaciesRunningOut,
  FAILED_DELIVERY_DAYS,
} from "@/server/domain/admin-home/attention";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";

export const adminHomeRouter = router({
  summary: adminProcedure.query(async ({ ctx }) => {
    const organisationId = ctx.scope.organisationId;
    const since = new Date(Date.now() - FAILED_DELIVERY_DAYS * 24 * 60 * 60 * 1000);
    const [openThreads, waitingForDoctor, withoutPharmacy, failedDeliveries, pharmaciesRunningOut, overdueRequests] = await Promise.all([
      countOpenThreads(organisationId),
      countOrdersWaitingForDoctor(organisationId),
      countOrdersWithoutPharmacy(organisationId),
      countFailedDeliveries(organisationId, since),
      countPharmaciesRunningOut(organisationId),
      countOverdueRequests(organisationId),
    ]);
    return {
      openThreads,
      waitingForDoctor,
      overdueRequests,
      withoutPharmacy,
      failedDeliveries: { count: failedDeliveries, since: unix(since), days: FAILED_DELIVERY_DAYS },
      pharmaciesRunningOut: { count: pharmaciesRunningOut, threshold: LOW_STOCK_THRESHOLD },
    };
  }),
});
