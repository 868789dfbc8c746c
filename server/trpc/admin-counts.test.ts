/**
 * The admin tool's counts read maintained structures (issue 26): the order tally (OrderTally, a
 * trigger on Order) and Fulfillment.needsPharmacy (triggers on Fulfillment, OrderItem,
 * PharmacyOrder and Sku), so that neither the home page nor the order list counts every order. They
 * must never drift from the orders themselves: after each kind of change (intake routed, on hold,
 * waiting for a doctor; a hold released with no pharmacy to take it; a fulfillment cancelled; a pharmacy's cancellation
 * re-routed or left without a pharmacy; routing by hand; a SKU switched to and from
 * skip_for_pharmacy_orders; the tally folded; concurrent intakes, status changes and folds) the
 * home's counts and the list's totals equal the orders counted here the slow way, with the rule as
 * written before: every fulfillment joined.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { runTallyCompaction } from "@/server/jobs/pharmacy-order-tally";
import { as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let otherAdmin: PortalSessionUser;
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  // Routing's order: pharmacy A (stock 1000), then B (stock 3); C carries nothing.
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
});

/** The orders of `organisationId` counted from their rows: in all, per (status, on hold), and without a pharmacy by the rule itself. */
async function truth(organisationId: string) {
  const groups = await t.db.$queryRaw<{ status: string; onHold: boolean; n: number }[]>`
    SELECT "status", "onHold", count(*)::int AS "n" FROM "Order" WHERE "organisationId" = ${organisationId} GROUP BY 1, 2`;
  const [{ withoutPharmacy, flagsWrong }] = await t.db.$queryRaw<{ withoutPharmacy: number; flagsWrong: number }[]>`
    WITH f AS (
      SELECT f."id", f."orderId", f."needsPharmacy",
             f."status" <> 'CANCELLED'
             AND NOT EXISTS (SELECT 1 FROM "PharmacyOrder" po WHERE po."activeFulfillmentId" = f."id")
             AND EXISTS (SELECT 1 FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId"
                          WHERE i."fulfillmentId" = f."id" AND i."status" <> 'CANCELLED' AND NOT s."skipForPharmacyOrders") AS "needs"
        FROM "Fulfillment" f JOIN "Order" o ON o."id" = f."orderId" WHERE o."organisationId" = ${organisationId})
    SELECT (SELECT count(*)::int FROM "Order" o
             WHERE o."organisationId" = ${organisationId} AND NOT o."onHold"
               AND o."status" NOT IN ('paused', 'waiting for doctor', 'cancelled', 'completed', 'prescription declined')
               AND EXISTS (SELECT 1 FROM f WHERE f."orderId" = o."id" AND f."needs")) AS "withoutPharmacy",
           (SELECT count(*)::int FROM f WHERE f."needsPharmacy" <> f."needs") AS "flagsWrong"`;
  const count = (where: (g: (typeof groups)[number]) => boolean) => groups.filter(where).reduce((sum, g) => sum + g.n, 0);
  return { groups, count, withoutPharmacy, flagsWrong };
}

/** Every count the admin sees equals the truth: home, list totals (all, per status, on hold or not, without a pharmacy), the tally's rows. */
async function expectCountsTrue(user = admin, organisationId = t.organisation.id) {
  const real = await truth(organisationId);
  expect(real.flagsWrong).toBe(0);
  const home = await as(user).admin.home.summary();
  expect(home.withoutPharmacy).toBe(real.withoutPharmacy);
  expect(home.waitingForDoctor).toBe(real.count((g) => g.status === ORDER_STATUS.waitingForDoctor));
  const total = async (filter: Parameters<ReturnType<typeof as>["admin"]["orders"]["list"]>[0]) => (await as(user).admin.orders.list(filter)).total;
  expect(await total({ withoutPharmacy: true })).toBe(real.withoutPharmacy);
  expect(await total({})).toBe(real.count(() => true));
  expect(await total({ onHold: true })).toBe(real.count((g) => g.onHold));
  expect(await total({ onHold: false })).toBe(real.count((g) => !g.onHold));
  for (const status of Object.values(ORDER_STATUS)) {
    expect(await total({ status }), status).toBe(real.count((g) => g.status === status));
  }
  const tally = await t.db.$queryRaw<{ status: string; onHold: boolean; n: number }[]>`
    SELECT "status", "onHold", sum("delta")::int AS "n" FROM "OrderTally" WHERE "organisationId" = ${organisationId}
     GROUP BY 1, 2 HAVING sum("delta") <> 0`;
  const key = (g: { status: string; onHold: boolean; n: number }) => `${g.status}/${g.onHold}/${g.n}`;
  expect(tally.map(key).sort()).toEqual(real.groups.map(key).sort());
  return real;
}

/**
 * An order of `quantity` OTC items, routed automatically (A has 1000, B 3), or on hold. Intake refuses
 * an order no pharmacy can take (422); released from a hold, such an order stays without a pharmacy.
 */
