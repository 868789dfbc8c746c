/**
 * The lock order of pharmacy order commands (lock.ts): the order first, then its pharmacy order.
 * On PostgreSQL (CI's second pass) these run truly concurrently; on PGlite, one connection, they
 * run one after the other and must give the same end states.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch, post } from "@/tests/http";
import { fulfillmentAt, item, offerSku, orderBody, placeOrder, withShopSkus } from "@/tests/orders";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let digitalReference: string;
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";
const ROUNDS = 6;

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.updateMany({ where: { id: { in: [t.pharmacySku.id, t.digitalPharmacySku.id] } }, data: { stock: 10_000 } });
  digitalReference = (await offerSku(t, { shopVariationId: `var-digital-${t.shop.id}`, price: 199, skuId: t.digitalSku.id })).shopVariationId!;
});

/**
 * An order of two fulfillments, both at pharmacy A, of different SKUs (completions lock their stock
 * rows, so a shared SKU would make them wait for each other anyway); its pharmacy orders by fulfillment.
 */
async function twoFulfillmentOrder() {
  const body = orderBody(t, [], {
    fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)]), fulfillmentAt("f-2", t.pharmacy.id, [item(digitalReference)])],
  });
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  const pos = await t.db.pharmacyOrder.findMany({
    where: { orderId: r.json.uid },
    orderBy: { fulfillment: { externalId: "asc" } },
    select: { id: true },
  });
  expect(pos).toHaveLength(2);
  return { orderId: r.json.uid as string, externalId: body.external_id, pharmacyOrderIds: pos.map((p) => p.id) };
}

describe("concurrent commands on pharmacy orders of one order", () => {
  it("completing both pharmacy orders at once leaves the order completed", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const order = await twoFulfillmentOrder();
      const answers = await Promise.all(order.pharmacyOrderIds.map((id) => patch(`${EPA}/${id}/complete_order`, { key: t.keys.pharmacy })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const stored = await t.db.order.findUniqueOrThrow({ where: { id: order.orderId }, select: { status: true } });
      expect(stored.status, `round ${round}`).toBe("completed");
    }
  });

  it("a fulfillment cancel beside a cancel of its pharmacy order through PATCH: no failure, and both end cancelled", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const body = orderBody(t, [item(refs.otcReference)]);
      const placed = await placeOrder(t, body);
      expect(placed.status, placed.text).toBe(201);
      const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: placed.json.uid }, select: { id: true } });
      // The Management cancel locks the order, then the pharmacy order; the PATCH locks the pharmacy
      // order and then, its only fulfillment cancelled, updates the order's status.
      const [cancel, change] = await Promise.all([
        post(`/v1/management/orders/${body.external_id}/fulfillments/f-1/cancel`, { key: t.keys.management }),
        patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } }),
      ]);
      // The cancel first: the PATCH finds the pharmacy order cancelled (400, final). The PATCH first: the
      // fulfillment was re-routed (docs/decisions/intake.md#re-routing), and the cancel cancels it there.
      expect([[200, 400], [200, 200]], `${cancel.text} / ${change.text}`).toContainEqual([cancel.status, change.status]);
      const stored = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id }, select: { status: true, order: { select: { status: true } } } });
      expect(stored).toEqual({ status: "cancelled", order: { status: "cancelled" } });
      expect(await t.db.pharmacyOrder.count({ where: { orderId: placed.json.uid, status: { not: "cancelled" } } })).toBe(0);
    }
  });
});
