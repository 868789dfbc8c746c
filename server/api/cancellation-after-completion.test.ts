/**
 * Cancellation after completion (docs/decisions/pharmacy-orders.md#cancellation-after-completion), through every
 * door that can cancel a pharmacy order: External Pharmacy PATCH status, the portal's single and
 * bulk status change, the Management fulfillment cancel and the automatic status check. Stock the
 * completion took stays taken (the goods left the pharmacy), unless the pharmacist says in the
 * portal that the goods came back: then it goes back once (movement, event). Routed payouts are
 * flagged for review (REST bodies unchanged, the portal shows it), projected payouts of a cancelled
 * order are removed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import type { PharmacySystemConnector } from "@/server/domain/pharmacy-system/connector";
import { checkPharmacyOrderStatuses } from "@/server/domain/pharmacy-system/status-check";
import { createCaller } from "@/server/trpc/router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { signedPrescriptionOf } from "@/tests/prescriptions";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let pharmacist: PortalSessionUser;

const EPA = "/v1/external_pharmacy_api/pharmacy_orders";
const REVIEW_REASON = "Pharmacy order cancelled after completion";
const PAYOUT_ROW_FIELDS = [
  "amount",
  "component_type",
  "currency",
  "pharmacy_order_created_at",
  "pharmacy_order_name",
  "pharmacy_order_uid",
  "provider_route_id",
  "routing_created_at",
  "routing_description",
  "status",
];

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
});

type PO = { id: string; orderId: string };

/** An OTC order of `quantity` (paid 499 each; the pharmacy's price 450) at pharmacy A; its pharmacy order and the order's external id. */
async function newOrder(quantity = 3): Promise<PO & { externalId: string }> {
  const body = orderBody(t, [item(refs.otcReference, { quantity, total_paid: { amount: 499 * quantity, currency: "EUR" } })]);
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, select: { id: true, orderId: true } });
  return { ...po, externalId: body.external_id };
}

const setStatus = (id: string, body: Record<string, unknown>) => patch(`${EPA}/${id}/status`, { key: t.keys.pharmacy, body });
const complete = (id: string) => patch(`${EPA}/${id}/complete_order`, { key: t.keys.pharmacy });

async function completedOrder(quantity = 3) {
  const po = await newOrder(quantity);
  expect((await complete(po.id)).status).toBe(200);
  return po;
}

const stockOf = async () => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
const statusOf = async (po: PO) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status;
const movementsOf = (po: PO) =>
  t.db.stockMovement.findMany({
    where: { pharmacyOrderId: po.id },
    orderBy: { sequence: "asc" },
    select: { pharmacySkuId: true, delta: true, reason: true, actorType: true },
  });
const payoutsOf = (po: PO) =>
  t.db.payout.findMany({
    where: { pharmacyOrderId: po.id },
    orderBy: { componentType: "asc" },
    select: { status: true, componentType: true, reviewFlaggedAt: true, reviewReason: true },
  });
const stockEventsSince = (since: Date) =>
  t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: t.pharmacySku.id, createdAt: { gte: since } } });
const orderEvents = (po: PO) => t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_updated", subjectId: po.id } });
const historyOf = async (po: PO) =>
  (await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { createdAt: "asc" } })).map((h) => ({
    from: h.fromStatus,
    to: h.toStatus,
    comment: h.comment,
    actorType: h.actorType,
  }));

/**
 * What every cancel path must leave: payouts flagged, history; the stock back once (movement, event)
 * when the goods came back, else as it was with a history entry saying so.
 */