async function newOrder(quantity = 1, overrides: Record<string, unknown> = {}) {
  const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity })], overrides));
  expect(r.status, r.text).toBe(201);
  const fulfillment = await t.db.fulfillment.findFirstOrThrow({ where: { orderId: r.json.uid }, include: { pharmacyOrder: true } });
  return { orderId: r.json.uid as string, fulfillmentId: fulfillment.id, pharmacyOrder: fulfillment.pharmacyOrder };
}
const cancelAsPharmacy = (pharmacyOrderId: string, key: string, query?: Record<string, string>) =>
  patch(`${EPA}/${pharmacyOrderId}/status`, { key, body: { status: "cancelled" }, query });
const activeOf = (fulfillmentId: string) => t.db.pharmacyOrder.findUnique({ where: { activeFulfillmentId: fulfillmentId } });

describe("orders without a pharmacy and the order tally stay true", () => {
  it("through intake, holds, cancellations, re-routing, routing by hand and SKU changes", async () => {
    expect((await expectCountsTrue()).withoutPharmacy).toBe(0);

    // Routed at intake: at a pharmacy.
    await newOrder(1);
    expect((await expectCountsTrue()).withoutPharmacy).toBe(0);

    // On hold with more than any pharmacy has: not counted while held; released, without a pharmacy.
    const unroutable = await newOrder(5000, { on_hold: true });
    const held = await newOrder(5000, { on_hold: true });
    expect((await expectCountsTrue()).withoutPharmacy).toBe(0);
    await as(admin).admin.orders.releaseHold({ uid: unroutable.orderId });
    expect((await t.db.fulfillment.findUniqueOrThrow({ where: { id: unroutable.fulfillmentId }, include: { pharmacyOrder: true } })).pharmacyOrder).toBeNull();
    expect((await expectCountsTrue()).withoutPharmacy).toBe(1);
    await as(admin).admin.orders.releaseHold({ uid: held.orderId });
    expect((await expectCountsTrue()).withoutPharmacy).toBe(2);

    // Waiting for a doctor: not counted (and in the tally under its status).
    await placeWaitingOrder(t, refs, { customerId: "counts-rx" });
    expect((await expectCountsTrue()).withoutPharmacy).toBe(2);

    // A fulfillment cancelled: no longer without a pharmacy.
    await as(admin).admin.orders.cancelFulfillment({ orderUid: unroutable.orderId, fulfillmentUid: unroutable.fulfillmentId });
    expect((await expectCountsTrue()).withoutPharmacy).toBe(1);

    // A's cancellation re-routes to B (still at a pharmacy); B's leaves it without one (C carries nothing).
    const rerouted = await newOrder(1);
    expect((await cancelAsPharmacy(rerouted.pharmacyOrder!.id, t.keys.pharmacy)).status).toBe(200);
    const atB = await activeOf(rerouted.fulfillmentId);
    expect(atB?.pharmacyId).toBe(t.groupPharmacy.id);
    expect((await expectCountsTrue()).withoutPharmacy).toBe(1);
    expect((await cancelAsPharmacy(atB!.id, t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id })).status).toBe(200);
    expect(await activeOf(rerouted.fulfillmentId)).toBeNull();
    expect((await expectCountsTrue()).withoutPharmacy).toBe(2);

    // Routed by hand: at a pharmacy again.
    await as(admin).admin.orders.routeFulfillment({ orderUid: rerouted.orderId, fulfillmentUid: rerouted.fulfillmentId, pharmacyUid: t.pharmacy.id });
    expect((await expectCountsTrue()).withoutPharmacy).toBe(1);

    // The OTC SKU skipped for pharmacy orders: no fulfillment has items for a pharmacy; and back.
    const skip = (value: boolean) => patch(`/v1/management/skus/${t.sku.id}`, { key: t.keys.management, body: { skip_for_pharmacy_orders: value } });
    expect((await skip(true)).status).toBe(200);
    expect((await expectCountsTrue()).withoutPharmacy).toBe(0);
    expect((await skip(false)).status).toBe(200);
    expect((await expectCountsTrue()).withoutPharmacy).toBe(1);

    // Folded: the same totals from fewer rows.
    await runTallyCompaction();
    await expectCountsTrue();
    // Another organisation sees none of it.
    expect((await expectCountsTrue(otherAdmin, other.organisation.id)).withoutPharmacy).toBe(0);
  });

  it("through concurrent intakes, releases, status changes and folds of the tally", async () => {
    const routed = await Promise.all(Array.from({ length: 4 }, () => newOrder(1)));
    const held = await Promise.all(Array.from({ length: 3 }, () => newOrder(5000, { on_hold: true })));
    await Promise.all([
      ...held.map((o) => as(admin).admin.orders.releaseHold({ uid: o.orderId })),
      ...Array.from({ length: 3 }, () => newOrder(1, { on_hold: true })),
      ...routed.map((o, i) => patch(`${EPA}/${o.pharmacyOrder!.id}/status`, { key: t.keys.pharmacy, body: { status: i % 2 ? "in-progress" : "cancelled" } })),
      runTallyCompaction(),
      runTallyCompaction(),
    ]);
    await expectCountsTrue();
    const more = await newOrder(5000, { on_hold: true });
    await Promise.all([runTallyCompaction(), as(admin).admin.orders.releaseHold({ uid: more.orderId }), newOrder(1), runTallyCompaction()]);
    await expectCountsTrue();
  });
});
