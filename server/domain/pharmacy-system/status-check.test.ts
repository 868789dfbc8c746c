import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { useEnv } from "@/tests/wait";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import type { PharmacySystemConnector } from "./connector";
import { parseStatusBody } from "./http-connector";
import { connectorFor, sealPlainConnectorHeaders } from "./registry";
import { checkPharmacyOrderStatuses, COMPLETED_CHECK_DAYS, type StatusCheckSummary } from "./status-check";

// The fake system listens on loopback, which the outgoing-request guard refuses by default
// (status-check-guard.test.ts tests that).
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

// ── A fake pharmacy system: answers GET /pms/orders/{uid} as told per order, and records each request. ──

type Behaviour =
  | { json: unknown; code?: number }
  | { text: string; code?: number }
  | { redirect: string }
  | { hang: true };

const behaviours = new Map<string, Behaviour>();
const requests: { uid: string; url: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let baseUrl: string;

async function startFakeSystem() {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const match = /^\/pms\/orders\/([^/]+)$/.exec(url.pathname);
    const uid = match ? decodeURIComponent(match[1]) : "";
    requests.push({ uid, url: req.url ?? "", headers: req.headers });
    const behaviour = behaviours.get(uid);
    if (!behaviour) return void res.writeHead(404).end();
    if ("hang" in behaviour) return; // never answers; the connector's timeout ends it
    if ("redirect" in behaviour) return void res.writeHead(302, { location: behaviour.redirect }).end();
    if ("text" in behaviour) return void res.writeHead(behaviour.code ?? 200, { "content-type": "text/html" }).end(behaviour.text);
    res.writeHead(behaviour.code ?? 200, { "content-type": "application/json" }).end(JSON.stringify(behaviour.json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// ── Tenant and orders ──

let t: Tenant;
type PO = { id: string; name: string };
const orders: Record<string, PO> = {};
let bOrder: PO; // pharmacy B has no connector
let cOrder: PO; // pharmacy C has an invalid connector setting
let alreadyCompleted: PO;

/** Order `externalId` at `pharmacyId` of [sku_reference, quantity] items, paid 1000 a piece; its pharmacy order. */
async function orderAt(externalId: string, pharmacyId: string, items: [string, number][]): Promise<PO> {
  const lines = items.map(([skuReference, quantity], i) => item(skuReference, { external_id: `${externalId}-i${i}`, quantity, total_paid: eur(1000 * quantity) }));
  return (await createTestOrder(t, routedOrderBody(t, externalId, pharmacyId, lines))).pharmacyOrders[0];
}

const statusOf = async (order: PO) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: order.id } })).status;
const stockOf = async (pharmacySkuId: string) => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: pharmacySkuId } })).stock;
const events = (eventType: string, subjectId: string) => t.db.outboxEvent.count({ where: { eventType, subjectId } });
const movementsOf = (order: PO) => t.db.stockMovement.findMany({ where: { pharmacyOrderId: order.id }, orderBy: { sequence: "asc" } });

// Long enough for the fake system, served by this same process, to answer on a busy machine; the
// "timeout" order never gets an answer at all.
const TIMEOUT_MS = 2000;

const OPEN_KINDS = ["open", "garbage", "error500", "timeout", "notFound", "arrayBody", "blankStatus", "redirect", "huge"] as const;

