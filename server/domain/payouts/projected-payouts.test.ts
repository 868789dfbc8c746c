import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { signedPrescriptionOf } from "@/tests/prescriptions";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let signedId: string;

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  signedId = (await signedPrescriptionOf(t, "customer-1", [{ quantity: 1 }], { source: "EXTERNAL" })).id;
});

const payoutsOf = (pharmacyOrderId: string) =>
  t.db.payout.findMany({ where: { pharmacyOrderId }, orderBy: { componentType: "asc" }, select: { status: true, componentType: true, amount: true } });

describe("projected payouts", () => {
  it("are projected for a paid prescription order, follow a shipping change, and become routed at completion", async () => {
    // Rx pharmacy price 2500; paid 2999: rest 2500, markup 499; shipping 495.
    const r = await placeOrder(
      t,
      orderBody(t, [item(refs.rxReference, { prescription_uid: signedId, total_paid: { amount: 2999, currency: "EUR" } })], {
        shipping_cost: { amount: 495, currency: "EUR" },
      }),
    );
    expect(r.status).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po.prepaid).toBe(2999);
    expect(await payoutsOf(po.id)).toEqual([
      { status: "PROJECTED", componentType: "item_markup", amount: 499 },
      { status: "PROJECTED", componentType: "item_rest", amount: 2500 },
      { status: "PROJECTED", componentType: "shipping", amount: 495 },
    ]);
    const detail = await get(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.payouts).toHaveLength(3);
    expect(detail.json.payouts.every((p: { status: string; provider_route_id: unknown; routing_created_at: unknown }) => p.status === "projected" && p.provider_route_id === null && p.routing_created_at === null)).toBe(true);

    const external = (await t.db.order.findUniqueOrThrow({ where: { id: r.json.uid }, include: { shopOrder: true } })).shopOrder!.externalId;
    expect((await patch(`/v1/management/orders/${external}`, { key: t.keys.management, body: { shipping_cost: { amount: 695, currency: "EUR" } } })).status).toBe(200);
    expect((await payoutsOf(po.id)).find((p) => p.componentType === "shipping")).toEqual({ status: "PROJECTED", componentType: "shipping", amount: 695 });

    expect((await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    expect(await payoutsOf(po.id)).toEqual([
      { status: "ROUTED", componentType: "item_markup", amount: 499 },
      { status: "ROUTED", componentType: "item_rest", amount: 2500 },
      { status: "ROUTED", componentType: "shipping", amount: 695 },
    ]);
  });

  it("are not projected for over-the-counter orders (routed at completion only)", async () => {
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po.prepaid).toBe(0);
    expect(await payoutsOf(po.id)).toEqual([]);
  });
});
