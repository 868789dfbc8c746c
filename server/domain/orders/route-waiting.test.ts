/**
 * Issue 36, item 10: a paid order no pharmacy can stock is accepted as "pharmacy not found" (no
 * 422), shown on the admin home, and routed once stock arrives (the "orders.route_waiting" task).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { countOrdersWithoutPharmacy } from "@/server/domain/admin-home/attention";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { ROUTE_WAITING_TASK } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import { routeWaitingFulfillments } from "./route-waiting";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
});

const queuedRoutings = async () =>
  (await t.db.backgroundTask.findMany({ where: { name: ROUTE_WAITING_TASK, state: "PENDING" } })).filter(
    (task) => (task.payload as { organisationId?: string }).organisationId === t.organisation.id,
  ).length;

describe("intake when no pharmacy fits", () => {
  it("accepts the order as pharmacy not found, counts it on the admin home, and routes it when stock arrives", async () => {
    const before = await countOrdersWithoutPharmacy(t.organisation.id);
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 500, total_paid: { amount: 249500, currency: "EUR" } })]));
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ status: "pharmacy not found", overall_status: "pending", fulfillment_orders: [{ external_id: "f-1", status: "OPEN" }] });
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid } })).toBe(0);
    expect((await get(`/v1/management/orders/${r.json.uid}`, { key: t.keys.management })).json).toMatchObject({ status: "pharmacy not found" });
    expect(await countOrdersWithoutPharmacy(t.organisation.id)).toBe(before + 1);

    // Nothing queued while no stock arrives; a price change is no stock either.
    expect(await queuedRoutings()).toBe(0);
    await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}`, { key: t.keys.pharmacy, body: { price: 451 } });
    expect(await queuedRoutings()).toBe(0);
    const stocked = await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}`, { key: t.keys.pharmacy, body: { stock: 600 } });
    expect(stocked.status).toBe(200);
    expect(await queuedRoutings()).toBe(1);

    const opened = await routeWaitingFulfillments(t.organisation.id);
    expect(opened).toHaveLength(1);
    const po = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: opened[0] } });
    expect(po).toMatchObject({ orderId: r.json.uid, pharmacyId: t.pharmacy.id, status: "waiting for pharmacy", routing: "AUTOMATIC" });
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_created", subjectId: po.id } })).toBe(1);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: r.json.uid } })).status).toBe("waiting for pharmacy");
    expect(await countOrdersWithoutPharmacy(t.organisation.id)).toBe(before);
    // Idempotent: a second run finds nothing waiting.
    expect(await routeWaitingFulfillments(t.organisation.id)).toEqual([]);
  });

  it("a fulfillment added that no pharmacy can stock: 201 and the order reads pharmacy not found", async () => {
    const body = orderBody(t, [item(refs.otcReference)]);
    expect((await placeOrder(t, body)).status).toBe(201);
    const added = await post(`/v1/management/orders/${encodeURIComponent(body.external_id)}/fulfillments`, {
      key: t.keys.management,
      body: { external_id: "f-2", items: [item(refs.otcReference, { quantity: 100000 })] },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ status: "pharmacy not found" });
  });

  it("a fulfillment whose pharmacy an admin chose waits for an admin again: stock arriving does not route it", async () => {
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 700 })]));
    expect(r.json.status).toBe("pharmacy not found");
    const fulfillment = await t.db.fulfillment.findFirstOrThrow({ where: { orderId: r.json.uid } });
    // A pharmacy order an admin routed by hand, since cancelled by its pharmacy (it gave the fulfillment back).
    await t.db.pharmacyOrder.create({
      data: {
        organisationId: t.organisation.id,
        orderId: r.json.uid,
        fulfillmentId: fulfillment.id,
        pharmacyId: t.groupPharmacy.id,
        name: `PO-ADMIN-${fulfillment.id.slice(0, 8)}`,
        status: "cancelled",
        routing: "ADMIN",
      },
    });
    await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 5000 } });
    expect(await routeWaitingFulfillments(t.organisation.id)).toEqual([]);
  });
});