beforeAll(async () => {
  await startFakeSystem();
  t = await createTenant();
  await offerSku(t, { shopVariationId: "var-aspirin", price: 1000 });
  await offerSku(t, { shopVariationId: "var-voucher", price: 1000, skuId: t.digitalSku.id });
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 50 } });
  await t.db.pharmacy.update({
    where: { id: t.pharmacy.id },
    data: {
      systemConnector: { type: "http", url: `${baseUrl}/pms/`, headers: { Authorization: "Bearer pms-token" }, timeout_ms: TIMEOUT_MS },
    },
  });
  // Stored in plain text as before issue 36, then sealed as at start-up: the check still sends the real header.
  expect(await sealPlainConnectorHeaders()).toBeGreaterThanOrEqual(1);
  const stored = (await t.db.pharmacy.findUniqueOrThrow({ where: { id: t.pharmacy.id } })).systemConnector;
  expect(JSON.stringify(stored)).not.toContain("pms-token");
  expect(stored).toMatchObject({ type: "http", url: `${baseUrl}/pms/`, timeout_ms: TIMEOUT_MS, sealed_headers: { Authorization: expect.stringMatching(/^v1\./) } });
  expect(stored).not.toHaveProperty("headers");
  expect(await sealPlainConnectorHeaders()).toBe(0);
  await t.db.pharmacy.update({ where: { id: t.loosePharmacy.id }, data: { systemConnector: { type: "http", url: "not a url" } } });
  await t.db.pharmacySku.create({ data: { pharmacyId: t.loosePharmacy.id, skuId: t.sku.id, externalId: "C-1", price: 400, stock: 5 } });

  alreadyCompleted = await orderAt("done", t.pharmacy.id, [["var-aspirin", 1]]);
  await completePharmacyOrder(t.pharmacy.id, alreadyCompleted.id, [], { type: "SYSTEM" });

  orders.shipped = await orderAt("shipped", t.pharmacy.id, [["var-aspirin", 2], ["var-voucher", 1]]);
  orders.completed = await orderAt("completed", t.pharmacy.id, [["var-aspirin", 1]]);
  orders.cancelled = await orderAt("cancelled", t.pharmacy.id, [["var-aspirin", 1]]);
  orders.race = await orderAt("race", t.pharmacy.id, [["var-aspirin", 1]]);
  for (const kind of OPEN_KINDS) orders[kind] = await orderAt(kind, t.pharmacy.id, [["var-aspirin", 1]]);
  bOrder = await orderAt("b", t.groupPharmacy.id, [["var-aspirin", 1]]);
  cOrder = await orderAt("c", t.loosePharmacy.id, [["var-aspirin", 1]]);

  behaviours.set(orders.shipped.id, { json: { status: "Shipped", tracking_url: "https://track.example/dhl/123", carrier: "dhl" } });
  behaviours.set(orders.completed.id, { json: { status: "completed" } });
  behaviours.set(orders.cancelled.id, { json: { status: "CANCELED" } });
  // Completed through the API while the check runs (raceConnectorFor), then the system says cancelled.
  behaviours.set(orders.race.id, { json: { status: "cancelled" } });
  behaviours.set(orders.open.id, { json: { status: "in_progress", tracking_url: "https://track.example/x" } });
  behaviours.set(orders.garbage.id, { text: "<html>oops</html>" });
  behaviours.set(orders.error500.id, { json: { status: "shipped" }, code: 500 });
  behaviours.set(orders.timeout.id, { hang: true });
  // orders.notFound: no behaviour → 404
  behaviours.set(orders.arrayBody.id, { json: [{ status: "shipped" }] });
  behaviours.set(orders.blankStatus.id, { json: { status: " " } });
  behaviours.set(orders.redirect.id, { redirect: `/pms/orders/${orders.shipped.id}` });
  behaviours.set(orders.huge.id, { json: { status: "shipped", padding: "x".repeat(70 * 1024) } });
});

/**
 * The real connectors, except that the race order is completed (as complete_order would) after the
 * check listed it as open and before its system is asked: outside the connector's timeout, which a
 * database write on a busy machine could exceed.
 */
