/**
 * Issue 36, item 11: complete_order on a cancelled pharmacy order follows the status table's "any"
 * (it completes), except when its fulfillment was re-routed to another pharmacy (400: the goods
 * would go out twice).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/trpc/router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 100 } });
});

const stockOf = async () => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
const statusOf = async (id: string) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id } })).status;
const cancel = (id: string) => patch(`${EPA}/${id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } });
const complete = (id: string) => patch(`${EPA}/${id}/complete_order`, { key: t.keys.pharmacy, body: {} });

async function orderAt(destination: string | null, quantity = 1) {
  const items = [item(refs.otcReference, { quantity, total_paid: { amount: 499 * quantity, currency: "EUR" } })];
  const body = destination ? orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", destination, items)] }) : orderBody(t, items);
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  return { orderId: r.json.uid as string, po: await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } }) };
}

describe("complete_order on a cancelled order", () => {
  it("completes a cancelled order the integrator routed: stock reduced once, the order completed", async () => {
    const { orderId, po } = await orderAt(t.pharmacy.id, 2);
    expect((await cancel(po.id)).status).toBe(200);
    const stock = await stockOf();
    const r = await complete(po.id);
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe("completed");
    expect(await stockOf()).toBe(stock - 2);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("completed");
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: po.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(history.at(-1)).toMatchObject({ fromStatus: "cancelled", toStatus: "completed" });
  });

  it("takes the stock again only when a cancellation after completion had returned it (the goods came back)", async () => {
    // Through the API the goods stay out: the stock is kept, and completing again takes none.
    const kept = (await orderAt(t.pharmacy.id)).po;
    const start = await stockOf();
    expect((await complete(kept.id)).status).toBe(200);
    expect((await cancel(kept.id)).status).toBe(200);
    expect(await stockOf()).toBe(start - 1);
    expect((await complete(kept.id)).status).toBe(200);
    expect(await stockOf()).toBe(start - 1);

    // The pharmacist says the goods came back: the stock returns, and completing again takes it again.
    const returned = (await orderAt(t.pharmacy.id)).po;
    const before = await stockOf();
    expect((await complete(returned.id)).status).toBe(200);
    const pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    await createCaller({ user: pharmacist, locale: "en" }).pharmacy.orders.changeStatus({ uid: returned.id, status: "cancelled", expectedStatus: "completed", goodsReturned: true });
    expect(await stockOf()).toBe(before);
    expect((await complete(returned.id)).status).toBe(200);
    expect(await stockOf()).toBe(before - 1);
  });

  it("refuses with 400 when its fulfillment was re-routed to another pharmacy, changing nothing", async () => {
    // Routed automatically to pharmacy A (the cheapest); A cancels it and it goes to pharmacy B.
    const { orderId, po } = await orderAt(null);
    expect(po.pharmacyId).toBe(t.pharmacy.id);
    expect((await cancel(po.id)).status).toBe(200);
    const rerouted = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId, id: { not: po.id } } });
    expect(rerouted.pharmacyId).toBe(t.groupPharmacy.id);
    const stock = await stockOf();
    const r = await complete(po.id);
    expect(r.status).toBe(400);
    expect(r.json.error).toContain("re-routed to another pharmacy");
    expect(await statusOf(po.id)).toBe("cancelled");
    expect(await stockOf()).toBe(stock);
  });

  it("a cancelled order given back but not re-routed (no other pharmacy) completes and serves its fulfillment again", async () => {
    const { orderId, po } = await orderAt(null, 50); // only pharmacy A has 50
    expect((await cancel(po.id)).status).toBe(200);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("pharmacy not found");
    expect((await complete(po.id)).status).toBe(200);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { fulfillments: true } });
    expect(order.status).toBe("completed");
    expect(order.fulfillments[0].needsPharmacy).toBe(false);
  });
});
