import { z } from "zod";
import { fromUnixSeconds, searchTerm, toUnixSecondsInclusive, uid, unixSecondsQuery } from "@/server/wire/schemas";
import { listPayouts, PAYOUT_SORT_FIELDS } from "@/server/domain/payouts/list-payouts";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { payoutRowSchema, presentPayoutRow } from "./payout.presenters";

const payoutsQuery = z
  .object({
    pharmacy_uid: uid().optional(),
    status: z.enum(["projected", "routed"]).optional(),
    search: searchTerm(),
    start_date: unixSecondsQuery(),
    end_date: unixSecondsQuery(),
    sort_by: z.enum(PAYOUT_SORT_FIELDS).default("pharmacy_order_created_at"),
    sort_direction: z.enum(["asc", "desc"]).default("desc"),
  })
  .superRefine((q, ctx) => {
    if (q.start_date !== undefined && q.end_date !== undefined && q.end_date < q.start_date) {
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before start_date." });
    }
  });

export const payoutRoutes = [
  route({
    method: "GET",
    path: "/payouts",
    responses: { 200: paginatedSchema(payoutRowSchema) },
    summary: "List the payouts the pharmacy receives (projected and routed)",
    permission: "orders_read",
    paginated: {},
    query: payoutsQuery,
    async handle({ pharmacy, page, query }) {
      const { items, total } = await listPayouts(
        { pharmacyId: pharmacy.id },
        {
          status: query.status,
          search: query.search,
          // Inclusive: end_date covers its whole second, as timestamps are shown in whole seconds.
          from: fromUnixSeconds(query.start_date),
          to: toUnixSecondsInclusive(query.end_date),
          sortBy: query.sort_by,
          sortDirection: query.sort_direction,
        },
        page,
      );
      return reply(200, paginated(items.map(presentPayoutRow), total, page));
    },
  }),
];