function raceConnectorFor(pharmacy: { id: string; systemConnector: unknown }): PharmacySystemConnector | null {
  const connector = connectorFor(pharmacy);
  if (!connector) return null;
  return {
    type: connector.type,
    fetchStatus: async (order) => {
      if (order.uid === orders.race.id) await completePharmacyOrder(t.pharmacy.id, orders.race.id, [], { type: "SYSTEM" });
      return connector.fetchStatus(order);
    },
  };
}

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the automatic status check", () => {
  let first: StatusCheckSummary;
  let stockBefore: { aspirin: number; voucher: number };
  let stockEventsBefore: { aspirin: number; voucher: number };

  beforeAll(async () => {
    stockBefore = { aspirin: await stockOf(t.pharmacySku.id), voucher: await stockOf(t.digitalPharmacySku.id) };
    stockEventsBefore = {
      aspirin: await events("pharmacy_sku_stock_updated", t.pharmacySku.id),
      voucher: await events("pharmacy_sku_stock_updated", t.digitalPharmacySku.id),
    };
    requests.length = 0;
    first = await checkPharmacyOrderStatuses({ now: new Date(), connectorFor: raceConnectorFor });
  });

  it("asks the pharmacy system once for each order but a cancelled one (completed ones too) of pharmacies with a valid connector", () => {
    expect(first).toEqual({
      checked: 5 + OPEN_KINDS.length,
      completed: 2,
      cancelled: 1,
      open: 1,
      unknown: OPEN_KINDS.length, // the open kinds but "open", and the completed order its system does not know (404)
      blocked: 0,
      skipped: 1,
      unchanged: 0,
      failed: 0,
      cursor: null,
    });
    const asked = requests.map((r) => r.uid).sort();
    expect(asked).toEqual([...Object.values(orders), alreadyCompleted].map((o) => o.id).sort());
    expect(asked).not.toContain(bOrder.id);
    expect(asked).not.toContain(cOrder.id);
  });

  it("follows the documented request contract", () => {
    const request = requests.find((r) => r.uid === orders.shipped.id)!;
    expect(request.url).toBe(`/pms/orders/${orders.shipped.id}?name=${orders.shipped.name}`);
    expect(request.headers.authorization).toBe("Bearer pms-token");
    expect(request.headers.accept).toBe("application/json");
  });

  it("completes a shipped order like complete_order: stock reduced per SKU, events, payouts, the tracking link", async () => {
    expect(await statusOf(orders.shipped)).toBe("completed");
    const moves = await movementsOf(orders.shipped);
    expect(moves.map((m) => [m.pharmacySkuId, m.delta, m.reason, m.actorType]).sort()).toEqual(
      [
        [t.pharmacySku.id, -2, "ORDER_COMPLETION", "SYSTEM"],
        [t.digitalPharmacySku.id, -1, "ORDER_COMPLETION", "SYSTEM"],
      ].sort(),
    );
    expect(await events("pharmacy_order_updated", orders.shipped.id)).toBe(1);
    const shipments = await t.db.shipment.findMany({ where: { pharmacyOrderId: orders.shipped.id } });
    expect(shipments).toMatchObject([{ sequenceNumber: 1, trackingUrl: "https://track.example/dhl/123", carrierName: "DHL" }]);
    const payouts = await t.db.payout.findMany({ where: { pharmacyOrderId: orders.shipped.id } });
    expect(payouts.length).toBeGreaterThan(0);
    expect(payouts.every((p) => p.status === "ROUTED" && p.routingCreatedAt)).toBe(true);
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: orders.shipped.id }, orderBy: { createdAt: "asc" } });
    expect(history.at(-1)).toMatchObject({ fromStatus: "waiting for pharmacy", toStatus: "completed", actorType: "SYSTEM" });
  });

  it("completes a completed order without a shipment", async () => {
    expect(await statusOf(orders.completed)).toBe("completed");
    expect((await movementsOf(orders.completed)).map((m) => m.delta)).toEqual([-1]);
    expect(await events("pharmacy_order_updated", orders.completed.id)).toBe(1);
    expect(await t.db.shipment.count({ where: { pharmacyOrderId: orders.completed.id } })).toBe(0);
  });

  it("reduces each SKU's stock once per completed order, with one stock event per SKU and order", async () => {
    // aspirin: shipped 2 + completed 1 + race 1 (completed by the concurrent request); voucher: shipped 1.
    expect(await stockOf(t.pharmacySku.id)).toBe(stockBefore.aspirin - 4);
    expect(await stockOf(t.digitalPharmacySku.id)).toBe(stockBefore.voucher - 1);
    expect(await events("pharmacy_sku_stock_updated", t.pharmacySku.id)).toBe(stockEventsBefore.aspirin + 3);
    expect(await events("pharmacy_sku_stock_updated", t.digitalPharmacySku.id)).toBe(stockEventsBefore.voucher + 1);
  });

  it("cancels a cancelled order without touching stock", async () => {
    expect(await statusOf(orders.cancelled)).toBe("cancelled");
    expect(await movementsOf(orders.cancelled)).toEqual([]);
    expect(await events("pharmacy_order_updated", orders.cancelled.id)).toBe(1);
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: orders.cancelled.id }, orderBy: { createdAt: "asc" } });
    expect(history.at(-1)).toMatchObject({ toStatus: "cancelled", actorType: "SYSTEM" });
    expect(await t.db.payout.count({ where: { pharmacyOrderId: orders.cancelled.id } })).toBe(0);
  });

  it("leaves an order alone that was completed meanwhile, re-reading its status under the lock", async () => {
    expect(await statusOf(orders.race)).toBe("completed");
    expect((await movementsOf(orders.race)).map((m) => m.delta)).toEqual([-1]);
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: orders.race.id } });
    expect(history.map((h) => h.toStatus).sort()).toEqual(["completed", "waiting for pharmacy"]);
    expect(await events("pharmacy_order_updated", orders.race.id)).toBe(1);
  });

  it("changes nothing for open, unusable or missing answers (garbage, 500, timeout, 404, redirect, too large)", async () => {
    for (const kind of OPEN_KINDS) {
      expect(await statusOf(orders[kind]), kind).toBe("waiting for pharmacy");
      expect(await movementsOf(orders[kind]), kind).toEqual([]);
      expect(await events("pharmacy_order_updated", orders[kind].id), kind).toBe(0);
    }
    expect(await statusOf(bOrder)).toBe("waiting for pharmacy");
    expect(await statusOf(cOrder)).toBe("waiting for pharmacy");
  });

  it("does nothing more on a second run: no stock reduced twice, the completed orders asked again and left completed", async () => {
    // The race order's system caught up with the completion (a completed order reported cancelled is cancelled: below).
    behaviours.set(orders.race.id, { json: { status: "completed" } });
    const counts = async () => ({
      aspirin: await stockOf(t.pharmacySku.id),
      voucher: await stockOf(t.digitalPharmacySku.id),
      movements: await t.db.stockMovement.count(),
      outbox: await t.db.outboxEvent.count(),
      history: await t.db.pharmacyOrderHistory.count(),
      shipments: await t.db.shipment.count(),
    });
    const before = await counts();
    requests.length = 0;
    const second = await checkPharmacyOrderStatuses({ now: new Date() });
    expect(second).toEqual({
      checked: OPEN_KINDS.length + 4,
      completed: 0,
      cancelled: 0,
      open: 1,
      unknown: OPEN_KINDS.length,
      blocked: 0,
      skipped: 0,
      unchanged: 3,
      failed: 0,
      cursor: null,
    });
    const completedOnes = [orders.shipped, orders.completed, orders.race, alreadyCompleted];
    expect(requests.map((r) => r.uid).sort()).toEqual([...OPEN_KINDS.map((k) => orders[k]), ...completedOnes].map((o) => o.id).sort());
    expect(await counts()).toEqual(before);
  });

  it("cancels a completed order its system reports cancelled (the status table's any): stock kept (the goods left), payouts flagged", async () => {
    behaviours.set(alreadyCompleted.id, { json: { status: "cancelled" } });
    const stock = await stockOf(t.pharmacySku.id);
    const run = await checkPharmacyOrderStatuses({ now: new Date() });
    expect(run).toMatchObject({ cancelled: 1, failed: 0 });
    expect(await statusOf(alreadyCompleted)).toBe("cancelled");
    expect((await movementsOf(alreadyCompleted)).map((m) => [m.delta, m.reason])).toEqual([[-1, "ORDER_COMPLETION"]]);
    expect(await stockOf(t.pharmacySku.id)).toBe(stock);
    // A cancelled order is not asked again.
    requests.length = 0;
    await checkPharmacyOrderStatuses({ now: new Date() });
    expect(requests.map((r) => r.uid)).not.toContain(alreadyCompleted.id);
  });

  it("leaves completed orders alone once they are older than the window", async () => {
    requests.length = 0;
    await checkPharmacyOrderStatuses({ now: new Date(Date.now() + (COMPLETED_CHECK_DAYS + 1) * 86_400_000) });
    const asked = requests.map((r) => r.uid);
    expect(asked).not.toContain(orders.shipped.id);
    expect(asked).toContain(orders.open.id);
  });
});

