import { InngestTestEngine } from "@inngest/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { recordEvent } from "@/server/domain/events/outbox";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { useEnv } from "@/tests/wait";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { deliverWebhook } from "./inngest";
import { dispatchPendingEvents, webhookDeliveryDue } from "./webhook-delivery";

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_RETRY_MAX_MS: "50", WEBHOOK_TIMEOUT_MS: "3000" };

let t: Tenant;
let receiver: Receiver;

useEnv(ENV);
beforeEach(async () => {
  t = await createTenant();
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

/** A stock event of the tenant's pharmacy SKU fanned out to one pharmacy subscription; returns the delivery id. */
async function pendingDelivery(): Promise<string> {
  const sub = await t.db.webhookSubscription.create({
    data: {
      organisationId: t.organisation.id,
      scope: "PHARMACY",
      pharmacyId: t.pharmacy.id,
      notificationType: "pharmacy_sku_stock_updated",
      target: `${receiver.url}/inngest`,
      secretEncrypted: sealSecret("whsec_inngest"),
    },
  });
  await t.db.$transaction((tx) =>
    recordEvent(tx, { type: "pharmacy_sku_stock_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: t.pharmacySku.id }),
  );
  await dispatchPendingEvents();
  return (await t.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: sub.id } })).id;
}

const run = (deliveryId: string) =>
  new InngestTestEngine({
    function: deliverWebhook,
    events: [{ name: webhookDeliveryDue.name, data: { deliveryId, origin: receiver.url } }],
    // Sleeps end at once here; the attempt's own claim still checks that the retry is due (20–50 ms later).
    steps: Array.from({ length: 10 }, (_, i) => ({ id: `wait-${i + 1}`, handler: () => new Promise((r) => setTimeout(r, 60)) })),
  }).execute();

describe("deliver-webhook Inngest function", () => {
  it("makes an attempt in a step, sleeps until the next one is due, and stops when one succeeds", async () => {
    let calls = 0;
    receiver.respondWith((_r, res) => void res.writeHead(++calls <= 2 ? 500 : 200).end());
    const deliveryId = await pendingDelivery();
    const { result } = await run(deliveryId);
    expect(result).toMatchObject({ state: "SUCCEEDED", attempted: true });
    expect(receiver.received).toHaveLength(3);
    const delivery = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { attempts: true } });
    expect(delivery.state).toBe("SUCCEEDED");
    expect(delivery.attempts.map((a) => a.responseStatus).sort()).toEqual([200, 500, 500]);
  });

  it("drops the delivery after five attempts", async () => {
    receiver.respondWith((_r, res) => void res.writeHead(500).end());
    const deliveryId = await pendingDelivery();
    const { result } = await run(deliveryId);
    expect(result).toMatchObject({ state: "FAILED" });
    expect(receiver.received).toHaveLength(5);
  });

  it("does not attempt a delivery that is already final (a repeated event)", async () => {
    const deliveryId = await pendingDelivery();
    expect((await run(deliveryId)).result).toMatchObject({ state: "SUCCEEDED" });
    expect((await run(deliveryId)).result).toMatchObject({ state: "SUCCEEDED", attempted: false });
    expect(receiver.received).toHaveLength(1);
  });
});
