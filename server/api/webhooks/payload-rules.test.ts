/**
 * Spec rules of the webhook payloads, each through a real delivery attempt to a real receiver
 * (Events → Delivery mechanics, items 5 and 8; the field reference): every attempt rebuilds the
 * payload with the current state; External Pharmacy (pharmacy-scoped) order payloads carry the signed
 * prescription PDF inline, organisation-level ones do not, OTC-only orders carry null;
 * data.order.shipping_costs_amount is 0 rather than null, while the list entry's top-level
 * shipping_costs_amount stays nullable. The attempts are claimed and made here, one by one (the
 * runner's schedule is tested in server/jobs/webhook-delivery.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/server/config";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { claimDelivery, performClaimedAttempt } from "@/server/domain/webhooks/deliver-attempt";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { useEnv } from "@/tests/wait";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { buildWebhookData } from "./payloads";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function subscribe(type: string, targetPath: string, scope: "PHARMACY" | "ORGANISATION" = "PHARMACY") {
  return t.db.webhookSubscription.create({
    data: {
      organisationId: t.organisation.id,
      scope,
      pharmacyId: scope === "PHARMACY" ? t.pharmacy.id : null,
      notificationType: type,
      target: `${receiver.url}${targetPath}`,
      secretEncrypted: sealSecret(`whsec_${targetPath}`),
    },
  });
}

/**
 * Makes the next attempt of the subscription's delivery now (a retry's wait is the runner's
 * business: claimed with a day's tolerance) and returns what the receiver got.
 */
async function attemptNow(subscriptionId: string) {
  await dispatchOutboxEvents();
  const delivery = await t.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId } });
  const claimed = await claimDelivery(delivery.id, 24 * 3_600_000);
  expect(claimed).not.toBeNull();
  const before = receiver.received.length;
  const result = await performClaimedAttempt(claimed!, buildWebhookData);
  expect(receiver.received).toHaveLength(before + 1);
  return { result, body: receiver.received[before]!.json };
}

async function otcPharmacyOrder(overrides: Record<string, unknown> = {}) {
  const r = await placeOrder(t, orderBody(t, [item(refs.otcReference)], overrides));
  expect(r.status, r.text).toBe(201);
  return t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
}

describe("webhook payloads", () => {
  it("rebuilds the payload with the current state at each attempt: a retry after a status change carries the new status", async () => {
    const subscription = await subscribe("pharmacy_order_created", "/rebuilt");
    const po = await otcPharmacyOrder();
    receiver.respondWith((_r, res) => void res.writeHead(500).end());
    const first = await attemptNow(subscription.id);
    expect(first.result.state).toBe("PENDING"); // failed, a retry is due
    expect(first.body.data.status).toBe("waiting for pharmacy");

    const changed = await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } });
    expect(changed.status).toBe(200);
    receiver.respondWith((_r, res) => void res.writeHead(200).end());
    const retry = await attemptNow(subscription.id);
    expect(retry.result.state).toBe("SUCCEEDED");
    expect(retry.body.event_type).toBe("pharmacy_order_created"); // the same delivery of the creation event
    expect(retry.body.data.status).toBe("in-progress");
    expect(retry.body.data.updated_at).toBeGreaterThanOrEqual(first.body.data.updated_at);
  });

  it("carries data.order.shipping_costs_amount 0, not null, when no shipping is charged (the list entry's field stays null), and prescription_file null for an OTC-only order", async () => {
    const subscription = await subscribe("pharmacy_order_created", "/no-shipping");
    const po = await otcPharmacyOrder();
    const { body } = await attemptNow(subscription.id);
    expect(body.data.uid).toBe(po.id);
    expect(body.data.order.shipping_costs_amount).toBe(0);
    expect(body.data.prescription_file).toBeNull();
    const listed = await get("/v1/external_pharmacy_api/pharmacy_orders/", { key: t.keys.pharmacy, query: { search: po.id } });
    expect(listed.json.data.map((e: { uid: string; shipping_costs_amount: unknown }) => [e.uid, e.shipping_costs_amount])).toEqual([[po.id, null]]);
  });

  it("carries the signed prescription PDF inline in pharmacy-scoped order payloads, and none in organisation-level ones", async () => {
    await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
    const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
    const signed = await signPdfWithP12(await samplePrescriptionPdf({ patient: "Erika Mustermann" }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
    const atPharmacy = await subscribe("pharmacy_order_created", "/rx-pharmacy");
    const atOrganisation = await subscribe("pharmacy_order_created", "/rx-organisation", "ORGANISATION");
    const body = orderBody(t, []);
    body.fulfillments = [
      {
        external_id: "f-inline",
        items: [item(refs.rxReference, { prescription_reference: "rx-1", total_paid: { amount: 2999, currency: "EUR" } })],
        prescriptions: [{ id: "rx-1", pdf_base64: signed.toString("base64") }],
      },
    ] as unknown as typeof body.fulfillments;
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po.pharmacyId).toBe(t.pharmacy.id);

    const pharmacyPayload = (await attemptNow(atPharmacy.id)).body;
    expect(pharmacyPayload.data.uid).toBe(po.id);
    expect(pharmacyPayload.data.prescription_file).toEqual({ filename: `prescription-${po.prescriptionId}.pdf`, content_base64: signed.toString("base64") });
    const organisationPayload = (await attemptNow(atOrganisation.id)).body;
    expect(organisationPayload.data.uid).toBe(po.id);
    expect(organisationPayload.data).not.toHaveProperty("prescription_file");
  });
});
