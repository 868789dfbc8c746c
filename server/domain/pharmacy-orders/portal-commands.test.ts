/**
 * The portal's commands on pharmacy orders, called as the portals will call them (a USER actor,
 * a pharmacist's pharmacy ids or an admin's organisation as scope), on a real database: what each
 * writes (outbox rows, history, threads, shipments), what it refuses, and concurrency.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { bulkChangePharmacyOrderStatus } from "./bulk-change-status";
import { changePharmacyOrderDeliveryType, changePharmacyOrderPriority } from "./change-details";
import { openClarificationRequest } from "./clarification";
import { resolveIssueThread } from "./resolve-issue-thread";
import { addShipment } from "./shipments";

let t: Tenant;
let other: Tenant; // another organisation
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let pharmacist: Actor;
let admin: Actor;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 100_000 } });
  await t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: 100_000 } });
  const user = (role: "ADMIN" | "PHARMACIST", pharmacyId: string | null) =>
    t.db.user.create({
      data: { email: `${role}-${randomUUID()}@example.com`, displayName: role, passwordHash: "x", role, organisationId: t.organisation.id, pharmacyId },
    });
  pharmacist = { type: "USER", userId: (await user("PHARMACIST", t.pharmacy.id)).id };
  admin = { type: "USER", userId: (await user("ADMIN", null)).id };
});

const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

/** Places an order with one fulfillment per pharmacy given (default: pharmacy A) and returns its pharmacy orders in that order. */
async function newOrder(pharmacyIds: string[] = [t.pharmacy.id], overrides: Record<string, unknown> = {}) {
  const body = orderBody(t, [], {
    fulfillments: pharmacyIds.map((pharmacyId, i) => fulfillmentAt(`f-${i + 1}`, pharmacyId, [item(refs.otcReference)])),
    ...overrides,
  });
  const r = await placeOrder(t, body);
  expect(r.status).toBe(201);
  const pos = await t.db.pharmacyOrder.findMany({ where: { orderId: r.json.uid }, include: { fulfillment: true } });
  return pos.sort((a, b) => a.fulfillment.externalId.localeCompare(b.fulfillment.externalId));
}
const newPharmacyOrder = async (pharmacyId = t.pharmacy.id) => (await newOrder([pharmacyId]))[0];

/** The outbox rows a piece of work wrote (the file's tests run one after the other). */
async function recorded<T>(work: () => Promise<T>) {
  const before = new Set((await t.db.outboxEvent.findMany({ select: { id: true } })).map((r) => r.id));
  let result: T | undefined;
  let error: unknown;
  try {
    result = await work();
  } catch (e) {
    error = e;
  }
  const rows = (await t.db.outboxEvent.findMany({ orderBy: { createdAt: "asc" } })).filter((r) => !before.has(r.id));
  return { result: result as T, error, events: rows.map((r) => ({ type: r.eventType, subjectId: r.subjectId, pharmacyId: r.pharmacyId, organisationId: r.organisationId })) };
}

const updated = (po: { id: string; pharmacyId: string }) => ({
  type: "pharmacy_order_updated",
  subjectId: po.id,
  pharmacyId: po.pharmacyId,
  organisationId: t.organisation.id,
});
/** The order's status changed with it (docs/decisions/webhooks.md#order-and-prescription-events). */
const orderUpdated = (po: { orderId: string }) => ({ type: "order_updated", subjectId: po.orderId, pharmacyId: null, organisationId: t.organisation.id });
const history = (pharmacyOrderId: string) =>
  t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const statusOf = async (id: string) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id } })).status;
const setStatus = (id: string, status: string, comment?: string) => patch(`${EPA}/${id}/status`, { key: t.keys.pharmacy, body: { status, comment } });