describe("bounded runs", () => {
  it("checks the oldest orders first and goes on from the cursor", async () => {
    const open = await t.db.pharmacyOrder.findMany({
      // The open ones and the three completed ones (shipped, completed, race) still in the window.
      where: { pharmacyId: t.pharmacy.id, status: { in: ["waiting for pharmacy", "completed"] } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, createdAt: true },
    });
    expect(open).toHaveLength(OPEN_KINDS.length + 3);
    requests.length = 0;
    const part = await checkPharmacyOrderStatuses({ batchSize: 2, maxOrders: 3, concurrency: 1 });
    expect(part.checked).toBe(3);
    expect(part.cursor).toEqual({ createdAt: open[2].createdAt, id: open[2].id });
    expect(requests.map((r) => r.uid)).toEqual(open.slice(0, 3).map((o) => o.id));

    requests.length = 0;
    const rest = await checkPharmacyOrderStatuses({ batchSize: 2, maxOrders: 100, concurrency: 1, after: part.cursor });
    expect(rest.checked).toBe(open.length - 3);
    expect(rest.cursor).toBeNull();
    expect(requests.map((r) => r.uid)).toEqual(open.slice(3).map((o) => o.id));
  });

  it("stops after one batch when the time budget is spent", async () => {
    const run = await checkPharmacyOrderStatuses({ batchSize: 2, timeBudgetMs: 0, concurrency: 2 });
    expect(run.checked).toBe(2);
    expect(run.cursor).not.toBeNull();
  });

  it("leaves orders created after `now` to the next run", async () => {
    requests.length = 0;
    const run = await checkPharmacyOrderStatuses({ now: new Date("2000-01-01T00:00:00Z") });
    expect(run).toMatchObject({ checked: 0, cursor: null });
    expect(requests).toEqual([]);
  });

  it("survives a connector that throws despite its contract", async () => {
    const throwing: PharmacySystemConnector = {
      type: "broken",
      fetchStatus: async () => {
        throw new Error("boom");
      },
    };
    const run = await checkPharmacyOrderStatuses({ connectorFor: () => throwing });
    // Every open order of a pharmacy with a setting, C's invalid one included (the injected factory ignores it).
    // And the three completed ones: a connector that throws is no usable answer either.
    expect(run).toMatchObject({ checked: OPEN_KINDS.length + 4, unknown: OPEN_KINDS.length + 4, completed: 0, failed: 0 });
    expect(await statusOf(cOrder)).toBe("waiting for pharmacy");
  });
});

