/**
 * The admin tool's order procedures, called as the pages call them (createCaller with a portal
 * user) on a real database: authorisation, the list's search and filters, the detail, the PDF,
 * cancelling a fulfillment and releasing an order created on hold (routing, doctor, no pharmacy,
 * a double click), and the audit events of every order change.
 */
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { ZodError } from "zod";
import { toFieldErrors } from "@/server/wire/field-errors";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch, post } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, storeRenderedPdf } from "@/tests/prescription-orders";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
let otherAdmin: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  const organisationId = t.organisation.id;
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId, displayName: "Dr. Test" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId, doctorId: doctorRow.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
});

/** An order with one OTC fulfillment at pharmacy A (or on hold: nothing routed). */
async function newOrder(overrides: Record<string, unknown> = {}) {
  const body = orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])], ...overrides });
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  return { orderId: r.json.uid as string, externalId: body.external_id as string, fulfillmentId: (await fulfillmentOf(r.json.uid)).id };
}
const fulfillmentOf = (orderId: string) => t.db.fulfillment.findFirstOrThrow({ where: { orderId }, include: { pharmacyOrder: true } });
// The events of the commands under test: intake's own "created" event (server/domain/orders/create-order.ts) is left out.
const auditOf = (entityId: string) =>
  t.db.auditEvent.findMany({ where: { entityId, NOT: { entityType: "order", action: "created" } }, orderBy: { createdAt: "asc" } });

describe("authorisation", () => {
  it("refuses signed-out callers, pharmacists and doctors on every procedure", async () => {
    const { orderId, fulfillmentId } = await newOrder({ on_hold: true });
    const calls = (user: PortalSessionUser | null) => [
      () => as(user).admin.orders.list({}),
      () => as(user).admin.orders.get({ uid: orderId }),
      () => as(user).admin.orders.prescriptionFile({ orderUid: orderId, prescriptionUid: orderId }),
      () => as(user).admin.orders.cancelFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId }),
      () => as(user).admin.orders.releaseHold({ uid: orderId }),
      () => as(user).admin.orders.pharmacyChoices({ orderUid: orderId, fulfillmentUid: fulfillmentId }),
      () => as(user).admin.orders.routeFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId, pharmacyUid: t.pharmacy.id }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(pharmacist)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(doctor)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.onHold).toBe(true);
    expect((await fulfillmentOf(orderId)).status).toBe("OPEN");
  });

  it("answers NOT_FOUND for another organisation's order, and writes nothing", async () => {
    const { orderId, fulfillmentId } = await newOrder({ on_hold: true });
    const otherEvents = () => t.db.auditEvent.count({ where: { organisationId: other.organisation.id } });
    const otherEventsBefore = await otherEvents();
    expect(await trpcCode(as(otherAdmin).admin.orders.get({ uid: orderId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.orders.prescriptionFile({ orderUid: orderId, prescriptionUid: orderId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.orders.cancelFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.orders.releaseHold({ uid: orderId }))).toBe("NOT_FOUND");
    expect((await as(otherAdmin).admin.orders.list({ search: orderId })).total).toBe(0);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).onHold).toBe(true);
    expect((await fulfillmentOf(orderId)).status).toBe("OPEN");
    expect(await otherEvents()).toBe(otherEventsBefore);
    expect(await auditOf(orderId)).toEqual([]);
  });

  it("refuses bad input with BAD_REQUEST and the fields named", async () => {
    const error = await as(admin)
      .admin.orders.list({ status: "shipped" as never, limit: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect(toFieldErrors(((error as TRPCError).cause as ZodError).issues)).toMatchObject({ status: expect.any(Array), limit: expect.any(Array) });
    expect(await trpcCode(as(admin).admin.orders.get({ uid: "" }))).toBe("BAD_REQUEST");
  });
});

describe("list", () => {
  it("searches the order name, the external id and the customer's e-mail, only in the admin's organisation", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await newOrder({ name: `#ADM-${tag}`, customer: { id: `c-${tag}`, email: `erika.${tag}@example.com` } });
    const b = await newOrder({ external_id: `ext-${tag}` });
    const ids = async (search: string) => (await as(admin).admin.orders.list({ search })).items.map((o) => o.uid);
    expect(await ids(`ADM-${tag}`)).toEqual([a.orderId]);
    expect(await ids(`ext-${tag}`)).toEqual([b.orderId]);
    expect(await ids(`ERIKA.${tag}@`)).toEqual([a.orderId]);
    expect(await ids(`nothing-${tag}`)).toEqual([]);
    const row = (await as(admin).admin.orders.list({ search: `ADM-${tag}` })).items[0];
    expect(row).toMatchObject({ name: `#ADM-${tag}`, customerEmail: `erika.${tag}@example.com`, onHold: false, status: "waiting for pharmacy" });
  });

  it("filters by status, on hold and without a pharmacy, and pages", async () => {
    const held = await newOrder({ on_hold: true });
    const waiting = await placeWaitingOrder(t, refs, { customerId: `w-${held.orderId}` });
    const onHold = (await as(admin).admin.orders.list({ onHold: true, limit: 100 })).items.map((o) => o.uid);
    expect(onHold).toContain(held.orderId);
    expect(onHold).not.toContain(waiting.orderId);
    const forDoctor = await as(admin).admin.orders.list({ status: "waiting for doctor", limit: 100 });
    expect(forDoctor.items.map((o) => o.uid)).toContain(waiting.orderId);
    expect(forDoctor.items.every((o) => o.status === "waiting for doctor")).toBe(true);
    const page = await as(admin).admin.orders.list({ limit: 1, page: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.totalPages).toBe(page.total);
  });

  it("shows what the pharmacy is doing and when the order last changed, its pharmacy order's changes included (issue 22)", async () => {
    const { orderId, externalId } = await newOrder();
    const po = (await fulfillmentOf(orderId)).pharmacyOrder!;
    // Order and pharmacy order last changed an hour ago.
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await t.db.$executeRaw`UPDATE "Order" SET "updatedAt" = ${hourAgo} WHERE "id" = ${orderId}`;
    await t.db.$executeRaw`UPDATE "PharmacyOrder" SET "updatedAt" = ${hourAgo} WHERE "id" = ${po.id}`;
    const row = async () => (await as(admin).admin.orders.list({ search: externalId })).items[0];
    expect(await row()).toMatchObject({ status: "waiting for pharmacy", pharmacyOrderStatuses: ["waiting for pharmacy"], lastChangeAt: unix(hourAgo) });

    // The pharmacy puts it on hold: the order's own status and updatedAt stay, the list says what happened and when.
    const changed = await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "on-hold", comment: "Call the patient" } });
    expect(changed.status, changed.text).toBe(200);
    const poNow = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } });
    expect(await row()).toMatchObject({ status: "waiting for pharmacy", pharmacyOrderStatuses: ["on-hold"], lastChangeAt: unix(poNow.updatedAt) });
    expect(unix(poNow.updatedAt)).toBeGreaterThan(unix(hourAgo));
    const detail = await as(admin).admin.orders.get({ uid: orderId });
    expect(detail).toMatchObject({ updatedAt: unix(hourAgo), lastChangeAt: unix(poNow.updatedAt) });
  });
});

