/**
 * Issue 23, rules 5 and 6: the facts of the gaps reference's field reference (G34) in the pharmacy
 * order detail and in delivered webhook payloads (data.data, data.deleted_at, data.delivery_type
 * with its uid, each item's product and the pharmacy's own SKU), and `fulfillment_method` choosing
 * the pharmacy order's delivery type, at intake and through a checkout. Real intake over HTTP, real
 * deliveries by the embedded webhook runner to a receiver on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeCheckoutByToken } from "@/server/domain/checkouts/complete-checkout";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { WebhookRunner } from "@/server/jobs/webhook-runner";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { until, useEnv } from "@/tests/wait";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let receiver: Receiver;
let runner: WebhookRunner;

const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  receiver = await startReceiver();
  for (const scope of ["PHARMACY", "ORGANISATION"] as const) {
    await t.db.webhookSubscription.create({
      data: {
        organisationId: t.organisation.id,
        scope,
        pharmacyId: scope === "PHARMACY" ? t.pharmacy.id : null,
        notificationType: "pharmacy_order_created",
        target: `${receiver.url}/${scope.toLowerCase()}`,
        secretEncrypted: sealSecret(`whsec_${scope}`),
      },
    });
  }
  runner = new WebhookRunner({ deliver: true });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
});

/** The pharmacy_order_created payloads delivered for `pharmacyOrderId`, by subscription scope (waits for both). */
async function deliveredPayloads(pharmacyOrderId: string) {
  const mine = () => receiver.received.filter((r) => r.json?.data?.uid === pharmacyOrderId);
  await until(async () => mine().length >= 2);
  const byPath = Object.fromEntries(mine().map((r) => [r.path, r.json.data]));
  return { pharmacy: byPath["/pharmacy"], organisation: byPath["/organisation"] };
}

async function pharmacyOrderOf(orderId: string) {
  return t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId } });
}

describe("payload facts (G34)", () => {
  it("adds data {}, deleted_at, the delivery type's uid, each item's product and the pharmacy's SKU to the detail and both payloads; never additional_details", async () => {
    const r = await placeOrder(
      t,
      orderBody(t, [item(refs.otcReference, { quantity: 2, fulfillment_method: "pickup" })], {
        additional_details: { gender: "female", transaction_id: "tx-secret-4711" },
      }),
    );
    expect(r.status, r.text).toBe(201);
    const po = await pharmacyOrderOf(r.json.uid);
    const pharmacySku = await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } });

    const facts = {
      data: {},
      deleted_at: null,
      delivery_type: { uid: "pickup", identifier: "pickup", display_name: "Pharmacy pickup" },
      order_items: [
        expect.objectContaining({
          amount: 2,
          sku: expect.objectContaining({
            uid: t.sku.id,
            display_name: "Aspirin 500 mg",
            product_uid: t.product.id,
            product_display_name: "Aspirin",
            product_handle: t.product.handle,
          }),
          pharmacy_sku: { uid: pharmacySku.id, external_id: "A-1", price: 450, stock: pharmacySku.stock },
        }),
      ],
    };
    const detail = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject(facts);
    expect(detail.text).not.toContain("tx-secret-4711");
    expect(detail.text).not.toContain("female");

    const payloads = await deliveredPayloads(po.id);
    for (const data of [payloads.pharmacy, payloads.organisation]) {
      expect(data).toMatchObject(facts);
      expect(JSON.stringify(data)).not.toContain("tx-secret-4711");
    }
    // The organisation's payload keeps its shop ids beside the new sku fields.
    expect(payloads.organisation.order_items[0].sku).toMatchObject({ product_uid: t.product.id, shop_variation_id: refs.otcReference });
  });
});

describe("fulfillment_method selects the delivery type", () => {
  const deliveryTypeOf = async (methods: (string | undefined)[]) => {
    const items = methods.map((m) => item(refs.otcReference, m === undefined ? {} : { fulfillment_method: m }));
    const r = await placeOrder(t, orderBody(t, items));
    expect(r.status, r.text).toBe(201);
    return (await pharmacyOrderOf(r.json.uid)).deliveryType;
  };

  it("is pickup when every item says pickup (any case); disagreeing, unknown and missing hints ship, as before", async () => {
    expect(await deliveryTypeOf(["pickup", " PickUp "])).toBe("pickup");
    expect(await deliveryTypeOf(["pickup", "shipping"])).toBe("shipping");
    expect(await deliveryTypeOf(["pickup", undefined])).toBe("shipping");
    expect(await deliveryTypeOf(["drone"])).toBe("shipping");
    expect(await deliveryTypeOf([undefined])).toBe("shipping");
    expect(await deliveryTypeOf(["shipping"])).toBe("shipping");
  });

  it("a checkout with delivery pickup becomes a pickup pharmacy order: the detail and the payload show it", async () => {
    const checkout = await post(`/v2/public-api/prescriptions/${t.shop.identifier}`, {
      key: t.keys.public,
      body: {
        lines: [{ sku_uid: t.sku.id, quantity: 1 }],
        patient_data: { first_name: "Erika", last_name: "Mustermann", date_of_birth: 315532800, gender: "female" },
        shipping_address: { first_name: "Erika", last_name: "Mustermann", address1: "Hauptstraße 5", city: "Berlin", province: null, country_code: "DE", zip: "10115" },
        delivery: { delivery_type: "pickup", delivery_price: 0 },
      },
    });
    expect(checkout.status, checkout.text).toBe(201);
    const { orderId } = await completeCheckoutByToken(checkout.json.checkout_url.split("/checkout/")[1]);
    const po = await pharmacyOrderOf(orderId);
    const pickup = { uid: "pickup", identifier: "pickup", display_name: "Pharmacy pickup" };
    expect((await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy })).json.delivery_type).toEqual(pickup);
    expect((await deliveredPayloads(po.id)).pharmacy.delivery_type).toEqual(pickup);
  });
});