describe("bulkChangePharmacyOrderStatus", () => {
  it("changes each selected order like a single change: per-order results, history and one event per order it reached", async () => {
    const [a, b, same, cancelled] = [await newPharmacyOrder(), await newPharmacyOrder(), await newPharmacyOrder(), await newPharmacyOrder()];
    const foreign = await newPharmacyOrder(t.loosePharmacy.id);
    await setStatus(same.id, "in-progress");
    await setStatus(cancelled.id, "cancelled");
    const unknown = randomUUID();
    const { result, events, error } = await recorded(() =>
      bulkChangePharmacyOrderStatus(
        [t.pharmacy.id],
        [b.id, a.id, same.id, cancelled.id, foreign.id, unknown, a.id],
        { status: "in-progress", comment: "ignored unless on-hold" },
        pharmacist,
      ),
    );
    expect(error).toBeUndefined();
    expect(result).toEqual([
      { uid: b.id, ok: true, changed: true },
      { uid: a.id, ok: true, changed: true },
      { uid: same.id, ok: true, changed: false },
      // Keyed, for the portal to word in its caller's language (server/trpc/routers/pharmacy-orders.ts).
      { uid: cancelled.id, ok: false, error: "bad_request", message: expect.objectContaining({ key: "pharmacyOrders.cancelledIsFinal", english: "A cancelled order cannot be changed." }) },
      { uid: foreign.id, ok: false, error: "not_found", message: "Resource not found" },
      { uid: unknown, ok: false, error: "not_found", message: "Resource not found" },
    ]);
    // The order already in-progress changes nothing but is announced, as a re-sent PATCH is.
    expect(events).toHaveLength(3);
    expect(events).toEqual(expect.arrayContaining([updated(a), updated(b), updated(same)]));
    for (const po of [a, b]) {
      expect(await statusOf(po.id)).toBe("in-progress");
      expect((await history(po.id)).slice(1)).toMatchObject([
        { fromStatus: "waiting for pharmacy", toStatus: "in-progress", comment: null, actorType: "USER", actorUserId: (pharmacist as { userId: string }).userId },
      ]);
    }
    expect(await history(same.id)).toHaveLength(2); // creation, the PATCH: nothing from the bulk update
    expect([await statusOf(cancelled.id), await statusOf(foreign.id)]).toEqual(["cancelled", "waiting for pharmacy"]);
    expect(await history(foreign.id)).toHaveLength(1);
  });

  it("puts orders on hold with the comment, one issue thread each; a group pharmacist reaches both pharmacies", async () => {
    const [a, b] = [await newPharmacyOrder(), await newPharmacyOrder(t.groupPharmacy.id)];
    const { result, events } = await recorded(() =>
      bulkChangePharmacyOrderStatus([t.pharmacy.id, t.groupPharmacy.id], [a.id, b.id], { status: "on-hold", comment: "  Dosage unclear  " }, pharmacist),
    );
    expect(result.every((r) => r.ok && r.changed)).toBe(true);
    expect(events).toEqual(expect.arrayContaining([updated(a), updated(b)]));
    expect(events).toHaveLength(2);
    for (const po of [a, b]) {
      expect(await t.db.adminIssueThread.findMany({ where: { pharmacyOrderId: po.id } })).toMatchObject([
        { description: "Dosage unclear", openedByType: "USER", status: "OPEN" },
      ]);
      expect((await history(po.id)).at(-1)).toMatchObject({ toStatus: "on-hold", comment: "Dosage unclear" });
    }
  });

  it("refuses an invalid change or selection before touching any order", async () => {
    const po = await newPharmacyOrder();
    const attempts: [string[], { status: any; comment?: string }, string][] = [
      [[], { status: "in-progress" }, "pharmacy_order_uids"],
      [Array.from({ length: 201 }, () => randomUUID()), { status: "in-progress" }, "pharmacy_order_uids"],
      [[po.id], { status: "completed" }, "status"],
      [[po.id], { status: "shipped" }, "status"],
      [[po.id], { status: "on-hold" }, "comment"],
      [[po.id], { status: "on-hold", comment: "   " }, "comment"],
    ];
    for (const [uids, change, field] of attempts) {
      const { error, events } = await recorded(() => bulkChangePharmacyOrderStatus([t.pharmacy.id], uids, change, pharmacist));
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).fields)).toEqual([field]);
      expect(events).toEqual([]);
    }
    // 200 distinct uids are accepted (duplicates count once).
    const many = [...Array.from({ length: 199 }, () => randomUUID()), po.id, po.id];
    const { result } = await recorded(() => bulkChangePharmacyOrderStatus([t.pharmacy.id], many, { status: "pending review" }, pharmacist));
    expect(result).toHaveLength(200);
    expect(result.filter((r) => r.ok)).toEqual([{ uid: po.id, ok: true, changed: true }]);
    expect(await history(po.id)).toHaveLength(2);
  });

  it("answers not_found for every order when the user has no pharmacy", async () => {
    const po = await newPharmacyOrder();
    const { result, events } = await recorded(() => bulkChangePharmacyOrderStatus([], [po.id], { status: "in-progress" }, pharmacist));
    expect(result).toEqual([{ uid: po.id, ok: false, error: "not_found", message: "Resource not found" }]);
    expect(events).toEqual([]);
  });

  it("keeps every order consistent under two concurrent bulk updates over overlapping selections", async () => {
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await newPharmacyOrder());
    const ids = orders.map((o) => o.id);

    // Same target status: each order moves once, whichever update reaches it first; the other
    // update re-sends the status to the four orders both selected (an event each, no history).
    const before = await t.db.outboxEvent.count({ where: { subjectId: { in: ids } } });
    const [first, second] = await Promise.all([
      bulkChangePharmacyOrderStatus([t.pharmacy.id], ids.slice(0, 7), { status: "pending review" }, pharmacist),
      bulkChangePharmacyOrderStatus([t.pharmacy.id], ids.slice(3).reverse(), { status: "pending review" }, admin),
    ]);
    expect([...first, ...second].every((r) => r.ok)).toBe(true);
    expect([...first, ...second].filter((r) => r.ok && r.changed)).toHaveLength(10);
    expect((await t.db.outboxEvent.count({ where: { subjectId: { in: ids } } })) - before).toBe(14);
    for (const id of ids) {
      expect((await history(id)).map((h) => [h.fromStatus, h.toStatus])).toEqual([
        [null, "waiting for pharmacy"],
        ["waiting for pharmacy", "pending review"],
      ]);
    }

    // Different target statuses: each order ends in one of them, and its history is one unbroken chain.
    await Promise.all([
      bulkChangePharmacyOrderStatus([t.pharmacy.id], ids.slice(0, 7), { status: "in-progress" }, pharmacist),
      bulkChangePharmacyOrderStatus([t.pharmacy.id], ids.slice(3).reverse(), { status: "ready_for_pickup" }, admin),
    ]);
    for (const [i, id] of ids.entries()) {
      const entries = await history(id);
      const status = await statusOf(id);
      if (i < 3) expect(status).toBe("in-progress");
      else if (i >= 7) expect(status).toBe("ready_for_pickup");
      else expect(["in-progress", "ready_for_pickup"]).toContain(status);
      expect(entries.at(-1)!.toStatus).toBe(status);
      for (let k = 1; k < entries.length; k++) expect(entries[k].fromStatus).toBe(entries[k - 1].toStatus);
      const transitions = entries.map((h) => `${h.fromStatus}→${h.toStatus}`);
      expect(new Set(transitions).size).toBe(transitions.length);
      const resent = i >= 3 && i < 7 ? 1 : 0;
      expect(await t.db.outboxEvent.count({ where: { subjectId: id, eventType: "pharmacy_order_updated" } })).toBe(entries.length - 1 + resent);
    }
  });
});