describe("detail", () => {
  it("shows the customer, addresses, items, fulfillments with the pharmacy order's history, and prescriptions with the PDF", async () => {
    const { orderId } = await newOrder();
    const detail = await as(admin).admin.orders.get({ uid: orderId });
    expect(detail.deliveryAddress).toMatchObject({ firstName: "Erika", city: "Berlin" });
    expect(detail.customerEmail).toBe("erika@example.com");
    expect(detail.fulfillments).toHaveLength(1);
    const po = detail.fulfillments[0].pharmacyOrder!;
    expect(po).toMatchObject({ status: "waiting for pharmacy", pharmacy: { uid: t.pharmacy.id } });
    expect(po.history[0]).toMatchObject({ fromStatus: null, toStatus: "waiting for pharmacy", isStatusChange: true });
    expect(detail.fulfillments[0].items[0]).toMatchObject({ quantity: 1, sku: { displayName: "Aspirin 500 mg" } });

    const waiting = await placeWaitingOrder(t, refs, { customerId: `pdf-${orderId}` });
    const rx = (await as(admin).admin.orders.get({ uid: waiting.orderId })).prescriptions[0];
    expect(rx).toMatchObject({ uid: waiting.prescriptionId, status: "waiting for doctor", hasFile: false });
    expect(await as(admin).admin.orders.prescriptionFile({ orderUid: waiting.orderId, prescriptionUid: waiting.prescriptionId })).toBeNull();
    const content = await storeRenderedPdf(t, waiting.prescriptionId);
    const file = await as(admin).admin.orders.prescriptionFile({ orderUid: waiting.orderId, prescriptionUid: waiting.prescriptionId });
    expect(file).toMatchObject({ signed: false });
    expect(Buffer.from(file!.contentBase64, "base64").equals(content)).toBe(true);
    // A prescription named with another order of the organisation is not found.
    expect(await trpcCode(as(admin).admin.orders.prescriptionFile({ orderUid: orderId, prescriptionUid: waiting.prescriptionId }))).toBe("NOT_FOUND");
  });
});

