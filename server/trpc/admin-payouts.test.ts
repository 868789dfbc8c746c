/**
 * The admin tool's organisation-wide payouts (admin.payouts, the pharmacy portal's payouts router under
 * the admin's scope): every pharmacy's rows of the organisation with their receiving pharmacy, the
 * same filters and totals as the pharmacy portal (the same query), a pharmacy filter (another
 * organisation's pharmacy NOT_FOUND), rows flagged after a cancellation, and authorisation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { changePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/change-status";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let groupPharmacist: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let flagged: { id: string };
const SYSTEM = { type: "SYSTEM" } as const;

type List = Awaited<ReturnType<ReturnType<typeof as>["admin"]["payouts"]["list"]>>;
/** The totals a reader would add up from the rows, per status and currency (projected first, currencies alphabetically). */
const sums = (rows: List["items"]) => {
  const by = new Map<string, { status: string; currency: string; amount: number; count: number }>();
  for (const row of rows) {
    const entry = by.get(`${row.status}/${row.currency}`) ?? { status: row.status, currency: row.currency, amount: 0, count: 0 };
    entry.amount += row.amount;
    entry.count += 1;
    by.set(`${row.status}/${row.currency}`, entry);
  }
  return [...by.values()].sort((a, b) => a.status.localeCompare(b.status) || a.currency.localeCompare(b.currency));
};
/** The rows without what only the admin tool gets (the row's uid and its route at the payment provider). */
const shared = (rows: List["items"]) => rows.map(({ uid: _uid, providerRouting: _routing, ...row }) => row);

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyGroupId: t.group.id });
  otherAdmin = (await adminCallers(other)).admin;
  await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
  await offerSku(other, { shopVariationId: "var-aspirin", price: 600 });
  await t.db.pharmacySku.updateMany({ where: { pharmacyId: { in: [t.pharmacy.id, t.groupPharmacy.id] } }, data: { stock: 100 } });
  await other.db.pharmacySku.update({ where: { id: other.pharmacySku.id }, data: { stock: 100 } });

  const completed = async (tenant: Tenant, externalId: string, pharmacyId: string) => {
    const order = await createTestOrder(tenant, routedOrderBody(tenant, externalId, pharmacyId, [item("var-aspirin", { external_id: `${externalId}-i1`, total_paid: eur(600) })]));
    const po = order.pharmacyOrders[0]!;
    await completePharmacyOrder(pharmacyId, po.id, [], SYSTEM);
    return po;
  };
  await completed(t, "admin-pay-a", t.pharmacy.id);
  await completed(t, "admin-pay-b", t.groupPharmacy.id);
  // Completed, then cancelled: its routed rows are flagged for review.
  flagged = await completed(t, "admin-pay-flagged", t.pharmacy.id);
  await changePharmacyOrderStatus(t.pharmacy.id, flagged.id, { status: "cancelled" }, SYSTEM);
  // Projected rows in another currency at pharmacy B.
  const open = (await createTestOrder(t, routedOrderBody(t, "admin-pay-open", t.groupPharmacy.id, [item("var-aspirin", { external_id: "admin-pay-open-i1" })]))).pharmacyOrders[0]!;
  await t.db.payout.create({ data: { pharmacyOrderId: open.id, receiverPharmacyId: t.groupPharmacy.id, status: "PROJECTED", amount: 300, currency: "CHF", componentType: "shipping" } });
  // Another organisation's payouts, which the admin never sees.
  await completed(other, "admin-pay-elsewhere", other.pharmacy.id);
});