describe("openClarificationRequest", () => {
  it("opens a thread and puts the order on hold, with history and one event (pharmacist scope)", async () => {
    const po = await newPharmacyOrder();
    await setStatus(po.id, "in-progress");
    const { result, events } = await recorded(() =>
      openClarificationRequest({ pharmacyIds: [t.pharmacy.id] }, po.id, { description: "  Which strength was prescribed?  " }, pharmacist),
    );
    expect(result).toEqual({ threadId: expect.any(String), statusChanged: true });
    expect(events).toEqual([updated(po)]);
    expect(await statusOf(po.id)).toBe("on-hold");
    const thread = await t.db.adminIssueThread.findUniqueOrThrow({ where: { id: result.threadId } });
    expect(thread).toMatchObject({
      pharmacyOrderId: po.id,
      description: "Which strength was prescribed?",
      status: "OPEN",
      openedByType: "USER",
      openedByUserId: (pharmacist as { userId: string }).userId,
    });
    expect((await history(po.id)).at(-1)).toMatchObject({
      fromStatus: "in-progress",
      toStatus: "on-hold",
      comment: "Which strength was prescribed?",
      actorType: "USER",
    });
    const management = await get(`/v1/management/orders/${po.orderId}`, { key: t.keys.management });
    expect(management.json.overall_status).toBe("on_hold");
  });

  it("lets the admin team open one on any pharmacy's order of the organisation, not another organisation's", async () => {
    const po = await newPharmacyOrder(t.groupPharmacy.id);
    const { result, events } = await recorded(() =>
      openClarificationRequest({ organisationId: t.organisation.id }, po.id, { description: "Prescription copy unreadable" }, admin),
    );
    expect(result.statusChanged).toBe(true);
    expect(events).toEqual([updated(po)]);
    const outside = await recorded(() => openClarificationRequest({ organisationId: other.organisation.id }, po.id, { description: "x" }, admin));
    expect(outside.error).toBeInstanceOf(NotFoundError);
    expect(outside.events).toEqual([]);
  });

  it("answers NotFoundError for another pharmacy's order and unknown orders, recording nothing", async () => {
    const po = await newPharmacyOrder(t.groupPharmacy.id);
    for (const [scope, id] of [
      [{ pharmacyIds: [t.pharmacy.id] }, po.id],
      [{ pharmacyIds: [] }, po.id],
      [{ pharmacyIds: [t.pharmacy.id, t.groupPharmacy.id] }, randomUUID()],
    ] as const) {
      const { error, events } = await recorded(() => openClarificationRequest(scope, id, { description: "x" }, pharmacist));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(events).toEqual([]);
    }
    expect(await t.db.adminIssueThread.count({ where: { pharmacyOrderId: po.id } })).toBe(0);
    expect(await statusOf(po.id)).toBe("waiting for pharmacy");
  });

  it("adds the thread and sends pharmacy_order_updated when the order is already on hold: no history entry", async () => {
    const po = await newPharmacyOrder();
    await openClarificationRequest({ pharmacyIds: [t.pharmacy.id] }, po.id, { description: "First question" }, pharmacist);
    const entries = (await history(po.id)).length;
    const { result, events } = await recorded(() =>
      openClarificationRequest({ organisationId: t.organisation.id }, po.id, { description: "Second question" }, admin),
    );
    expect(result.statusChanged).toBe(false);
    // The spec's row: any status | clarification request opened | on-hold | pharmacy_order_updated.
    expect(events).toEqual([updated(po)]);
    expect(await history(po.id)).toHaveLength(entries);
    expect((await t.db.adminIssueThread.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { createdAt: "asc" } })).map((th) => th.description)).toEqual([
      "First question",
      "Second question",
    ]);
  });

  it("requires a description of at most 5000 characters (trimmed)", async () => {
    const po = await newPharmacyOrder();
    for (const description of [undefined, null, "", "   ", "x".repeat(5001)]) {
      const { error, events } = await recorded(() => openClarificationRequest({ pharmacyIds: [t.pharmacy.id] }, po.id, { description }, pharmacist));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields).toEqual({ description: [expect.any(String)] });
      expect(events).toEqual([]);
    }
    expect(await t.db.adminIssueThread.count({ where: { pharmacyOrderId: po.id } })).toBe(0);
    const ok = await openClarificationRequest({ pharmacyIds: [t.pharmacy.id] }, po.id, { description: ` ${"x".repeat(5000)} ` }, pharmacist);
    expect(ok.statusChanged).toBe(true);
  });

  it("puts a cancelled order on hold too (the status table's any): a thread, a history entry, one event", async () => {
    const cancelled = await newPharmacyOrder();
    await setStatus(cancelled.id, "cancelled");
    const entries = (await history(cancelled.id)).length;
    const { error, events } = await recorded(() => openClarificationRequest({ organisationId: t.organisation.id }, cancelled.id, { description: "?" }, admin));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(1);
    expect(await history(cancelled.id)).toHaveLength(entries + 1);
    expect(await t.db.adminIssueThread.count({ where: { pharmacyOrderId: cancelled.id } })).toBe(1);
    expect(await statusOf(cancelled.id)).toBe("on-hold");
  });

  it("puts a completed order on hold, and resolving brings it back to completed without a second completion: stock, movements and payouts unchanged", async () => {
    const po = await newPharmacyOrder();
    expect((await patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    const stock = async () => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
    const movements = () => t.db.stockMovement.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { sequence: "asc" } });
    const payouts = () => t.db.payout.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { id: "asc" } });
    const completedAt = async () => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).completedAt;
    const before = { stock: await stock(), movements: await movements(), payouts: await payouts(), completedAt: await completedAt() };
    expect(before.movements).toHaveLength(1);
    expect(before.payouts.length).toBeGreaterThan(0);
    expect(before.payouts.every((p) => p.status === "ROUTED")).toBe(true);

    const opened = await recorded(() => openClarificationRequest({ pharmacyIds: [t.pharmacy.id] }, po.id, { description: "Was the right strength sent?" }, pharmacist));
    expect(opened.result.statusChanged).toBe(true);
    // The order, completed, waits for its pharmacy again.
    expect(opened.events).toEqual([updated(po), orderUpdated(po)]);
    expect(await statusOf(po.id)).toBe("on-hold");
    expect((await history(po.id)).at(-1)).toMatchObject({ fromStatus: "completed", toStatus: "on-hold", comment: "Was the right strength sent?" });
    // The admin team asks too (already on hold): the event, no history entry.
    const second = await recorded(() => openClarificationRequest({ organisationId: t.organisation.id }, po.id, { description: "And the batch number?" }, admin));
    expect(second.events).toEqual([updated(po)]);
    const threads = await t.db.adminIssueThread.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { createdAt: "asc" } });
    expect(threads).toHaveLength(2);

    const adminUser = admin as Extract<Actor, { type: "USER" }>;
    const first = await recorded(() => resolveIssueThread(t.organisation.id, threads[0].id, { releaseOrder: true }, adminUser));
    expect(first.result).toEqual({ resolved: true, releasedTo: null, keptOnHold: "other_open_threads" });
    expect(first.events).toEqual([]);
    const last = await recorded(() => resolveIssueThread(t.organisation.id, threads[1].id, { releaseOrder: true, note: "Checked" }, adminUser));
    expect(last.result).toEqual({ resolved: true, releasedTo: "completed", keptOnHold: null });
    // One pharmacy_order_updated (and the order completed again), no stock event: nothing was completed again.
    expect(last.events).toEqual([updated(po), orderUpdated(po)]);
    expect(await statusOf(po.id)).toBe("completed");
    expect((await history(po.id)).at(-1)).toMatchObject({ fromStatus: "on-hold", toStatus: "completed", actorType: "USER" });
    expect({ stock: await stock(), movements: await movements(), payouts: await payouts(), completedAt: await completedAt() }).toEqual(before);
    // complete_order on it again is the spec's idempotent re-send: still nothing reduced.
    expect((await patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    expect({ stock: await stock(), movements: (await movements()).length, payouts: (await payouts()).length }).toEqual({
      stock: before.stock,
      movements: 1,
      payouts: before.payouts.length,
    });
  });
});

