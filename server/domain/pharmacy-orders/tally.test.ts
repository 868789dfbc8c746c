import { beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { compactPharmacyOrderTally, countPharmacyOrders } from "./tally";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 10_000 } });
});

const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

/** The tally must always agree with counting the rows. */
async function expectTallyToMatchRows() {
  const db = await database();
  const groups = await db.pharmacyOrder.groupBy({ by: ["pharmacyId", "status"], _count: { _all: true } });
  for (const g of groups) expect(await countPharmacyOrders(db, g.pharmacyId, g.status)).toBe(g._count._all);
  for (const pharmacyId of new Set(groups.map((g) => g.pharmacyId))) {
    expect(await countPharmacyOrders(db, pharmacyId)).toBe(await db.pharmacyOrder.count({ where: { pharmacyId } }));
  }
}

describe("pharmacy order tally", () => {
  it("follows creation, status changes, completion and cancellation, also concurrent ones, across compactions", async () => {
    const orders = [];
    for (let i = 0; i < 12; i++) {
      const r = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
      orders.push(await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } }));
    }
    await expectTallyToMatchRows();
    await Promise.all(orders.slice(0, 4).map((po) => patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } })));
    await compactPharmacyOrderTally();
    await Promise.all([
      ...orders.slice(4, 8).map((po) => patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })),
      ...orders.slice(0, 2).map((po) => patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } })),
      compactPharmacyOrderTally(),
      compactPharmacyOrderTally(),
    ]);
    await expectTallyToMatchRows();
    const external = (await t.db.order.findUniqueOrThrow({ where: { id: orders[9].orderId } })).externalId;
    await post(`/v1/management/orders/${external}/fulfillments/f-1/cancel`, { key: t.keys.management });
    await compactPharmacyOrderTally();
    await expectTallyToMatchRows();
    expect(await t.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "PharmacyOrderTally" WHERE "pharmacyId" = ${t.pharmacy.id}`).toEqual([
      { n: 4 }, // one row per status present: waiting for pharmacy, in-progress, completed, cancelled
    ]);
  });

  it("follows rows written or removed outside the domain (the trigger sees every change)", async () => {
    // An order of its own: the test runs alone as well as after the others.
    const placed = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: placed.json.uid } });
    await t.db.pharmacyOrder.update({ where: { id: po.id }, data: { pharmacyId: t.groupPharmacy.id } });
    await t.db.pharmacyOrder.update({ where: { id: po.id }, data: { status: "waiting for pharmacy" } }); // unchanged: no delta
    await expectTallyToMatchRows();
    await t.db.pharmacyOrderItem.deleteMany({ where: { pharmacyOrderId: po.id } });
    await t.db.pharmacyOrderHistory.deleteMany({ where: { pharmacyOrderId: po.id } });
    await t.db.outboxEvent.deleteMany({ where: { subjectId: po.id } });
    await t.db.pharmacyOrder.delete({ where: { id: po.id } });
    await expectTallyToMatchRows();
  });

  it("gives the list its totalRegistries, with and without a status filter", async () => {
    // A completed order of its own: the test runs alone as well as after the others.
    const placed = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: placed.json.uid } });
    expect((await patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    const all = await get(EPA, { key: t.keys.pharmacy });
    expect(all.json.totalRegistries).toBe(await t.db.pharmacyOrder.count({ where: { pharmacyId: t.pharmacy.id } }));
    const completedRows = await t.db.pharmacyOrder.count({ where: { pharmacyId: t.pharmacy.id, status: "completed" } });
    expect(completedRows).toBeGreaterThan(0);
    const completed = await get(EPA, { key: t.keys.pharmacy, query: { status: "completed" } });
    expect(completed.json.totalRegistries).toBe(completedRows);
    expect(completed.json.data).toHaveLength(completedRows);
  });
});
