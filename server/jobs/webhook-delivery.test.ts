import { createHmac } from "node:crypto";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { recordEvent } from "@/server/domain/events/outbox";
import { retryDelayMs, sharedDataBuilder } from "@/server/domain/webhooks/deliver-attempt";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { sleep, until, useEnv } from "@/tests/wait";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { WebhookRunner } from "./webhook-runner";
import { buildWebhookData } from "@/server/api/webhooks/payloads";

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_RETRY_BASE_MS: "40",
  WEBHOOK_RETRY_MAX_MS: "150",
  WEBHOOK_TIMEOUT_MS: "2500",
  WEBHOOK_TARGET_CONCURRENCY: "2",
};
const hmac = (secret: string, raw: Buffer) => createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("hex");

let t: Tenant;
let receiver: Receiver;
let runners: WebhookRunner[] = [];

async function startRunner() {
  const runner = new WebhookRunner({ deliver: true });
  runners.push(runner);
  await runner.start();
  return runner;
}

async function subscribe(
  type: string,
  target: string,
  options: { scope?: "PHARMACY" | "ORGANISATION"; secret?: string; header?: [string, string]; pharmacyId?: string } = {},
) {
  const scope = options.scope ?? "PHARMACY";
  const secret = options.secret ?? `whsec_${type}_${scope}`;
  const row = await t.db.webhookSubscription.create({
    data: {
      organisationId: t.organisation.id,
      scope,
      pharmacyId: scope === "PHARMACY" ? (options.pharmacyId ?? t.pharmacy.id) : null,
      notificationType: type,
      target,
      secretEncrypted: sealSecret(secret),
      headerKey: options.header?.[0] ?? null,
      headerValueEncrypted: options.header ? sealSecret(options.header[1]) : null,
    },
  });
  return { ...row, secret };
}

async function deliveriesOf(subscriptionId: string) {
  return t.db.webhookDelivery.findMany({
    where: { subscriptionId },
    include: { attempts: { orderBy: { attemptNumber: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * Runs `work` with retries `baseMs` apart, growing ×4, with the maximum raised so that it caps none of
 * the first four (ENV's 150 ms maximum would silently shorten any longer window).
 */
async function withRetryBase<T>(baseMs: number, work: () => Promise<T>): Promise<T> {
  process.env.WEBHOOK_RETRY_BASE_MS = String(baseMs);
  process.env.WEBHOOK_RETRY_MAX_MS = String(baseMs * 100);
  reloadConfig();
  try {
    return await work();
  } finally {
    process.env.WEBHOOK_RETRY_BASE_MS = ENV.WEBHOOK_RETRY_BASE_MS;
    process.env.WEBHOOK_RETRY_MAX_MS = ENV.WEBHOOK_RETRY_MAX_MS;
    reloadConfig();
  }
}

useEnv(ENV);
beforeEach(async () => {
  t = await createTenant();
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
  await receiver.close();
  // Leave no pending work for the next test's runner.
  await t.db.webhookDelivery.updateMany({ where: { state: "PENDING" }, data: { state: "FAILED" } });
  await t.db.outboxEvent.updateMany({ where: { dispatchedAt: null }, data: { dispatchedAt: new Date() } });
});

async function orderAtPharmacy() {
  const refs = await withShopSkus(t);
  const created = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 2 })], { shipping_cost: { amount: 495, currency: "EUR" } }));
  expect(created.status).toBe(201);
  const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: created.json.uid } });
  return po;
}