async function expectCompletionUndone(po: PO, stockBeforeCancel: number, cancelledAt: Date, actorType: string, goodsReturned = false) {
  expect(await statusOf(po)).toBe("cancelled");
  const completion = { pharmacySkuId: t.pharmacySku.id, delta: -3, reason: "ORDER_COMPLETION", actorType: expect.any(String) };
  if (goodsReturned) {
    expect(await stockOf()).toBe(stockBeforeCancel + 3);
    expect(await movementsOf(po)).toEqual([completion, { pharmacySkuId: t.pharmacySku.id, delta: 3, reason: "ORDER_CANCELLATION", actorType }]);
    expect(await stockEventsSince(cancelledAt)).toBe(1);
  } else {
    expect(await stockOf()).toBe(stockBeforeCancel);
    expect(await movementsOf(po)).toEqual([completion]);
    expect(await stockEventsSince(cancelledAt)).toBe(0);
  }
  const payouts = await payoutsOf(po);
  expect(payouts.map((p) => p.componentType)).toEqual(["item_markup", "item_rest"]);
  for (const p of payouts) {
    expect(p).toMatchObject({ status: "ROUTED", reviewReason: REVIEW_REASON });
    expect(p.reviewFlaggedAt!.getTime()).toBeGreaterThanOrEqual(cancelledAt.getTime() - 1000);
  }
  const history = await historyOf(po);
  const cancelIndex = history.findIndex((h) => h.to === "cancelled");
  expect(history.slice(cancelIndex + 1)).toEqual([
    goodsReturned
      ? { from: null, to: "stock returned", comment: `Cancelled after completion; the goods came back. Aspirin 500 mg: +3 (stock now ${stockBeforeCancel + 3})`, actorType }
      : { from: null, to: "stock kept", comment: "Cancelled after completion; the goods had left the pharmacy, so no stock was returned.", actorType },
    { from: null, to: "payouts flagged for review", comment: "Cancelled after completion: 2 routed payouts (item_markup, item_rest) need review.", actorType },
  ]);
  expect((await t.db.order.findUniqueOrThrow({ where: { id: po.orderId } })).status).toBe("cancelled");
}

describe("External Pharmacy PATCH status", () => {
  it("keeps the stock taken (the goods left the pharmacy), flags the routed payouts, and records both in the history", async () => {
    const po = await completedOrder();
    const stock = await stockOf();
    const cancelledAt = new Date();
    const r = await setStatus(po.id, { status: "cancelled" });
    expect(r).toMatchObject({ status: 200, json: { uid: po.id, status: "cancelled" } });
    await expectCompletionUndone(po, stock, cancelledAt, "API_KEY");
    expect(await orderEvents(po)).toBe(2); // completion, cancellation: one each

    // Cancelled is final: a second cancel is refused and changes nothing.
    expect(await setStatus(po.id, { status: "cancelled" })).toMatchObject({ status: 400, json: { error: "Bad request" } });
    expect(await stockOf()).toBe(stock);
    expect(await movementsOf(po)).toHaveLength(1);
  });

  it("keeps the REST payout rows exactly as the spec shapes them (the review flag is not in the body)", async () => {
    const po = await completedOrder();
    expect((await setStatus(po.id, { status: "cancelled" })).status).toBe(200);
    const list = await get(`/v1/external-pharmacy-api-v1/payouts?search=${po.id}`, { key: t.keys.pharmacy });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(2);
    for (const row of list.json.data) {
      expect(Object.keys(row).sort()).toEqual(PAYOUT_ROW_FIELDS);
      expect(row).toMatchObject({ status: "routed", pharmacy_order_uid: po.id });
    }
    const detail = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.payouts.map((p: Record<string, unknown>) => Object.keys(p).sort())).toEqual([PAYOUT_ROW_FIELDS, PAYOUT_ROW_FIELDS]);
  });

  it("keeps the stock taken also when the order left completed before it was cancelled", async () => {
    const po = await completedOrder();
    expect((await setStatus(po.id, { status: "in-progress" })).status).toBe(200);
    const stock = await stockOf();
    const cancelledAt = new Date();
    expect((await setStatus(po.id, { status: "cancelled" })).status).toBe(200);
    await expectCompletionUndone(po, stock, cancelledAt, "API_KEY");
  });

  it("touches no stock for an order that was never completed, and removes a cancelled order's projected payouts", async () => {
    const prescription = await signedPrescriptionOf(t, "customer-1", [{ quantity: 1 }], { source: "EXTERNAL" });
    const r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { prescription_uid: prescription.id, total_paid: { amount: 2999, currency: "EUR" } })]));
    expect(r.status, r.text).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, select: { id: true, orderId: true } });
    expect((await payoutsOf(po)).map((p) => p.status)).toEqual(["PROJECTED", "PROJECTED"]);
    const since = new Date();
    expect((await setStatus(po.id, { status: "cancelled" })).status).toBe(200);
    expect(await payoutsOf(po)).toEqual([]);
    expect(await movementsOf(po)).toEqual([]);
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", createdAt: { gte: since } } })).toBe(0);
    expect((await historyOf(po)).at(-1)).toMatchObject({ from: "waiting for pharmacy", to: "cancelled" });
    const detail = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.payouts).toEqual([]);
  });
});