describe("admin.payouts.list", () => {
  it("lists every pharmacy's rows of the organisation with the receiving pharmacy, the totals of them all, nothing of another organisation", async () => {
    const all = await as(users.admin).admin.payouts.list({ limit: 200 });
    const byPharmacy = async (pharmacyUid: string) => (await as(groupPharmacist).pharmacy.payouts.list({ pharmacyUid, limit: 200 })).items;
    const [a, b] = [await byPharmacy(t.pharmacy.id), await byPharmacy(t.groupPharmacy.id)];
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    // The rows of each pharmacy's page, together (the same query; sorted the same way).
    const key = (row: List["items"][number]) => `${row.pharmacy_order_uid}/${row.component_type}/${row.currency}`;
    expect(all.items.map(key).sort()).toEqual([...a, ...b].map(key).sort());
    expect(all.total).toBe(a.length + b.length);
    expect(new Set(all.items.map((row) => row.pharmacy.displayName))).toEqual(new Set(["Apotheke A", "Apotheke B"]));
    for (const row of all.items) expect(row.pharmacy.uid).toBe(a.some((r) => key(r) === key(row)) ? t.pharmacy.id : t.groupPharmacy.id);
    expect(all.totals).toEqual(sums(all.items));
    expect(all.totals.map((x) => `${x.status}/${x.currency}`)).toEqual(["projected/CHF", "routed/EUR"]);
    // Totals cover every row the filters match, not only the page.
    const firstPage = await as(users.admin).admin.payouts.list({ limit: 1 });
    expect(firstPage).toMatchObject({ total: all.total, totalPages: all.total, totals: all.totals });

    const elsewhere = await as(otherAdmin).admin.payouts.list({ limit: 200 });
    expect(elsewhere.items.length).toBeGreaterThan(0);
    expect(elsewhere.items.every((row) => row.pharmacy.uid === other.pharmacy.id)).toBe(true);
  });

  it("shows the rows flagged after a cancellation as the pharmacy portal does", async () => {
    const admin = await as(users.admin).admin.payouts.list({ search: flagged.id, limit: 200 });
    const pharmacy = await as(groupPharmacist).pharmacy.payouts.list({ pharmacyUid: t.pharmacy.id, search: flagged.id, limit: 200 });
    expect(admin.items.length).toBeGreaterThan(0);
    expect(shared(admin.items)).toEqual(shared(pharmacy.items));
    expect(admin.items.every((row) => row.status === "routed" && row.review?.reason === "Pharmacy order cancelled after completion")).toBe(true);
  });

  it("narrows to one pharmacy (the pharmacist's page of it, exactly), and takes the same status and date filters", async () => {
    const narrowed = await as(users.admin).admin.payouts.list({ pharmacyUid: t.groupPharmacy.id, limit: 200 });
    const pharmacy = await as(groupPharmacist).pharmacy.payouts.list({ pharmacyUid: t.groupPharmacy.id, limit: 200 });
    expect(shared(narrowed.items)).toEqual(shared(pharmacy.items));
    expect(narrowed.totals).toEqual(pharmacy.totals);

    const routed = await as(users.admin).admin.payouts.list({ status: "routed", limit: 200 });
    expect(routed.items.length).toBeGreaterThan(0);
    expect(routed.items.every((row) => row.status === "routed")).toBe(true);
    expect(routed.totals.map((x) => x.status)).toEqual(["routed"]);
    const before2001 = await as(users.admin).admin.payouts.list({ from: Date.UTC(2000, 0, 1) / 1000, to: Date.UTC(2001, 0, 1) / 1000 });
    expect(before2001).toMatchObject({ items: [], total: 0, totals: [] });
    expect(await trpcCode(as(users.admin).admin.payouts.list({ from: 1000, to: 999 }))).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for another organisation's pharmacy", async () => {
    expect(await trpcCode(as(users.admin).admin.payouts.list({ pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(users.admin).admin.payouts.list({ pharmacyUid: crypto.randomUUID() }))).toBe("NOT_FOUND");
  });

  it("refuses the signed-out, pharmacists and doctors", async () => {
    expect(await trpcCode(as(null).admin.payouts.list({}))).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(users.pharmacist).admin.payouts.list({}))).toBe("FORBIDDEN");
    expect(await trpcCode(as(users.doctor).admin.payouts.list({}))).toBe("FORBIDDEN");
  });
});