describe("connector settings and answers", () => {
  it("builds an HTTP connector from a valid setting only", () => {
    const pharmacy = (systemConnector: unknown) => ({ id: "p", systemConnector });
    expect(connectorFor(pharmacy(null))).toBeNull();
    expect(connectorFor(pharmacy({ type: "http", url: "https://pms.example/api" }))?.type).toBe("http");
    for (const bad of [
      { type: "ftp", url: "https://pms.example" },
      { type: "http" },
      { type: "http", url: "ftp://pms.example" },
      { type: "http", url: "https://user:pw@pms.example" },
      { type: "http", url: "https://pms.example", headers: { "Bad Header": "x" } },
      { type: "http", url: "https://pms.example", headers: { "X-Token": "a\r\nb" } },
      { type: "http", url: "https://pms.example", timeout_ms: 10 },
      "http://pms.example",
      [],
    ]) {
      expect(connectorFor(pharmacy(bad)), JSON.stringify(bad)).toBeNull();
    }
  });

  it("reads the status answer leniently but never guesses", () => {
    expect(parseStatusBody('{"status":"SHIPPED"}')).toEqual({ status: "shipped" });
    expect(parseStatusBody('{"status":"canceled"}')).toEqual({ status: "cancelled" });
    expect(parseStatusBody('{"status":"packing"}')).toEqual({ status: "open" });
    expect(parseStatusBody('{"status":"shipped","tracking_url":"https://t.example/1","carrier":"ups"}')).toEqual({
      status: "shipped",
      trackingUrl: "https://t.example/1",
      carrier: "UPS",
    });
    expect(parseStatusBody('{"status":"shipped","tracking_url":"https://t.example/1","carrier":"Royal Mail"}')).toMatchObject({
      carrier: "Other",
    });
    expect(parseStatusBody('{"status":"shipped","tracking_url":"javascript:alert(1)"}')).toEqual({ status: "shipped" });
    for (const garbage of ["", "null", "[]", '"shipped"', '{"state":"shipped"}', '{"status":5}', "{"]) {
      expect(parseStatusBody(garbage), garbage).toBeNull();
    }
  });
});
