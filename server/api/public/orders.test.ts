/** GET /v2/public-api/orders/{shop_identifier}?prescription_uids=…: order status by prescription (G26, times as Unix seconds, C9). */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { runPrescriptionTask, storeRenderedPdf } from "@/tests/prescription-orders";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
});

const O = "/v2/public-api/orders";
const statuses = (uids: string, key = t.keys.public, shop = t.shop.identifier) => get(`${O}/${shop}`, { key, query: { prescription_uids: uids } });

/** An order of the tenant's shop whose Rx item waits for a doctor (skip validation: no anamnesis); its prescription's uid. */
async function waitingPrescription(tenant: Tenant, shopIdentifier: string, reference: string) {
  const r = await placeOrder(tenant, orderBody(tenant, [item(reference, { _skip_validation: true, quantity: 2, total_paid: { amount: 5998, currency: "EUR" } })], { shop_identifier: shopIdentifier }));
  expect(r.status, r.text).toBe(201);
  return { orderId: r.json.uid as string, prescriptionId: r.json.prescriptions[0].uid as string };
}

describe("order status by prescription uids", () => {
  it("has G26's fields: waiting for the doctor, unfulfilled, no tracking, created_at in Unix seconds, the prescription's items", async () => {
    const { orderId, prescriptionId } = await waitingPrescription(t, t.shop.identifier, refs.rxReference);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const r = await statuses(prescriptionId);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      data: [
        {
          prescription_uid: prescriptionId,
          order_status: "waiting for doctor",
          fulfillment_status: "unfulfilled",
          tracking_number: null,
          tracking_url: null,
          created_at: Math.floor(order.createdAt.getTime() / 1000),
          fulfilled_at: null,
          line_items: [{ sku_uid: t.rxSku.id, display_name: "Finasteride 1 mg", quantity: 2 }],
        },
      ],
    });
  });

  it("follows the prescription's pharmacy order: fulfilled with fulfilled_at and the shipment's tracking once completed", async () => {
    const { orderId, prescriptionId } = await waitingPrescription(t, t.shop.identifier, refs.rxReference);
    await storeRenderedPdf(t, prescriptionId);
    expect((await post(`/v1/management/prescriptions/${prescriptionId}/external-sign`, { key: t.keys.management })).status).toBe(200);
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId } });
    expect((await statuses(prescriptionId)).json.data[0]).toMatchObject({ order_status: "waiting for pharmacy", fulfillment_status: "unfulfilled" });

    const done = await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/complete_order`, {
      key: t.keys.pharmacy,
      body: { tracking_links: [{ tracking_link: "https://tracking.example/dhl/123", carrier: "DHL" }] },
    });
    expect(done.status, done.text).toBe(200);
    const completed = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id }, include: { shipments: true } });
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const [entry] = (await statuses(prescriptionId)).json.data;
    expect(entry).toMatchObject({
      order_status: order.status,
      fulfillment_status: "fulfilled",
      tracking_url: "https://tracking.example/dhl/123",
      tracking_number: completed.shipments[0].trackingNumber,
      fulfilled_at: Math.floor(completed.completedAt!.getTime() / 1000),
    });
    expect(Number.isInteger(entry.created_at) && Number.isInteger(entry.fulfilled_at)).toBe(true);
  });

  it("leaves out uids of other organisations, of other shops and unknown ones, answering in the order asked", async () => {
    const first = await waitingPrescription(t, t.shop.identifier, refs.rxReference);
    const second = await waitingPrescription(t, t.shop.identifier, refs.rxReference);
    const otherRefs = await withShopSkus(other);
    const foreign = await waitingPrescription(other, other.shop.identifier, otherRefs.rxReference);
    const r = await statuses([second.prescriptionId, foreign.prescriptionId, "nope", first.prescriptionId].join(","));
    expect(r.json.data.map((e: any) => e.prescription_uid)).toEqual([second.prescriptionId, first.prescriptionId]);
    // The tenant's own prescription asked through its second shop: not that shop's order.
    expect((await statuses(first.prescriptionId, t.keys.public, t.otherShop.identifier)).json).toEqual({ data: [] });
  });

  it("requires prescription_uids: at least one, at most 50 (400 otherwise)", async () => {
    const missing = await get(`${O}/${t.shop.identifier}`, { key: t.keys.public });
    expect(missing).toMatchObject({ status: 400, json: { error: { prescription_uids: ["This field is required."] } } });
    for (const uids of ["", ",", " , "]) {
      const empty = await statuses(uids);
      expect(empty.status, JSON.stringify(uids)).toBe(400);
      expect(Object.keys(empty.json.error)).toEqual(["prescription_uids"]);
    }
    const uids = (n: number) => Array.from({ length: n }, (_, i) => `px-${i}`).join(",");
    expect((await statuses(uids(50))).json).toEqual({ data: [] });
    expect(await statuses(uids(51))).toMatchObject({ status: 400, json: { error: { prescription_uids: ["At most 50 prescription uids."] } } });
  });

  it("404 for an unknown shop or another organisation's; 403 without order:read", async () => {
    for (const shop of ["nope", other.shop.identifier]) {
      expect(await statuses("px", t.keys.public, shop)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
    const productsOnly = (await createApiKey({ family: "PUBLIC", displayName: "products", permissions: ["product:read"], organisationId: t.organisation.id })).plaintext;
    expect(await statuses("px", productsOnly)).toMatchObject({ status: 403, json: { code: "permission_denied", description: expect.stringContaining("order:read") } });
  });
});