describe("cancelFulfillment", () => {
  it("cancels through the Management API's rule (pharmacy order cancelled), once, with an audit event", async () => {
    const { orderId, fulfillmentId } = await newOrder();
    await Promise.all([
      as(admin).admin.orders.cancelFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId }),
      as(admin).admin.orders.cancelFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId }),
    ]);
    const f = await fulfillmentOf(orderId);
    expect(f.status).toBe("CANCELLED");
    expect(f.pharmacyOrder!.status).toBe("cancelled");
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("cancelled");
    const audit = await auditOf(fulfillmentId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entityType: "fulfillment", action: "cancelled", actorType: "USER", actorUserId: admin.id });
    expect(audit[0].summary).toContain("f-1");
    expect(await t.db.pharmacyOrderHistory.count({ where: { pharmacyOrderId: f.pharmacyOrder!.id, toStatus: "cancelled" } })).toBe(1);
  });

  it("refuses (CONFLICT) once the pharmacy is preparing it, and a fulfillment of another order is not found", async () => {
    const { orderId, fulfillmentId } = await newOrder();
    const po = (await fulfillmentOf(orderId)).pharmacyOrder!;
    expect((await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } })).status).toBe(200);
    expect(await trpcCode(as(admin).admin.orders.cancelFulfillment({ orderUid: orderId, fulfillmentUid: fulfillmentId }))).toBe("CONFLICT");
    const another = await newOrder();
    expect(await trpcCode(as(admin).admin.orders.cancelFulfillment({ orderUid: another.orderId, fulfillmentUid: fulfillmentId }))).toBe("NOT_FOUND");
    expect((await fulfillmentOf(orderId)).status).toBe("OPEN");
    expect(await auditOf(fulfillmentId)).toEqual([]);
  });
});

describe("releaseHold", () => {
  it("routes the held fulfillments as intake would, once for a double click, with one audit event", async () => {
    const { orderId } = await newOrder({ on_hold: true, hold_comment: "check the address" });
    expect((await fulfillmentOf(orderId)).pharmacyOrder).toBeNull();
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("paused");
    const [a, b] = await Promise.all([as(admin).admin.orders.releaseHold({ uid: orderId }), as(admin).admin.orders.releaseHold({ uid: orderId })]);
    expect([a.released, b.released].sort()).toEqual([false, true]);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toMatchObject({ onHold: false, status: "waiting for pharmacy" });
    const pos = await t.db.pharmacyOrder.findMany({ where: { orderId } });
    expect(pos).toHaveLength(1);
    expect(pos[0]).toMatchObject({ pharmacyId: t.pharmacy.id, status: "waiting for pharmacy" });
    expect(await t.db.outboxEvent.count({ where: { subjectId: pos[0].id, eventType: "pharmacy_order_created" } })).toBe(1);
    const audit = await auditOf(orderId);
    expect(audit.map((e) => e.action)).toEqual(["released"]);
    expect(audit[0].summary).toContain("released from hold");
  });

  it("leaves a fulfillment whose prescription waits for a doctor with the doctor", async () => {
    const held = await placeWaitingOrder(t, refs, { customerId: "held-rx", overrides: { on_hold: true } });
    const outcome = await as(admin).admin.orders.releaseHold({ uid: held.orderId });
    expect(outcome).toMatchObject({ released: true, pharmacyOrderUids: [] });
    expect((await t.db.order.findUniqueOrThrow({ where: { id: held.orderId } })).status).toBe("waiting for doctor");
  });

  it("releases even when no pharmacy can serve a fulfillment now: it stays without one and the order reads pharmacy not found", async () => {
    const body = orderBody(t, [], { on_hold: true, fulfillments: [{ external_id: "f-big", items: [item(refs.otcReference, { quantity: 5000 })] }] });
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    const before = await as(admin).admin.home.summary();
    const outcome = await as(admin).admin.orders.releaseHold({ uid: r.json.uid });
    expect(outcome.released).toBe(true);
    expect(outcome.unroutableFulfillmentUids).toHaveLength(1);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: r.json.uid } })).status).toBe("pharmacy not found");
    expect((await as(admin).admin.home.summary()).withoutPharmacy).toBe(before.withoutPharmacy + 1);
    expect((await as(admin).admin.orders.list({ withoutPharmacy: true, limit: 100 })).items.map((o) => o.uid)).toContain(r.json.uid);
  });
});

describe("audit events of Management order changes", () => {
  it("updateOrder and addFulfillmentToOrder record who changed what (field names, never the values)", async () => {
    const { orderId, externalId } = await newOrder();
    const updated = await patch(`/v1/management/orders/${externalId}`, { key: t.keys.management, body: { priority: 3, customer: { email: "new@example.com" } } });
    expect(updated.status, updated.text).toBe(200);
    const added = await post(`/v1/management/orders/${externalId}/fulfillments`, {
      key: t.keys.management,
      body: fulfillmentAt("f-2", t.pharmacy.id, [item(refs.otcReference)]),
    });
    expect(added.status, added.text).toBe(201);
    const audit = await auditOf(orderId);
    expect(audit.map((e) => [e.action, e.actorType])).toEqual([
      ["updated", "API_KEY"],
      ["fulfillment added", "API_KEY"],
    ]);
    expect(audit[0].summary).toContain("priority, customerEmail");
    expect(JSON.stringify(audit)).not.toContain("new@example.com");
    expect(audit[1].summary).toContain('"f-2"');
  });
});
