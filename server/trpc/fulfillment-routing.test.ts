/**
 * Re-routing and routing by hand (issue 24, docs/decisions/intake.md#re-routing): a pharmacy's own
 * cancellation of an automatically routed, never completed pharmacy order sends the fulfillment to
 * the next pharmacy (External Pharmacy API, pharmacy portal single and bulk changes, the automatic
 * status check), never back to a pharmacy that cancelled it, with the events of a new pharmacy
 * order; every other cancellation does not; a fulfillment no pharmacy can take shows on the admin
 * home, and an admin routes it by hand (the chooser, the command, its refusals, concurrent clicks,
 * other organisations). Driven through the REST doors and the portals' tRPC procedures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { isUniqueViolation } from "@/server/db/errors";
import { REROUTED_COMMENT } from "@/server/domain/pharmacy-orders/reroute";
import { UNKNOWN, type PharmacySystemConnector } from "@/server/domain/pharmacy-system/connector";
import { checkPharmacyOrderStatuses } from "@/server/domain/pharmacy-system/status-check";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser, createSubscription } from "@/tests/webhook-logs";
import { createCaller } from "./router";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let pharmacistA: PortalSessionUser;
const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  // Pharmacy A (450 a piece) is routing's first choice; B (470, stock 3) the next; C carries nothing.
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  pharmacistA = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
});

/** An order of one OTC fulfillment "f-1"; routed automatically unless the overrides name a pharmacy. */
async function newOrder(overrides: Record<string, unknown> = {}) {
  const body = orderBody(t, [item(refs.otcReference)], overrides);
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  const fulfillment = await t.db.fulfillment.findFirstOrThrow({ where: { orderId: r.json.uid }, include: { pharmacyOrder: true } });
  return { orderId: r.json.uid as string, externalId: body.external_id, fulfillmentId: fulfillment.id, first: fulfillment.pharmacyOrder };
}

const cancelOverApi = (pharmacyOrderId: string, key = t.keys.pharmacy, query?: Record<string, string>) =>
  patch(`${EPA}/${pharmacyOrderId}/status`, { key, body: { status: "cancelled" }, query });