describe("webhook delivery (embedded runner)", () => {
  it("delivers a status change to the pharmacy's and the organisation's subscriptions, signed, with current state", async () => {
    await startRunner();
    const po = await orderAtPharmacy();
    await until(async () => (await t.db.outboxEvent.count({ where: { dispatchedAt: null } })) === 0);
    const pharmacySub = await subscribe("pharmacy_order_updated", `${receiver.url}/pharmacy`, { header: ["X-Partner-Token", "tok-123"] });
    const orgSub = await subscribe("pharmacy_order_updated", `${receiver.url}/org`, { scope: "ORGANISATION" });
    const otherPharmacySub = await subscribe("pharmacy_order_updated", `${receiver.url}/other-pharmacy`, { pharmacyId: t.groupPharmacy.id });
    const createdSub = await subscribe("pharmacy_order_created", `${receiver.url}/created`);
    await startRunner();

    const changed = await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } });
    expect(changed.status).toBe(200);
    await receiver.waitFor(2);
    // Final once the event is dispatched (all its deliveries are made in one transaction) and both succeeded.
    await until(async () => (await t.db.outboxEvent.count({ where: { dispatchedAt: null } })) === 0);
    await until(async () => (await Promise.all([pharmacySub.id, orgSub.id].map(deliveriesOf))).every((d) => d[0]?.state === "SUCCEEDED"));
    expect(await Promise.all([otherPharmacySub.id, createdSub.id].map(deliveriesOf))).toEqual([[], []]);
    const paths = receiver.received.map((r) => r.path).sort();
    expect(paths).toEqual(["/org", "/pharmacy"]); // not the other pharmacy's, not another event type

    const detail = await get(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}`, { key: t.keys.pharmacy });
    const atPharmacy = receiver.received.find((r) => r.path === "/pharmacy")!;
    expect(atPharmacy.headers["content-type"]).toBe("application/json");
    expect(atPharmacy.headers["x-webhook-event"]).toBe("pharmacy_order_updated");
    expect(atPharmacy.headers["x-partner-token"]).toBe("tok-123");
    expect(atPharmacy.headers["x-webhook-test"]).toBeUndefined();
    expect(atPharmacy.headers["x-webhook-signature"]).toBe(hmac(pharmacySub.secret, atPharmacy.raw));
    expect(atPharmacy.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    const body = atPharmacy.json;
    expect(Object.keys(body).sort()).toEqual(["data", "event_type", "payload_version", "timestamp"]);
    expect(body.event_type).toBe("pharmacy_order_updated");
    expect(body.payload_version).toBe("1");
    expect(Math.abs(body.timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(body.data.status).toBe("in-progress");
    expect(body.data.prescription_file).toBeNull();
    expect(body.data.shipments).toEqual([]);
    expect(body.data.order.shipping_costs_amount).toBe(495);
    // Built from the same data as GET …/pharmacy_orders/{uid}.
    const { order: _o1, ...dataRest } = body.data;
    const { order: _o2, ...detailRest } = detail.json;
    expect(dataRest).toEqual(detailRest);

    const atOrg = receiver.received.find((r) => r.path === "/org")!;
    expect(atOrg.headers["x-webhook-signature"]).toBe(hmac(orgSub.secret, atOrg.raw));
    expect(atOrg.json.data).not.toHaveProperty("prescription_file");
    expect(atOrg.json.data.order_items[0].sku).toMatchObject({ shop_variation_id: `var-otc-${t.shop.id}`, shop_product_external_id: t.shopProduct.externalId });
    expect(atOrg.json.data.fulfillment).toMatchObject({ external_id: "f-1", items: [expect.objectContaining({ amount: 2 })] });
    expect(atOrg.json.data.fulfillment.items[0].sku.shop_variation_id).toBe(`var-otc-${t.shop.id}`);

    const [delivery] = await deliveriesOf(pharmacySub.id);
    expect(delivery).toMatchObject({ state: "SUCCEEDED", attemptCount: 1, eventType: "pharmacy_order_updated", pharmacyId: t.pharmacy.id });
    expect(delivery.attempts[0]).toMatchObject({ attemptNumber: 1, responseStatus: 200, errorClass: null, target: `${receiver.url}/pharmacy` });
  });

  it("sends pharmacy_order_created for a routed order and one pharmacy_sku_stock_updated per SKU on completion", async () => {
    await subscribe("pharmacy_order_created", `${receiver.url}/created`);
    await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/stock`);
    const orgStock = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/org-stock`, { scope: "ORGANISATION" });
    await startRunner();
    const po = await orderAtPharmacy();
    await receiver.waitFor(1);
    expect(receiver.received[0].json.data).toMatchObject({ uid: po.id, status: "waiting for pharmacy", shipments: [] });

    const done = await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/complete_order`, {
      key: t.keys.pharmacy,
      body: { tracking_links: [{ tracking_link: "https://tracking.example/1", carrier: "DHL" }] },
    });
    expect(done.status).toBe(200);
    await receiver.waitFor(3);
    const stock = receiver.received.find((r) => r.path === "/stock")!;
    expect(stock.json.data).toMatchObject({ uid: t.pharmacySku.id, stock: 8, external_id: "A-1" });
    const org = receiver.received.find((r) => r.path === "/org-stock")!;
    expect(org.json.data.shop_identifier).toBe(t.shop.identifier);
    expect(org.json.data.sku.shop_variation_id).toBe(`var-otc-${t.shop.id}`);
    expect(org.headers["x-webhook-signature"]).toBe(hmac(orgStock.secret, org.raw));
  });

  it("retries failures with growing delays, then succeeds; redirects are not followed", async () => {
    let calls = 0;
    receiver.respondWith((_r, res) => {
      calls += 1;
      if (calls === 1) return void res.writeHead(500).end("boom");
      if (calls === 2) return void res.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
      if (calls === 3) return void res.writeHead(413).end();
      res.writeHead(204).end();
    });
    const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/stock`);
    const [delivery] = await withRetryBase(10, async () => {
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 42 } });
      await receiver.waitFor(4);
      return until(async () => {
        const d = await deliveriesOf(sub.id);
        return d[0]?.state === "SUCCEEDED" ? d : null;
      });
    });
    expect(receiver.received.map((r) => r.path)).toEqual(["/stock", "/stock", "/stock", "/stock"]); // never /elsewhere
    expect(delivery.attempts.map((a) => [a.attemptNumber, a.responseStatus, a.errorClass])).toEqual([
      [1, 500, "http_status"],
      [2, 302, "redirect"],
      [3, 413, "http_status"],
      [4, 204, null],
    ]);
    for (const r of receiver.received) expect(r.json.data.stock).toBe(42);
    // Each attempt waited at least its backoff: 10 ms × 4^(n−1), −20 % jitter (the schedule's exact
    // values, the spec's 10 s, 40 s, 160 s, 600 s, are checked on retryDelayMs below).
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(8);
    expect(gaps[1]).toBeGreaterThanOrEqual(32);
    expect(gaps[2]).toBeGreaterThanOrEqual(128);
    expect(delivery.attempts[0].nextAttemptAt).not.toBeNull();
    expect(delivery.attempts[3].nextAttemptAt).toBeNull();
  });

  it("gives each attempt a new timestamp, signed with the body", async () => {
    let calls = 0;
    receiver.respondWith((_r, res) => void res.writeHead(++calls === 1 ? 500 : 204).end());
    const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/again`);
    // A retry at least 1 s later (1250 ms − 20 %), so its Unix-seconds timestamp must have moved on.
    await withRetryBase(1250, async () => {
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 11 } });
      await receiver.waitFor(2);
    });
    const [first, second] = receiver.received;
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    expect(second.json.timestamp).toBeGreaterThan(first.json.timestamp);
    expect(second.json.data).toEqual(first.json.data);
    expect(second.headers["x-webhook-signature"]).not.toBe(first.headers["x-webhook-signature"]);
    expect(second.headers["x-webhook-signature"]).toBe(hmac(sub.secret, second.raw));
  });

  it("drops a delivery after five failed attempts, as a permanent failure", async () => {
    receiver.respondWith((_r, res) => void res.writeHead(503).end());
    const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/down`);
    await startRunner();
    await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 7 } });
    const [delivery] = await until(async () => {
      const d = await deliveriesOf(sub.id);
      return d[0]?.state === "FAILED" ? d : null;
    });
    expect(delivery.attemptCount).toBe(5);
    expect(delivery.attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(delivery.nextAttemptAt).toBeNull(); // dropped: nothing is scheduled after the fifth attempt
    expect(receiver.received).toHaveLength(5);
  });

  it("signs a pending retry with a re-registered secret at once", async () => {
    let calls = 0;
    receiver.respondWith((_r, res) => void res.writeHead(++calls === 1 ? 500 : 200).end());
    const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/rotate`, { secret: "old-secret" });
    await withRetryBase(600, async () => {
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 9 } });
      await receiver.waitFor(1);
      await t.db.webhookSubscription.update({ where: { id: sub.id }, data: { secretEncrypted: sealSecret("new-secret") } });
      await receiver.waitFor(2);
    });
    expect(receiver.received[0].headers["x-webhook-signature"]).toBe(hmac("old-secret", receiver.received[0].raw));
    expect(receiver.received[1].headers["x-webhook-signature"]).toBe(hmac("new-secret", receiver.received[1].raw));
  });

  it("makes a retry while events nobody subscribed to keep waking the runner", async () => {
    let calls = 0;
    receiver.respondWith((_r, res) => void res.writeHead(++calls === 1 ? 500 : 200).end());
    await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/busy`);
    await withRetryBase(400, async () => {
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 8 } });
      await receiver.waitFor(1);
      // Each of these wakes the runner, which then skips the claim (nothing new is due): the retry
      // must still come, from the timer that those passes leave as it is.
      await until(async () => {
        await t.db.$transaction((tx) =>
          recordEvent(tx, { type: "pharmacy_order_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: "unsubscribed" }),
        );
        return receiver.received.length >= 2;
      });
    });
    expect(receiver.received.map((r) => r.path)).toEqual(["/busy", "/busy"]);
  });

  it("a slow receiver does not hold up others; timeouts, refused connections and private targets are classified", async () => {
    // Fairness, free of timing: the slow receiver keeps every request open until the other pharmacy's
    // event has arrived, under a timeout far longer than any test wait. A runner that let the slow
    // target hold up others would never deliver it, and the wait below would fail.
    const held: import("node:http").ServerResponse[] = [];
    const slow = await startReceiver((_r, res) => void held.push(res));
    const hanging = await startReceiver(() => undefined); // never answers
    const refused = await startReceiver();
    const refusedUrl = refused.url;
    await refused.close();
    process.env.WEBHOOK_TIMEOUT_MS = "600000";
    reloadConfig();
    try {
      await subscribe("pharmacy_sku_stock_updated", `${slow.url}/slow`);
      const fastSub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/fast`, { pharmacyId: t.groupPharmacy.id });
      await startRunner();
      // Six stock events at the slow pharmacy (slots: 2 per target), then one at another pharmacy.
      for (let stock = 1; stock <= 6; stock++) {
        await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock } });
      }
      await slow.waitFor(2);
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.groupPharmacySku.id}/stock`, {
        key: t.keys.pharmacyGroup,
        query: { pharmacy_uid: t.groupPharmacy.id },
        body: { stock: 11 },
      });
      await receiver.waitFor(1, 60_000);
      expect(slow.received).toHaveLength(2); // no more than its slots, all still unanswered
      expect(held.every((res) => !res.writableEnded)).toBe(true);
      slow.respondWith((_r, res) => void res.writeHead(200).end("ok"));
      for (const res of held.splice(0)) res.writeHead(200).end("ok");
      await until(async () => (await deliveriesOf(fastSub.id))[0]?.state === "SUCCEEDED");

      // Classification, under the short timeout of this file.
      process.env.WEBHOOK_TIMEOUT_MS = ENV.WEBHOOK_TIMEOUT_MS;
      reloadConfig();
      const hangingSub = await subscribe("pharmacy_sku_stock_updated", `${hanging.url}/hanging`, { scope: "ORGANISATION", secret: "h" });
      const refusedSub = await subscribe("pharmacy_sku_stock_updated", `${refusedUrl}/gone`, { scope: "ORGANISATION" });
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.groupPharmacySku.id}/stock`, {
        key: t.keys.pharmacyGroup,
        query: { pharmacy_uid: t.groupPharmacy.id },
        body: { stock: 10 },
      });
      const timedOut = await until(async () =>
        (await t.db.webhookAttempt.findFirst({ where: { delivery: { subscriptionId: hangingSub.id } }, orderBy: { startedAt: "asc" } })) ?? null,
      );
      expect(timedOut).toMatchObject({ errorClass: "timeout", responseStatus: null });
      expect(timedOut.durationMs).toBeGreaterThanOrEqual(2490);
      const refusedAttempt = await until(async () => (await t.db.webhookAttempt.findFirst({ where: { delivery: { subscriptionId: refusedSub.id } } })) ?? null);
      expect(refusedAttempt.errorClass).toBe("connection");
      expect(refusedAttempt.errorMessage).toContain("ECONNREFUSED");

      // With private targets no longer allowed, the delivery-time check refuses loopback.
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
      reloadConfig();
      // So does it for IPv6 forms of the receiver's loopback address (IPv4-mapped, IPv4-compatible).
      const port = new URL(receiver.url).port;
      const blockedTargets = [`${receiver.url}/blocked`, `http://[::ffff:127.0.0.1]:${port}/blocked-mapped`, `http://[::7f00:1]:${port}/blocked-compatible`];
      const blockedSubs = [];
      for (const [i, target] of blockedTargets.entries()) {
        blockedSubs.push(await subscribe("pharmacy_sku_stock_updated", target, { scope: "ORGANISATION", secret: `b${i}` }));
      }
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.groupPharmacySku.id}/stock`, {
        key: t.keys.pharmacyGroup,
        query: { pharmacy_uid: t.groupPharmacy.id },
        body: { stock: 12 },
      });
      for (const sub of blockedSubs) {
        const blocked = await until(async () => (await t.db.webhookAttempt.findFirst({ where: { delivery: { subscriptionId: sub.id } } })) ?? null);
        expect(blocked.errorClass, sub.target).toBe("blocked_target");
      }
      expect(receiver.received.some((r) => r.path.startsWith("/blocked"))).toBe(false);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
      process.env.WEBHOOK_TIMEOUT_MS = ENV.WEBHOOK_TIMEOUT_MS;
      reloadConfig();
      await Promise.all([slow.close(), hanging.close()]);
    }
  });

  it("survives receivers that reset the connection or answer garbage, and records why", async () => {
    const garbage = net.createServer((socket) => socket.once("data", () => socket.end("NOT HTTP AT ALL\r\n\r\n")));
    const reset = net.createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    await Promise.all([garbage, reset].map((srv) => new Promise<void>((r) => srv.listen(0, "127.0.0.1", r))));
    const urlOf = (srv: net.Server) => `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/hook`;
    try {
      const garbageSub = await subscribe("pharmacy_sku_stock_updated", urlOf(garbage));
      const resetSub = await subscribe("pharmacy_sku_stock_updated", urlOf(reset), { scope: "ORGANISATION" });
      const fine = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/fine`, { scope: "ORGANISATION", secret: "fine" });
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 77 } });
      await receiver.waitFor(1);
      const firstAttempt = (subscriptionId: string) =>
        until(async () => (await t.db.webhookAttempt.findFirst({ where: { delivery: { subscriptionId } } })) ?? null);
      expect(await firstAttempt(garbageSub.id)).toMatchObject({ errorClass: "connection", responseStatus: null });
      expect(await firstAttempt(resetSub.id)).toMatchObject({ errorClass: "connection", responseStatus: null });
      expect((await deliveriesOf(garbageSub.id))[0].state).toBe("PENDING"); // retried later
      await until(async () => (await deliveriesOf(fine.id))[0]?.state === "SUCCEEDED");
    } finally {
      await Promise.all([garbage, reset].map((srv) => new Promise((r) => srv.close(r))));
    }
  });

  it("sends bodies of 10 MB and more whole, signed over the exact bytes", async () => {
    const sub = await subscribe("appointment_reminder_due", `${receiver.url}/big`, { scope: "ORGANISATION" });
    await startRunner();
    const note = "x".repeat(10 * 1024 * 1024);
    await t.db.$transaction(async (tx) => {
      await recordEvent(tx, { type: "appointment_reminder_due", organisationId: t.organisation.id, subjectId: "appointment-1", data: { recipient_role: "patient", rebook_allowed: true, cancel_allowed: false, note } });
    });
    await receiver.waitFor(1, 20_000);
    const got = receiver.received[0];
    expect(got.raw.length).toBeGreaterThan(10 * 1024 * 1024);
    expect(got.json.data.note).toHaveLength(note.length);
    expect(got.headers["x-webhook-signature"]).toBe(hmac(sub.secret, got.raw));
  });

  it("attempts each delivery once when several runners share the database", async () => {
    // What is tested is that claims are exclusive. A timeout would make a legitimate second attempt
    // (delivery is at least once), and on a busy machine this file's 2.5 s can pass while the
    // receiver, in this very process, waits for the event loop: a generous one here.
    process.env.WEBHOOK_TIMEOUT_MS = "30000";
    reloadConfig();
    try {
      const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/shared`);
      await Promise.all([startRunner(), startRunner(), startRunner()]);
      for (let stock = 100; stock < 110; stock++) {
        await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock } });
      }
      await receiver.waitFor(10);
      const deliveries = await until(async () => {
        const all = await deliveriesOf(sub.id);
        return all.length === 10 && all.every((d) => d.state !== "PENDING") ? all : null;
      });
      expect(deliveries.map((d) => [d.state, d.attempts.map((a) => a.errorClass ?? a.responseStatus)])).toEqual(
        Array.from({ length: 10 }, () => ["SUCCEEDED", [200]]),
      );
      expect(receiver.received).toHaveLength(10);
    } finally {
      process.env.WEBHOOK_TIMEOUT_MS = ENV.WEBHOOK_TIMEOUT_MS;
      reloadConfig();
    }
  });

  it("ends deliveries of a deleted subscription without sending", async () => {
    receiver.respondWith((_r, res) => void res.writeHead(500).end());
    const sub = await subscribe("pharmacy_sku_stock_updated", `${receiver.url}/deleted`);
    await withRetryBase(400, async () => {
      await startRunner();
      await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 3 } });
      await receiver.waitFor(1);
      await t.db.webhookSubscription.update({ where: { id: sub.id }, data: { deletedAt: new Date() } });
      const [delivery] = await until(async () => {
        const d = await deliveriesOf(sub.id);
        return d[0]?.state === "FAILED" ? d : null;
      });
      expect(delivery.attempts.map((a) => a.errorClass)).toEqual(["http_status", "subscription_deleted"]);
      expect(receiver.received).toHaveLength(1);
    });
  });
});

describe("bounds and sharing", () => {
  it("bounds attempts in flight per receiver origin, across subscriptions with different paths", async () => {
    let inFlight = 0;
    let most = 0;
    const slow = await startReceiver(async (_r, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(150);
      inFlight -= 1;
      res.writeHead(200).end();
    });
    try {
      for (let i = 0; i < 4; i++) await subscribe("pharmacy_sku_stock_updated", `${slow.url}/path-${i}`, { secret: `s${i}` });
      await startRunner();
      for (let stock = 1; stock <= 3; stock++) {
        await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock } });
      }
      await slow.waitFor(12, 15_000);
      expect(most).toBe(2); // WEBHOOK_TARGET_CONCURRENCY
    } finally {
      await slow.close();
    }
  });

  it("builds a payload once per event and scope within a short window, and never keeps a failed build", async () => {
    let builds = 0;
    let fail = true;
    const shared = sharedDataBuilder(async () => {
      builds += 1;
      if (fail) throw new Error("database hiccup");
      return { n: builds };
    }, 200);
    const event = { id: "e1", eventType: "pharmacy_order_updated", organisationId: "o", pharmacyId: "p", subjectId: "s", data: null };
    await expect(shared(event, "PHARMACY")).rejects.toThrow("hiccup");
    fail = false;
    const [a, b] = await Promise.all([shared(event, "PHARMACY"), shared(event, "PHARMACY")]);
    expect(a).toBe(b);
    expect(await shared(event, "ORGANISATION")).not.toBe(a);
    expect(builds).toBe(3);
    await sleep(250);
    await shared(event, "PHARMACY");
    expect(builds).toBe(4);
  });
});

describe("retry schedule", () => {
  it("grows from the base by ×4 with ±20 % jitter and never passes the maximum", () => {
    process.env.WEBHOOK_RETRY_BASE_MS = "10000";
    process.env.WEBHOOK_RETRY_MAX_MS = "600000";
    reloadConfig();
    try {
      expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 0.5))).toEqual([10_000, 40_000, 160_000, 600_000]);
      expect(retryDelayMs(1, () => 0)).toBe(8_000);
      expect(retryDelayMs(1, () => 1)).toBe(12_000);
      expect(retryDelayMs(4, () => 1)).toBe(600_000);
    } finally {
      Object.assign(process.env, ENV);
      reloadConfig();
    }
  });
});

describe("payload builder", () => {
  it("returns null when the subject no longer exists", async () => {
    const event = { id: "e", eventType: "pharmacy_sku_stock_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: "missing", data: null };
    expect(await buildWebhookData(event, "PHARMACY")).toBeNull();
    expect(await buildWebhookData({ ...event, eventType: "pharmacy_order_updated" }, "ORGANISATION")).toBeNull();
  });
});