describe("addShipment", () => {
  it("appends shipments numbered on, placeholders included, each with one event and a history entry", async () => {
    const po = await newPharmacyOrder();
    const { result, events } = await recorded(() =>
      addShipment([t.pharmacy.id], po.id, { trackingUrl: " https://tracking.example/dhl/1 ", trackingNumber: "00340434", carrier: "DHL" }, pharmacist),
    );
    expect(result).toEqual({ id: expect.any(String), sequenceNumber: 1 });
    expect(events).toEqual([updated(po)]);
    const placeholder = await recorded(() => addShipment([t.pharmacy.id], po.id, {}, pharmacist));
    expect(placeholder.result.sequenceNumber).toBe(2);
    expect(placeholder.events).toEqual([updated(po)]);
    const after = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } });
    expect(after.updatedAt.getTime()).toBeGreaterThan(po.updatedAt.getTime());
    expect(after.status).toBe("waiting for pharmacy");
    expect((await history(po.id)).slice(1)).toMatchObject([
      { fromStatus: null, toStatus: "shipment added", comment: "#1", actorType: "USER" },
      { fromStatus: null, toStatus: "shipment added", comment: "#2", actorType: "USER" },
    ]);
    const detail = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.shipments).toEqual([
      { uid: result.id, sequence_number: 1, tracking_url: "https://tracking.example/dhl/1", tracking_number: "00340434", carrier_name: "DHL", is_test: false, return_tracking_number: null, return_label_expiry: null },
      { uid: placeholder.result.id, sequence_number: 2, tracking_url: null, tracking_number: null, carrier_name: null, is_test: false, return_tracking_number: null, return_label_expiry: null },
    ]);
  });

  it("numbers on after complete_order's shipments (one rule), and completion records one stock event per SKU", async () => {
    const po = await newPharmacyOrder();
    const completion = await recorded(() =>
      patch(`${EPA}/${po.id}/complete_order`, {
        key: t.keys.pharmacy,
        body: { tracking_links: [{ tracking_link: "https://t.example/1", carrier: "DHL" }, { tracking_link: "https://t.example/2", carrier: "UPS" }] },
      }),
    );
    expect(completion.result.status).toBe(200);
    expect(completion.events).toHaveLength(3);
    expect(completion.events).toEqual(
      expect.arrayContaining([
        { type: "pharmacy_sku_stock_updated", subjectId: t.pharmacySku.id, pharmacyId: t.pharmacySku.pharmacyId, organisationId: t.organisation.id },
        updated(po),
        orderUpdated(po),
      ]),
    );
    // A completed order may get a further parcel.
    const { result, events } = await recorded(() => addShipment([t.pharmacy.id], po.id, { trackingUrl: "http://t.example/3", carrier: "Hermes" }, pharmacist));
    expect(result.sequenceNumber).toBe(3);
    expect(events).toEqual([updated(po)]);
    expect((await t.db.shipment.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { sequenceNumber: "asc" } })).map((s) => [s.sequenceNumber, s.carrierName])).toEqual([
      [1, "DHL"],
      [2, "UPS"],
      [3, "Hermes"],
    ]);
  });

  it("refuses invalid fields, cancelled orders and orders out of scope, recording nothing", async () => {
    const po = await newPharmacyOrder();
    const invalid = await recorded(() =>
      addShipment([t.pharmacy.id], po.id, { trackingUrl: "ftp://t.example/1", trackingNumber: "9".repeat(101), carrier: "Pigeon" }, pharmacist),
    );
    expect(invalid.error).toBeInstanceOf(ValidationError);
    expect(Object.keys((invalid.error as ValidationError).fields).sort()).toEqual(["carrier", "tracking_number", "tracking_url"]);
    const notUrl = await recorded(() => addShipment([t.pharmacy.id], po.id, { trackingUrl: "not a url" }, pharmacist));
    expect((notUrl.error as ValidationError).fields).toEqual({ tracking_url: ["Enter a valid http(s) URL."] });
    const foreign = await recorded(() => addShipment([t.groupPharmacy.id, t.loosePharmacy.id], po.id, {}, pharmacist));
    expect(foreign.error).toBeInstanceOf(NotFoundError);
    await setStatus(po.id, "cancelled");
    const cancelled = await recorded(() => addShipment([t.pharmacy.id], po.id, {}, pharmacist));
    expect(cancelled.error).toBeInstanceOf(BadRequestError);
    expect([...invalid.events, ...notUrl.events, ...foreign.events, ...cancelled.events]).toEqual([]);
    expect(await t.db.shipment.count({ where: { pharmacyOrderId: po.id } })).toBe(0);
  });

  it("numbers 10 concurrent additions 1..10, without collisions", async () => {
    const po = await newPharmacyOrder();
    const { result, events } = await recorded(() =>
      Promise.all(Array.from({ length: 10 }, (_, i) => addShipment([t.pharmacy.id], po.id, { trackingNumber: `P-${i}` }, pharmacist))),
    );
    expect(result.map((s) => s.sequenceNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(events).toHaveLength(10);
    expect(events.every((e) => e.subjectId === po.id && e.type === "pharmacy_order_updated")).toBe(true);
    const stored = await t.db.shipment.findMany({ where: { pharmacyOrderId: po.id } });
    expect(new Set(stored.map((s) => s.sequenceNumber)).size).toBe(10);
    expect(new Set(stored.map((s) => s.trackingNumber)).size).toBe(10);
  });
});

