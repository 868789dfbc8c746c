import { z } from "zod";
import { searchTerm, uid } from "@/server/api/schemas";
import { listPayouts, PAYOUT_SORT_FIELDS } from "@/server/domain/payouts/list-payouts";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { paginated, queryInt } from "@/server/rest/validation";
import { presentPayoutRow } from "./presenters";

// 9999-12-31T23:59:59Z: later values are not dates.
const MAX_UNIX_SECONDS = 253_402_300_799;
const unixSeconds = () => queryInt().pipe(z.number().int().min(0).max(MAX_UNIX_SECONDS));

const payoutsQuery = z
  .object({
    pharmacy_uid: uid().optional(),
    status: z.enum(["projected", "routed"]).optional(),
    search: searchTerm(),
    start_date: unixSeconds().optional(),
    end_date: unixSeconds().optional(),
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
    summary: "List the payouts the pharmacy receives (projected and routed)",
    permission: "orders_read",
    paginated: {},
    query: payoutsQuery,
    async handle({ db, pharmacy, page, query }) {
      const { items, total } = await listPayouts(
        db,
        pharmacy.id,
        {
          status: query.status,
          search: query.search,
          // Inclusive: end_date covers its whole second, as timestamps are shown in whole seconds.
          from: query.start_date === undefined ? undefined : new Date(query.start_date * 1000),
          to: query.end_date === undefined ? undefined : new Date(query.end_date * 1000 + 999),
          sortBy: query.sort_by,
          sortDirection: query.sort_direction,
        },
        page,
      );
      return reply(200, paginated(items.map(presentPayoutRow), total, page));
    },
  }),
];
