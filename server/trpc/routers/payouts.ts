/**
 * Payouts, one implementation mounted under both portals (pharmacy.payouts, admin.payouts): the rows
 * through the same query as GET /v1/external-pharmacy-api-v1/payouts and presented as its rows, with
 * the totals per status and currency of everything the filters match (not only the page shown);
 * rows flagged for review (cancelled after completion) say so, and each row names its receiving
 * pharmacy. Whose rows is the door's scope (payoutReceivers); the inputs and shapes are the same, so
 * one page (components/payouts/payouts-view.tsx) serves both portals.
 */
import { organisationPharmacy } from "@/server/domain/catalogue/pharmacy-skus";
import { listPayouts, payoutTotals, type PayoutFilters, type PayoutReceivers } from "@/server/domain/payouts/list-payouts";
import { router, type PortalProcedure, type PortalScope } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive } from "@/server/wire/schemas";
import { presentPortalPayoutRow } from "./payouts.presenters";
import { listPayoutsInput } from "./payouts.schemas";

/**
 * A pharmacist sees one receiving pharmacy's rows, as the REST family does (a group pharmacist
 * names one); an admin every pharmacy's of the organisation, or the one named (another
 * organisation's: NOT_FOUND).
 */
async function payoutReceivers(scope: PortalScope, pharmacyUid: string | undefined): Promise<PayoutReceivers> {
  if (scope.door === "pharmacy") return { pharmacyId: scope.pharmacy(pharmacyUid).id };
  if (pharmacyUid) return { pharmacyId: (await organisationPharmacy(scope.organisationId, pharmacyUid)).id };
  return { organisationId: scope.organisationId };
}

export const payoutsRouter = (procedure: PortalProcedure) =>
  router({
    list: procedure.input(listPayoutsInput).query(async ({ ctx, input }) => {
      const receivers = await payoutReceivers(ctx.scope, input.pharmacyUid);
      const filters: PayoutFilters = {
        status: input.status,
        search: input.search,
        from: fromUnixSeconds(input.from),
        to: toUnixSecondsInclusive(input.to),
        sortBy: input.sortBy,
        sortDirection: input.sortDirection,
      };
      const [{ items, total }, totals] = await Promise.all([
        listPayouts(receivers, filters, { page: input.page, limit: input.limit }),
        payoutTotals(receivers, filters),
      ]);
      return {
        items: items.map((row) => presentPortalPayoutRow(row, ctx.scope.door)),
        totals,
        total,
        page: input.page,
        limit: input.limit,
        totalPages: Math.ceil(total / input.limit),
      };
    }),
  });
