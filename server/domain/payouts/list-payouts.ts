import { database } from "@/server/db/client";
import type { Prisma } from "@/server/db/generated/client";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";

export const PAYOUT_SORT_FIELDS = ["pharmacy_order_created_at", "routing_created_at", "amount"] as const;
export type PayoutSortField = (typeof PAYOUT_SORT_FIELDS)[number];

/**
 * Whose payout rows: one receiving pharmacy's (the pharmacy portal, the payouts API's keys), or
 * every pharmacy's of an organisation (the admin tool's organisation-wide page).
 */
export type PayoutReceivers = { pharmacyId: string } | { organisationId: string };

export type PayoutFilters = {
  status?: "projected" | "routed";
  /** Case-insensitive substring of pharmacy order uid or name, provider route id or routing description. */
  search?: string;
  /** Inclusive bounds. Routed rows are filtered by their routing time, projected rows by their order's creation time. */
  from?: Date;
  to?: Date;
  sortBy?: PayoutSortField;
  sortDirection?: "asc" | "desc";
};

/** What the list returns per row: the payout with the few pharmacy order fields a payout row shows. */
const payoutRowSelect = {
  id: true,
  status: true,
  amount: true,
  currency: true,
  componentType: true,
  routingDescription: true,
  providerRouteId: true,
  routingCreatedAt: true,
  // Shown by the portal only: the spec's Payout row has no field for it (docs/decisions/pharmacy-orders.md#cancellation-after-completion).
  reviewFlaggedAt: true,
  reviewReason: true,
  // The route at the payment provider: its state and last error (the admin tool's payouts page).
  providerRouting: true,
  providerError: true,
  pharmacyOrder: { select: { id: true, name: true, createdAt: true } },
  // The receiver, for the admin tool's pharmacy column (the REST row names none: it is the caller's).
  receiverPharmacy: { select: { id: true, displayName: true } },
} as const satisfies Prisma.PayoutSelect;

export type ListedPayout = Prisma.PayoutGetPayload<{ select: typeof payoutRowSelect }>;

function where(receivers: PayoutReceivers, filters: PayoutFilters): Prisma.PayoutWhereInput {
  const and: Prisma.PayoutWhereInput[] = [
    "pharmacyId" in receivers ? { receiverPharmacyId: receivers.pharmacyId } : { receiverPharmacy: { organisationId: receivers.organisationId } },
  ];
  if (filters.status) and.push({ status: filters.status === "routed" ? "ROUTED" : "PROJECTED" });
  const term = filters.search?.trim();
  if (term) {
    const match = containsInsensitive(term);
    and.push({
      OR: [
        { pharmacyOrderId: match },
        { pharmacyOrder: { name: match } },
        // A projected row has no provider route yet, whatever the column holds.
        { status: "ROUTED", providerRouteId: match },
        { routingDescription: match },
      ],
    });
  }
  if (filters.from || filters.to) {
    const range: Prisma.DateTimeFilter = {};
    if (filters.from) range.gte = filters.from;
    if (filters.to) range.lte = filters.to;
    and.push({
      OR: [
        { status: "ROUTED", routingCreatedAt: range },
        { status: "PROJECTED", pharmacyOrder: { createdAt: range } },
      ],
    });
  }
  return { AND: and };
}

function orderBy(filters: PayoutFilters): Prisma.PayoutOrderByWithRelationInput[] {
  const dir = filters.sortDirection ?? "desc";
  // The rows of one pharmacy order stay together; the payout id makes the order total, so pages are stable.
  const byOrder: Prisma.PayoutOrderByWithRelationInput[] = [
    { pharmacyOrder: { createdAt: dir } },
    { pharmacyOrderId: dir },
    { id: dir },
  ];
  switch (filters.sortBy ?? "pharmacy_order_created_at") {
    case "amount":
      return [{ amount: dir }, { id: dir }];
    case "routing_created_at":
      // Projected rows have no routing time yet: they come after the routed rows in either direction
      // (ROUTED sorts after PROJECTED in the enum), then by their pharmacy order.
      return [{ status: "desc" }, { routingCreatedAt: { sort: dir, nulls: "last" } }, ...byOrder];
    default:
      return byOrder;
  }
}

/** The payout rows of which `receivers` are the receiver, filtered, sorted and paged. */
export async function listPayouts(
  receivers: PayoutReceivers,
  filters: PayoutFilters,
  page: Page,
): Promise<{ items: ListedPayout[]; total: number }> {
  const db = await database();
  const filter = where(receivers, filters);
  const [items, total] = await Promise.all([
    db.payout.findMany({ where: filter, orderBy: orderBy(filters), select: payoutRowSelect, ...pageArgs(page) }),
    db.payout.count({ where: filter }),
  ]);
  return { items, total };
}

export type PayoutTotal = { status: "projected" | "routed"; currency: string; amount: number; count: number };

/**
 * The sums of the rows `listPayouts` finds with the same filters (all pages), per status and
 * currency: projected first, then routed, currencies alphabetically.
 */
export async function payoutTotals(receivers: PayoutReceivers, filters: PayoutFilters): Promise<PayoutTotal[]> {
  const db = await database();
  const groups = await db.payout.groupBy({
    by: ["status", "currency"],
    where: where(receivers, filters),
    _sum: { amount: true },
    _count: { _all: true },
    orderBy: [{ status: "asc" }, { currency: "asc" }],
  });
  return groups.map((g) => ({
    status: g.status === "ROUTED" ? "routed" : "projected",
    currency: g.currency,
    amount: g._sum.amount ?? 0,
    count: g._count._all,
  }));
}