describe("pharmacy portal", () => {
  const portal = () => createCaller({ user: pharmacist, locale: "en" });

  it("a single status change whose goods came back returns the stock, and the order page and payouts page say so", async () => {
    const po = await completedOrder();
    expect((await portal().pharmacy.orders.get({ uid: po.id })).holdsStock).toBe(true);
    const stock = await stockOf();
    const cancelledAt = new Date();
    await portal().pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "completed", goodsReturned: true });
    await expectCompletionUndone(po, stock, cancelledAt, "USER", true);

    const detail = await portal().pharmacy.orders.get({ uid: po.id });
    expect(detail.history.slice(-3).map((h) => [h.isStatusChange, h.toStatus])).toEqual([
      [true, "cancelled"],
      [false, "stock returned"],
      [false, "payouts flagged for review"],
    ]);
    expect(detail.payouts.map((p) => [p.status, p.review])).toEqual([
      ["routed", REVIEW_REASON],
      ["routed", REVIEW_REASON],
    ]);

    expect(detail.holdsStock).toBe(false);
    const page = await portal().pharmacy.payouts.list({ search: po.id, page: 0, limit: 50 });
    expect(page.items.map((row) => [row.status, row.review?.reason])).toEqual([
      ["routed", REVIEW_REASON],
      ["routed", REVIEW_REASON],
    ]);
    expect(page.items.every((row) => typeof row.review?.flaggedAt === "number")).toBe(true);
    // Payouts of orders that were not cancelled carry no flag.
    const other = await completedOrder();
    const clean = await portal().pharmacy.payouts.list({ search: other.id, page: 0, limit: 50 });
    expect(clean.items.map((row) => row.review)).toEqual([null, null]);
  });

  it("a single status change keeps the stock taken unless the pharmacist says the goods came back (the default)", async () => {
    const po = await completedOrder();
    const stock = await stockOf();
    const cancelledAt = new Date();
    await portal().pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "completed" });
    await expectCompletionUndone(po, stock, cancelledAt, "USER");
    expect((await portal().pharmacy.orders.get({ uid: po.id })).holdsStock).toBe(true);
  });

  it("gives back what the completion took, not what was ordered", async () => {
    const po = await newOrder(3);
    await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1 } });
    try {
      expect((await complete(po.id)).status).toBe(200);
      expect(await stockOf()).toBe(0);
      await portal().pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "completed", goodsReturned: true });
      expect(await stockOf()).toBe(1);
      expect((await movementsOf(po)).map((m) => [m.reason, m.delta])).toEqual([
        ["ORDER_COMPLETION", -1],
        ["ORDER_CANCELLATION", 1],
      ]);
    } finally {
      await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
    }
  });

  it("a bulk status change whose goods came back undoes each completed order's completion once", async () => {
    const a = await completedOrder();
    const b = await completedOrder();
    const open = await newOrder(2);
    const stock = await stockOf();
    const results = await portal().pharmacy.orders.bulkChangeStatus({ uids: [a.id, b.id, open.id], status: "cancelled", goodsReturned: true });
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(await stockOf()).toBe(stock + 6);
    for (const po of [a, b]) {
      expect((await movementsOf(po)).map((m) => [m.reason, m.delta, m.actorType])).toEqual([
        ["ORDER_COMPLETION", -3, "API_KEY"],
        ["ORDER_CANCELLATION", 3, "USER"],
      ]);
      expect((await payoutsOf(po)).every((p) => p.reviewReason === REVIEW_REASON)).toBe(true);
    }
    expect(await movementsOf(open)).toEqual([]);
  });

  it("a bulk status change keeps the stock taken by default", async () => {
    const a = await completedOrder();
    const stock = await stockOf();
    const cancelledAt = new Date();
    expect((await portal().pharmacy.orders.bulkChangeStatus({ uids: [a.id], status: "cancelled" })).map((r) => r.ok)).toEqual([true]);
    await expectCompletionUndone(a, stock, cancelledAt, "USER");
  });

  it("completing the cancelled order again (the spec's any) takes no stock a second time while the goods stayed out", async () => {
    const po = await completedOrder();
    await portal().pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "completed" });
    const stock = await stockOf();
    expect((await complete(po.id)).status).toBe(200);
    expect(await stockOf()).toBe(stock);
    expect((await movementsOf(po)).map((m) => m.reason)).toEqual(["ORDER_COMPLETION"]);
  });
});