describe("changePharmacyOrderPriority", () => {
  it("changes the order's priority and records an event for each live pharmacy order of the order", async () => {
    const [atA, atB, done] = await newOrder([t.pharmacy.id, t.groupPharmacy.id, t.pharmacy.id], { priority: 2 });
    expect((await patch(`${EPA}/${done.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    const { result, events } = await recorded(() => changePharmacyOrderPriority({ pharmacyIds: [t.pharmacy.id] }, atA.id, 9, pharmacist));
    expect(result).toBe(true);
    expect(events).toHaveLength(2);
    expect(events).toEqual(expect.arrayContaining([updated(atA), updated(atB)]));
    expect((await t.db.order.findUniqueOrThrow({ where: { id: atA.orderId } })).priority).toBe(9);
    for (const po of [atA, atB]) {
      expect((await history(po.id)).at(-1)).toMatchObject({ fromStatus: null, toStatus: "order updated", comment: "priority 2 → 9", actorType: "USER" });
    }
    expect((await history(done.id)).at(-1)).toMatchObject({ toStatus: "completed" });
    const seenAtB = await get(`${EPA}/${atB.id}`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id } });
    expect(seenAtB.json.order.priority).toBe(9);

    // The same priority again: nothing recorded.
    const again = await recorded(() => changePharmacyOrderPriority({ organisationId: t.organisation.id }, atB.id, 9, admin));
    expect(again.result).toBe(false);
    expect(again.events).toEqual([]);
    expect(await history(atB.id)).toHaveLength(2);
  });

  it("refuses bad values, orders out of scope and orders that left the queue, recording nothing", async () => {
    const [po] = await newOrder();
    for (const priority of [1.5, 1001, -1001, Number.NaN]) {
      const { error, events } = await recorded(() => changePharmacyOrderPriority({ pharmacyIds: [t.pharmacy.id] }, po.id, priority, pharmacist));
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).fields)).toEqual(["priority"]);
      expect(events).toEqual([]);
    }
    for (const scope of [{ pharmacyIds: [t.groupPharmacy.id] }, { organisationId: other.organisation.id }]) {
      const { error, events } = await recorded(() => changePharmacyOrderPriority(scope, po.id, 5, pharmacist));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(events).toEqual([]);
    }
    await setStatus(po.id, "cancelled");
    const cancelled = await recorded(() => changePharmacyOrderPriority({ organisationId: t.organisation.id }, po.id, 5, admin));
    expect(cancelled.error).toBeInstanceOf(BadRequestError);
    expect(cancelled.events).toEqual([]);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: po.orderId } })).priority).toBe(0);
    // The extremes of the range are accepted.
    const [live] = await newOrder();
    expect(await changePharmacyOrderPriority({ organisationId: t.organisation.id }, live.id, -1000, admin)).toBe(true);
    expect(await changePharmacyOrderPriority({ organisationId: t.organisation.id }, live.id, 1000, admin)).toBe(true);
  });
});

describe("changePharmacyOrderDeliveryType", () => {
  it("changes one pharmacy order's delivery type with one event and a history entry; the same type again records nothing", async () => {
    const [po, sibling] = await newOrder([t.pharmacy.id, t.pharmacy.id]);
    expect(po.deliveryType).toBe("shipping");
    const { result, events } = await recorded(() => changePharmacyOrderDeliveryType({ pharmacyIds: [t.pharmacy.id] }, po.id, "pickup", pharmacist));
    expect(result).toBe(true);
    expect(events).toEqual([updated(po)]);
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).deliveryType).toBe("pickup");
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: sibling.id } })).deliveryType).toBe("shipping");
    expect((await history(po.id)).at(-1)).toMatchObject({ fromStatus: null, toStatus: "delivery type changed", comment: "shipping → pickup", actorType: "USER" });
    const again = await recorded(() => changePharmacyOrderDeliveryType({ organisationId: t.organisation.id }, po.id, "pickup", admin));
    expect(again).toMatchObject({ result: false, events: [] });
    expect(await history(po.id)).toHaveLength(2);
  });

  it("refuses unknown types, orders out of scope, cancelled and completed orders, recording nothing", async () => {
    const po = await newPharmacyOrder();
    const unknown = await recorded(() => changePharmacyOrderDeliveryType({ pharmacyIds: [t.pharmacy.id] }, po.id, "express" as any, pharmacist));
    expect((unknown.error as ValidationError).fields).toEqual({ delivery_type: ["Must be one of: shipping, pickup."] });
    const foreign = await recorded(() => changePharmacyOrderDeliveryType({ pharmacyIds: [t.loosePharmacy.id] }, po.id, "pickup", pharmacist));
    expect(foreign.error).toBeInstanceOf(NotFoundError);
    const otherOrg = await recorded(() => changePharmacyOrderDeliveryType({ organisationId: other.organisation.id }, po.id, "pickup", admin));
    expect(otherOrg.error).toBeInstanceOf(NotFoundError);
    const completed = await newPharmacyOrder();
    await patch(`${EPA}/${completed.id}/complete_order`, { key: t.keys.pharmacy });
    await setStatus(po.id, "cancelled");
    for (const id of [po.id, completed.id]) {
      const { error, events } = await recorded(() => changePharmacyOrderDeliveryType({ pharmacyIds: [t.pharmacy.id] }, id, "pickup", pharmacist));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(events).toEqual([]);
    }
    expect([...unknown.events, ...foreign.events, ...otherOrg.events]).toEqual([]);
  });
});
