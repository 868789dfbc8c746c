/**
 * Pharmacy portal, Payouts: the rows of which the pharmacy is the receiver, through the same query
 * as GET /v1/external-pharmacy-api-v1/payouts and presented as its rows, with the totals per status
 * and currency of everything the filters match (not only the page shown); rows flagged for review
 * say so.
 */
import { listPayouts, payoutTotals, type PayoutFilters } from "@/server/domain/payouts/list-payouts";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive } from "@/server/wire/schemas";
import { presentPortalPayoutRow } from "./payouts.presenters";
import { listPayoutsInput } from "./payouts.schemas";

export const payoutsRouter = router({
  list: pharmacyProcedure.input(listPayoutsInput).query(async ({ ctx, input }) => {
    // Payouts are per receiving pharmacy, as in the REST family: a group pharmacist names one.
    const pharmacy = ctx.scope.pharmacy(input.pharmacyUid);
    const filters: PayoutFilters = {
      status: input.status,
      search: input.search,
      from: fromUnixSeconds(input.from),
      to: toUnixSecondsInclusive(input.to),
      sortBy: input.sortBy,
      sortDirection: input.sortDirection,
    };
    const [{ items, total }, totals] = await Promise.all([
      listPayouts(pharmacy.id, filters, { page: input.page, limit: input.limit }),
      payoutTotals(pharmacy.id, filters),
    ]);
    return {
      items: items.map(presentPortalPayoutRow),
      totals,
      total,
      page: input.page,
      limit: input.limit,
      totalPages: Math.ceil(total / input.limit),
    };
  }),
});