describe("Management fulfillment cancel", () => {
  it("undoes the completion of an order that was completed and put back on hold", async () => {
    const po = await completedOrder();
    expect((await setStatus(po.id, { status: "on-hold", comment: "Parcel came back" })).status).toBe(200);
    const stock = await stockOf();
    const cancelledAt = new Date();
    const r = await post(`/v1/management/orders/${encodeURIComponent(po.externalId)}/fulfillments/f-1/cancel`, { key: t.keys.management });
    expect(r.status, r.text).toBe(200);
    await expectCompletionUndone(po, stock, cancelledAt, "API_KEY");
    // Cancelling the cancelled fulfillment again changes nothing.
    expect((await post(`/v1/management/orders/${encodeURIComponent(po.externalId)}/fulfillments/f-1/cancel`, { key: t.keys.management })).status).toBe(200);
    expect(await stockOf()).toBe(stock);
  });
});

describe("automatic status check", () => {
  it("undoes the completion of a reopened order the pharmacy system reports cancelled", async () => {
    const po = await completedOrder();
    expect((await setStatus(po.id, { status: "in-progress" })).status).toBe(200);
    const stock = await stockOf();
    const cancelledAt = new Date();
    const connector: PharmacySystemConnector = {
      type: "test",
      fetchStatus: async (order) => ({ status: order.uid === po.id ? "cancelled" : "open" }),
    };
    await t.db.pharmacy.update({ where: { id: t.pharmacy.id }, data: { systemConnector: { type: "http", url: "https://pms.example/" } } });
    try {
      const summary = await checkPharmacyOrderStatuses({ connectorFor: () => connector });
      expect(summary.cancelled).toBe(1);
    } finally {
      await t.db.$executeRaw`UPDATE "Pharmacy" SET "systemConnector" = NULL WHERE "id" = ${t.pharmacy.id}`;
    }
    await expectCompletionUndone(po, stock, cancelledAt, "SYSTEM");
  });
});

describe("concurrency", () => {
  it("returns the stock once under concurrent cancels of one completed order whose goods came back", async () => {
    const po = await completedOrder();
    const stock = await stockOf();
    const portal = createCaller({ user: pharmacist, locale: "en" });
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        portal.pharmacy.orders.bulkChangeStatus({ uids: [po.id], status: "cancelled", goodsReturned: true }).then(([r]) => ({ status: r.ok ? 200 : 400 })),
      ),
      portal.pharmacy.orders
        .changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "completed", goodsReturned: true })
        .then(() => ({ status: 200 }), () => ({ status: 400 })),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(8);
    expect(await stockOf()).toBe(stock + 3);
    expect((await movementsOf(po)).filter((m) => m.reason === "ORDER_CANCELLATION")).toHaveLength(1);
    expect((await historyOf(po)).filter((h) => h.to === "stock returned")).toHaveLength(1);
  });

  it("ends consistent when a cancel races the completion: cancelled, stock taken only by a completion, routed payouts flagged", async () => {
    for (let round = 0; round < 4; round++) {
      const po = await newOrder(2);
      const stock = await stockOf();
      // Both orders of arrival: the completion first (then undone) or the cancel first (completion refused).
      const [completion, cancel] =
        round % 2 === 0
          ? await Promise.all([complete(po.id), setStatus(po.id, { status: "cancelled" })])
          : await Promise.all([setStatus(po.id, { status: "cancelled" }), complete(po.id)]).then(([c, d]) => [d, c]);
      expect(cancel.status).toBe(200);
      expect([200, 400]).toContain(completion.status);
      expect(await statusOf(po)).toBe("cancelled");
      expect(await stockOf()).toBe(completion.status === 200 ? stock - 2 : stock);
      const moves = await movementsOf(po);
      expect(moves.map((m) => m.reason)).toEqual(completion.status === 200 ? ["ORDER_COMPLETION"] : []);
      const payouts = await payoutsOf(po);
      expect(payouts.every((p) => p.status === "ROUTED" && p.reviewReason === REVIEW_REASON)).toBe(true);
      expect(payouts.length > 0).toBe(completion.status === 200);
    }
  });
});