const pharmacyOrdersOf = (fulfillmentId: string) => t.db.pharmacyOrder.findMany({ where: { fulfillmentId }, orderBy: { createdAt: "asc" } });
const activeOf = (fulfillmentId: string) => t.db.pharmacyOrder.findUnique({ where: { activeFulfillmentId: fulfillmentId } });
const orderStatus = async (orderId: string) => (await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status;
const withoutPharmacy = async () => (await as(admin).admin.orders.list({ withoutPharmacy: true, limit: 100 })).items.map((o) => o.uid);

describe("re-routing after a pharmacy's own cancellation", () => {
  it("sends an automatically routed order the pharmacy cancels to the next pharmacy, with a new pharmacy order's events and webhook", async () => {
    const { orderId, fulfillmentId, first } = await newOrder();
    expect(first).toMatchObject({ pharmacyId: t.pharmacy.id, routing: "AUTOMATIC" });
    while ((await dispatchOutboxEvents()).events > 0);
    const subscription = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.groupPharmacy.id, notificationType: "pharmacy_order_created" });
    try {
      const r = await cancelOverApi(first!.id);
      expect(r.status, r.text).toBe(200);
      expect(r.json.status).toBe("cancelled");

      const [cancelled, next] = await pharmacyOrdersOf(fulfillmentId);
      expect(cancelled).toMatchObject({ id: first!.id, status: "cancelled", activeFulfillmentId: null });
      expect(next).toMatchObject({ pharmacyId: t.groupPharmacy.id, status: "waiting for pharmacy", routing: "AUTOMATIC", activeFulfillmentId: fulfillmentId });
      // Stock is not reserved at routing; the new pharmacy's own SKU is on the line for its completion.
      const items = await t.db.pharmacyOrderItem.findMany({ where: { pharmacyOrderId: next.id } });
      expect(items).toMatchObject([{ pharmacySkuId: t.groupPharmacySku.id, amount: 1 }]);
      const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: next.id } });
      expect(history).toMatchObject([{ fromStatus: null, toStatus: "waiting for pharmacy", actorType: "SYSTEM", comment: REROUTED_COMMENT }]);

      // The events: the cancellation to A, the new pharmacy order to B; its webhook goes to B's subscription.
      const events = await t.db.outboxEvent.findMany({ where: { subjectId: { in: [first!.id, next.id] } } });
      expect(events.map((e) => [e.eventType, e.subjectId === next.id ? "next" : "first", e.pharmacyId]).sort()).toEqual([
        ["pharmacy_order_created", "first", t.pharmacy.id],
        ["pharmacy_order_created", "next", t.groupPharmacy.id],
        ["pharmacy_order_updated", "first", t.pharmacy.id],
      ]);
      while ((await dispatchOutboxEvents()).events > 0);
      const deliveries = await t.db.webhookDelivery.findMany({ where: { subscriptionId: subscription.id } });
      const created = events.find((e) => e.subjectId === next.id)!;
      expect(deliveries.map((d) => [d.eventType, d.outboxEventId])).toEqual([["pharmacy_order_created", created.id]]);
    } finally {
      await t.db.webhookSubscription.update({ where: { id: subscription.id }, data: { deletedAt: new Date() } });
    }

    expect(await orderStatus(orderId)).toBe("waiting for pharmacy");
    expect(await withoutPharmacy()).not.toContain(orderId);
    // The Management API shows the fulfillment once, with the active pharmacy order's state.
    const managed = await get(`/v1/management/orders/${orderId}`, { key: t.keys.management });
    expect(managed.status, managed.text).toBe(200);
    expect(managed.json).toMatchObject({ status: "waiting for pharmacy", overall_status: "pending" });
    expect(managed.json.fulfillment_orders).toHaveLength(1);
    const listed = await get("/v1/management/orders", { key: t.keys.management, query: { limit: 200 } });
    expect(listed.json.orders.filter((o: { uid: string }) => o.uid === orderId)).toHaveLength(1);
    // Pharmacy A keeps its cancelled order as history; the group key sees B's new one.
    expect((await get(`${EPA}/${first!.id}`, { key: t.keys.pharmacy })).json.status).toBe("cancelled");
    const atB = await get(`${EPA}/`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id, search: orderId } });
    expect(atB.json.data.map((po: { uid: string }) => po.uid)).toEqual([(await activeOf(fulfillmentId))!.id]);
    // The admin sees both.
    const detail = await as(admin).admin.orders.get({ uid: orderId });
    expect(detail.fulfillments[0]).toMatchObject({
      routable: false,
      pharmacyOrder: { pharmacy: { uid: t.groupPharmacy.id }, routing: "AUTOMATIC" },
      earlierPharmacyOrders: [{ uid: first!.id, status: "cancelled", pharmacy: { uid: t.pharmacy.id } }],
    });
  });

  it("re-routes the pharmacy portal's single and bulk cancellations too", async () => {
    const single = await newOrder();
    await as(pharmacistA).pharmacy.orders.changeStatus({ uid: single.first!.id, status: "cancelled", expectedStatus: "waiting for pharmacy" });
    expect(await activeOf(single.fulfillmentId)).toMatchObject({ pharmacyId: t.groupPharmacy.id, routing: "AUTOMATIC" });

    const bulk = await newOrder();
    const results = await as(pharmacistA).pharmacy.orders.bulkChangeStatus({ uids: [bulk.first!.id], status: "cancelled" });
    expect(results).toMatchObject([{ ok: true }]);
    expect(await activeOf(bulk.fulfillmentId)).toMatchObject({ pharmacyId: t.groupPharmacy.id, routing: "AUTOMATIC" });
  });

  it("re-routes an order the pharmacy's own system reports cancelled (automatic status check)", async () => {
    const { fulfillmentId, first } = await newOrder();
    const connector: PharmacySystemConnector = {
      type: "test",
      fetchStatus: async (order) => (order.uid === first!.id ? { status: "cancelled" } : UNKNOWN),
    };
    await t.db.pharmacy.update({ where: { id: t.pharmacy.id }, data: { systemConnector: { type: "test" } } });
    try {
      const run = await checkPharmacyOrderStatuses({ connectorFor: (p) => (p.id === t.pharmacy.id ? connector : null) });
      expect(run.cancelled).toBe(1);
    } finally {
      await t.db.$executeRaw`UPDATE "Pharmacy" SET "systemConnector" = NULL WHERE "id" = ${t.pharmacy.id}`;
    }
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: first!.id } })).status).toBe("cancelled");
    expect(await activeOf(fulfillmentId)).toMatchObject({ pharmacyId: t.groupPharmacy.id, routing: "AUTOMATIC" });
  });

  it("never sends it back to a pharmacy that cancelled it: with none left it is without a pharmacy on the admin home", async () => {
    const { orderId, fulfillmentId, first } = await newOrder();
    const homeBefore = (await as(admin).admin.home.summary()).withoutPharmacy;
    expect((await cancelOverApi(first!.id)).status).toBe(200);
    const atB = (await activeOf(fulfillmentId))!;
    expect(atB.pharmacyId).toBe(t.groupPharmacy.id);
    // B cancels too. A still has the stock, C carries nothing: no pharmacy may take it now.
    expect((await cancelOverApi(atB.id, t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id })).status).toBe(200);
    const all = await pharmacyOrdersOf(fulfillmentId);
    expect(all.map((po) => [po.pharmacyId, po.status, po.activeFulfillmentId])).toEqual([
      [t.pharmacy.id, "cancelled", null],
      [t.groupPharmacy.id, "cancelled", null],
    ]);
    expect(await activeOf(fulfillmentId)).toBeNull();
    expect(await orderStatus(orderId)).toBe("pharmacy not found");
    expect(await withoutPharmacy()).toContain(orderId);
    expect((await as(admin).admin.home.summary()).withoutPharmacy).toBe(homeBefore + 1);
    const detail = await as(admin).admin.orders.get({ uid: orderId });
    expect(detail.fulfillments[0]).toMatchObject({ routable: true, pharmacyOrder: null });
    expect(detail.fulfillments[0].earlierPharmacyOrders.map((po) => po.uid)).toEqual(all.map((po) => po.id));
    // The Management API: one fulfillment, open, waiting for a pharmacy.
    const managed = await get(`/v1/management/orders/${orderId}`, { key: t.keys.management });
    expect(managed.json).toMatchObject({ status: "pharmacy not found", overall_status: "pending" });
    expect(managed.json.fulfillment_orders).toMatchObject([{ status: "OPEN" }]);
  });

  it("re-routes a double cancel once", async () => {
    const { fulfillmentId, first } = await newOrder();
    const answers = await Promise.all([cancelOverApi(first!.id), cancelOverApi(first!.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(2);
  });
});

describe("no automatic re-routing", () => {
  it("leaves an integrator's pharmacy (destination_pharmacy_uid, pharmacy_uid) to a person: the fulfillment is without a pharmacy", async () => {
    const byDestination = await newOrder({ fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] });
    const byOrderPharmacy = await newOrder({ pharmacy_uid: t.pharmacy.id });
    for (const { orderId, fulfillmentId, first } of [byDestination, byOrderPharmacy]) {
      expect(first).toMatchObject({ pharmacyId: t.pharmacy.id, routing: "INTEGRATOR" });
      expect((await cancelOverApi(first!.id)).status).toBe(200);
      expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(1);
      expect(await activeOf(fulfillmentId)).toBeNull();
      expect(await orderStatus(orderId)).toBe("pharmacy not found");
      expect(await withoutPharmacy()).toContain(orderId);
    }
  });

  it("leaves a pharmacy order that was completed once: its goods left the pharmacy", async () => {
    const { orderId, fulfillmentId, first } = await newOrder();
    expect((await patch(`${EPA}/${first!.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    expect((await cancelOverApi(first!.id)).status).toBe(200);
    expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(1);
    expect(await activeOf(fulfillmentId)).toMatchObject({ id: first!.id, status: "cancelled" });
    expect(await orderStatus(orderId)).toBe("cancelled");
    // A person may still send it elsewhere: its active pharmacy order is cancelled.
    expect((await as(admin).admin.orders.get({ uid: orderId })).fulfillments[0].routable).toBe(true);
  });

  it("does not re-route the integrator's or an admin's cancellation of the fulfillment", async () => {
    const viaApi = await newOrder();
    const r = await post(`/v1/management/orders/${viaApi.externalId}/fulfillments/f-1/cancel`, { key: t.keys.management });
    expect(r.status, r.text).toBe(200);
    const viaAdmin = await newOrder();
    await as(admin).admin.orders.cancelFulfillment({ orderUid: viaAdmin.orderId, fulfillmentUid: viaAdmin.fulfillmentId });
    for (const { orderId, fulfillmentId, first } of [viaApi, viaAdmin]) {
      expect(await pharmacyOrdersOf(fulfillmentId)).toMatchObject([{ id: first!.id, status: "cancelled", activeFulfillmentId: fulfillmentId }]);
      expect(await orderStatus(orderId)).toBe("cancelled");
      expect(await withoutPharmacy()).not.toContain(orderId);
    }
  });

  it("does not re-route a pharmacy order an admin routed by hand", async () => {
    const { fulfillmentId, first } = await newOrder({ fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] });
    await cancelOverApi(first!.id);
    const { orderId } = await t.db.fulfillment.findUniqueOrThrow({ where: { id: fulfillmentId } });
    await as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.groupPharmacy.id });
    const byHand = (await activeOf(fulfillmentId))!;
    expect(byHand.routing).toBe("ADMIN");
    expect((await cancelOverApi(byHand.id, t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id })).status).toBe(200);
    expect(await activeOf(fulfillmentId)).toBeNull();
    expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(2);
  });
});

describe("routing by hand", () => {
  /** A fulfillment both A and B cancelled: without a pharmacy. */
  async function stranded() {
    const order = await newOrder();
    await cancelOverApi(order.first!.id);
    await cancelOverApi((await activeOf(order.fulfillmentId))!.id, t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id });
    expect(await activeOf(order.fulfillmentId)).toBeNull();
    return order;
  }

  it("offers every pharmacy of the organisation with what it carries and whether it cancelled before", async () => {
    const { orderId, fulfillmentId } = await stranded();
    const choices = await as(admin).admin.orders.pharmacyChoices({ orderUid: orderId, fulfillmentUid: fulfillmentId });
    expect(choices).toEqual(
      expect.arrayContaining([
        { pharmacyUid: t.pharmacy.id, displayName: "Apotheke A", carriesAll: true, hasStock: true, cancelledBefore: true, suggested: false },
        { pharmacyUid: t.groupPharmacy.id, displayName: "Apotheke B", carriesAll: true, hasStock: true, cancelledBefore: true, suggested: false },
        { pharmacyUid: t.loosePharmacy.id, displayName: "Apotheke C", carriesAll: false, hasStock: false, cancelledBefore: false, suggested: false },
      ]),
    );
    expect(choices).toHaveLength(3);
    // Before anyone cancelled, routing's own choice comes first.
    const fresh = await newOrder();
    const freshChoices = await as(admin).admin.orders.pharmacyChoices({ orderUid: fresh.orderId, fulfillmentUid: fresh.fulfillmentId });
    expect(freshChoices.map((c) => [c.pharmacyUid, c.suggested])).toEqual([
      [t.pharmacy.id, true],
      [t.groupPharmacy.id, false],
      [t.loosePharmacy.id, false],
    ]);
  });

  it("routes to the chosen pharmacy, even one that cancelled before, with the events of a new pharmacy order and an audit event", async () => {
    const { orderId, fulfillmentId } = await stranded();
    const routed = await as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.pharmacy.id });
    const po = (await activeOf(fulfillmentId))!;
    expect(po).toMatchObject({ id: routed.pharmacyOrderUid, pharmacyId: t.pharmacy.id, routing: "ADMIN", status: "waiting for pharmacy" });
    expect(await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: po.id } })).toMatchObject([{ actorType: "USER", actorUserId: admin.id }]);
    expect(await t.db.outboxEvent.findMany({ where: { subjectId: po.id } })).toMatchObject([{ eventType: "pharmacy_order_created", pharmacyId: t.pharmacy.id }]);
    expect(await orderStatus(orderId)).toBe("waiting for pharmacy");
    expect(await withoutPharmacy()).not.toContain(orderId);
    const audit = await t.db.auditEvent.findMany({ where: { entityId: fulfillmentId, action: "routed" } });
    expect(audit).toMatchObject([{ entityType: "fulfillment", actorUserId: admin.id, details: { pharmacyId: t.pharmacy.id, pharmacyOrderId: po.id } }]);
    // Now at a pharmacy: a second routing is refused and changes nothing.
    expect(await trpcCode(as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.loosePharmacy.id }))).toBe("CONFLICT");
    expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(3);
  });

  it("sends a fulfillment whose active pharmacy order is cancelled elsewhere, keeping that one as history", async () => {
    const { orderId, fulfillmentId, first } = await newOrder();
    await patch(`${EPA}/${first!.id}/complete_order`, { key: t.keys.pharmacy });
    await cancelOverApi(first!.id);
    await as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.groupPharmacy.id });
    expect((await pharmacyOrdersOf(fulfillmentId)).map((po) => [po.id === first!.id, po.activeFulfillmentId])).toEqual([
      [true, null],
      [false, fulfillmentId],
    ]);
    expect(await orderStatus(orderId)).toBe("waiting for pharmacy");
  });

  it("opens one pharmacy order when two admins route at once", async () => {
    const { orderId, fulfillmentId } = await stranded();
    const results = await Promise.allSettled([
      as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.pharmacy.id }),
      as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.loosePharmacy.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason.code).toBe("CONFLICT");
    expect((await pharmacyOrdersOf(fulfillmentId)).filter((po) => po.status !== "cancelled")).toHaveLength(1);
    expect(await t.db.auditEvent.count({ where: { entityId: fulfillmentId, action: "routed" } })).toBe(1);
  });

  it("refuses a fulfillment at a pharmacy, on hold, cancelled or waiting for a doctor", async () => {
    const atPharmacy = await newOrder();
    const held = await newOrder({ on_hold: true });
    const cancelled = await newOrder();
    await as(admin).admin.orders.cancelFulfillment({ orderUid: cancelled.orderId, fulfillmentUid: cancelled.fulfillmentId });
    const waiting = await placeWaitingOrder(t, refs, { customerId: `route-${atPharmacy.orderId}` });
    const waitingFulfillment = await t.db.fulfillment.findFirstOrThrow({ where: { orderId: waiting.orderId } });
    for (const { orderId, fulfillmentId } of [atPharmacy, held, cancelled, { orderId: waiting.orderId, fulfillmentId: waitingFulfillment.id }]) {
      const before = (await pharmacyOrdersOf(fulfillmentId)).length;
      expect((await as(admin).admin.orders.get({ uid: orderId })).fulfillments[0].routable).toBe(false);
      expect(await trpcCode(as(admin).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.loosePharmacy.id }))).toBe("CONFLICT");
      expect(await pharmacyOrdersOf(fulfillmentId)).toHaveLength(before);
    }
  });

  it("answers NOT_FOUND for another organisation's order and pharmacy, and a fulfillment of another order; pharmacists may not", async () => {
    const { orderId, fulfillmentId } = await stranded();
    const another = await newOrder();
    const route = (user: PortalSessionUser, input: { orderUid: string; fulfillmentUid: string; pharmacyUid: string }) => as(user).admin.orders.routeFulfillment(input);
    expect(await trpcCode(route(otherAdmin, { orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.orders.pharmacyChoices({ orderUid: orderId, fulfillmentUid: fulfillmentId }))).toBe("NOT_FOUND");
    expect(await trpcCode(route(admin, { orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(route(admin, { orderUid: another.orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.orders.pharmacyChoices({ orderUid: another.orderId, fulfillmentUid: fulfillmentId }))).toBe("NOT_FOUND");
    expect(await trpcCode(route(pharmacistA, { orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.pharmacy.id }))).toBe("FORBIDDEN");
    expect(await activeOf(fulfillmentId)).toBeNull();
    expect(await t.db.pharmacyOrder.count({ where: { pharmacyId: other.pharmacy.id } })).toBe(0);
  });
});

describe("the database keeps one active pharmacy order per fulfillment", () => {
  it("refuses a second active pharmacy order, and an active one of another fulfillment", async () => {
    const a = await newOrder();
    const b = await newOrder();
    const second = await t.db.$executeRaw`UPDATE "PharmacyOrder" SET "fulfillmentId" = ${a.fulfillmentId}, "activeFulfillmentId" = ${a.fulfillmentId} WHERE "id" = ${b.first!.id}`.catch((e: unknown) => e);
    expect(isUniqueViolation(second)).toBe(true);
    const foreign = await t.db.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = NULL WHERE "id" = ${a.first!.id}`.then(
      () => t.db.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = ${a.fulfillmentId} WHERE "id" = ${b.first!.id}`,
    ).catch((e: unknown) => e);
    // A check violation (SQLSTATE 23514): PGlite's adapter passes it on unmapped, PostgreSQL's with the constraint named.
    const cause = (foreign as { meta?: { driverAdapterError?: { cause?: { code?: string; originalCode?: string; constraint?: unknown } } } }).meta?.driverAdapterError?.cause;
    expect(JSON.stringify(cause ?? String(foreign))).toMatch(/23514|PharmacyOrder_active_of_own_fulfillment/);
    await t.db.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = ${a.fulfillmentId} WHERE "id" = ${a.first!.id}`;
  });
});
