/**
 * Issue threads in both portals, called as the pages call them: the admin list (open/resolved), one
 * thread, replies from both sides (a pharmacist only on their pharmacies' orders), resolving with and
 * without returning the order from on-hold (through the status rule: history, event), two admins
 * resolving at once, another thread still open, authorisation and audit events.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { ValidationError } from "@/server/domain/errors";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let secondAdmin: PortalSessionUser;
let pharmacist: PortalSessionUser; // pharmacy A
let loosePharmacist: PortalSessionUser; // pharmacy C
let doctor: PortalSessionUser;
let otherAdmin: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  const organisationId = t.organisation.id;
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
  secondAdmin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  loosePharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.loosePharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId, displayName: "Dr. Test" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId, doctorId: doctorRow.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
});

/** A pharmacy order at pharmacy A that the pharmacist moved to `from` and then on hold with `comment` in the portal. */
async function heldOrder(comment = "The dosage is unclear", from = "in-progress") {
  const r = await placeOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] }));
  expect(r.status, r.text).toBe(201);
  const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
  if (from !== "waiting for pharmacy") expect((await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: from } })).status).toBe(200);
  await as(pharmacist).pharmacy.orders.changeStatus({ uid: po.id, status: "on-hold", comment, expectedStatus: from as never });
  const thread = await t.db.adminIssueThread.findFirstOrThrow({ where: { pharmacyOrderId: po.id } });
  return { po, thread };
}
const statusOf = async (id: string) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id } })).status;
const auditOf = (entityId: string) => t.db.auditEvent.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });

describe("authorisation", () => {
  it("admin procedures: signed out UNAUTHORIZED, pharmacist and doctor FORBIDDEN, another organisation NOT_FOUND with nothing written", async () => {
    const { po, thread } = await heldOrder();
    const calls = (user: PortalSessionUser | null) => [
      () => as(user).admin.issues.list({}),
      () => as(user).admin.issues.get({ uid: thread.id }),
      () => as(user).admin.issues.reply({ uid: thread.id, body: "hello" }),
      () => as(user).admin.issues.resolve({ uid: thread.id }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(pharmacist)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(doctor)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await trpcCode(as(otherAdmin).admin.issues.get({ uid: thread.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.issues.reply({ uid: thread.id, body: "hello" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.issues.resolve({ uid: thread.id }))).toBe("NOT_FOUND");
    expect((await as(otherAdmin).admin.issues.list({})).items.map((i) => i.uid)).not.toContain(thread.id);
    expect(await t.db.adminIssueThread.findUniqueOrThrow({ where: { id: thread.id } })).toMatchObject({ status: "OPEN", resolvedAt: null });
    expect(await t.db.adminIssueMessage.count({ where: { threadId: thread.id } })).toBe(0);
    expect(await statusOf(po.id)).toBe("on-hold");
    expect(await auditOf(thread.id)).toEqual([]);
  });

  it("pharmacy procedures: signed out UNAUTHORIZED, admin and doctor FORBIDDEN, another pharmacy's pharmacist NOT_FOUND", async () => {
    const { po, thread } = await heldOrder();
    const calls = (user: PortalSessionUser | null) => [
      () => as(user).pharmacy.issueThreads.listForOrder({ pharmacyOrderUid: po.id }),
      () => as(user).pharmacy.issueThreads.reply({ uid: thread.id, body: "hello" }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(admin)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(doctor)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(loosePharmacist)) expect(await trpcCode(call())).toBe("NOT_FOUND");
    expect(await t.db.adminIssueMessage.count({ where: { threadId: thread.id } })).toBe(0);
  });
});

describe("list and thread", () => {
  it("lists each open thread with the pharmacy order name, the comment, the pharmacy and when; resolved ones under resolved", async () => {
    const comment = `Patient allergic? ${Math.random()}`;
    const { po, thread } = await heldOrder(comment);
    const open = await as(admin).admin.issues.list({ status: "open", limit: 100 });
    const row = open.items.find((i) => i.uid === thread.id)!;
    expect(row).toMatchObject({
      status: "open",
      description: comment,
      pharmacyOrder: { uid: po.id, name: po.name, status: "on-hold", orderUid: po.orderId },
      pharmacy: { uid: t.pharmacy.id, displayName: "Apotheke A" },
      openedBy: pharmacist.name,
      messageCount: 0,
    });
    expect(row.createdAt).toEqual(expect.any(Number));
    await as(admin).admin.issues.resolve({ uid: thread.id, releaseOrder: false });
    expect((await as(admin).admin.issues.list({ status: "open", limit: 100 })).items.map((i) => i.uid)).not.toContain(thread.id);
    const resolved = (await as(admin).admin.issues.list({ status: "resolved", limit: 100 })).items.find((i) => i.uid === thread.id);
    expect(resolved).toMatchObject({ status: "resolved", resolvedBy: admin.name });
  });
});

describe("replies", () => {
  it("takes replies from both sides, in order, each with an audit event; the pharmacist sees them on the order", async () => {
    const { po, thread } = await heldOrder();
    await as(admin).admin.issues.reply({ uid: thread.id, body: "  Which dosage do you need?  " });
    await as(pharmacist).pharmacy.issueThreads.reply({ uid: thread.id, body: "1 mg, as the label says" });
    const detail = await as(admin).admin.issues.get({ uid: thread.id });
    expect(detail.messages.map((m) => [m.side, m.body, m.author])).toEqual([
      ["admin", "Which dosage do you need?", admin.name],
      ["pharmacy", "1 mg, as the label says", pharmacist.name],
    ]);
    const seen = await as(pharmacist).pharmacy.issueThreads.listForOrder({ pharmacyOrderUid: po.id });
    expect(seen.map((s) => s.uid)).toEqual([thread.id]);
    expect(seen[0].messages).toHaveLength(2);
    const audit = await auditOf(thread.id);
    expect(audit.map((e) => [e.action, e.actorUserId])).toEqual([
      ["replied", admin.id],
      ["replied", pharmacist.id],
    ]);
    expect(audit[0].organisationId).toBe(t.organisation.id);
  });

  it("refuses a blank reply (BAD_REQUEST on body) and a reply to a resolved thread, writing nothing", async () => {
    const { thread } = await heldOrder();
    const error = await as(admin)
      .admin.issues.reply({ uid: thread.id, body: "   " })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect(((error as TRPCError).cause as ValidationError).fields).toEqual({ body: ["This field is required."] });
    await as(admin).admin.issues.resolve({ uid: thread.id, releaseOrder: false });
    expect(await trpcCode(as(pharmacist).pharmacy.issueThreads.reply({ uid: thread.id, body: "late" }))).toBe("BAD_REQUEST");
    expect(await t.db.adminIssueMessage.count({ where: { threadId: thread.id } })).toBe(0);
  });
});

describe("resolve", () => {
  it("with release (the default): the order goes back to its status before the hold, through the status rule, with the note kept", async () => {
    const { po, thread } = await heldOrder("Missing doctor's signature", "in-progress");
    const events = () => t.db.outboxEvent.count({ where: { subjectId: po.id, eventType: "pharmacy_order_updated" } });
    const before = await events();
    const outcome = await as(admin).admin.issues.resolve({ uid: thread.id, note: "Signature added" });
    expect(outcome).toEqual({ resolved: true, releasedTo: "in-progress", keptOnHold: null });
    expect(await statusOf(po.id)).toBe("in-progress");
    expect(await events()).toBe(before + 1);
    const last = await t.db.pharmacyOrderHistory.findFirstOrThrow({ where: { pharmacyOrderId: po.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(last).toMatchObject({ fromStatus: "on-hold", toStatus: "in-progress", actorUserId: admin.id });
    expect(await t.db.adminIssueThread.findUniqueOrThrow({ where: { id: thread.id } })).toMatchObject({
      status: "RESOLVED",
      resolvedByUserId: admin.id,
      resolutionNote: "Signature added",
    });
    const audit = await auditOf(thread.id);
    expect(audit.map((e) => e.action)).toEqual(["resolved"]);
    expect(audit[0].summary).toContain("went back to in-progress");
  });

  it("without release the order stays on hold; an order on hold from the start goes back to waiting for pharmacy", async () => {
    const kept = await heldOrder();
    expect(await as(admin).admin.issues.resolve({ uid: kept.thread.id, releaseOrder: false })).toEqual({ resolved: true, releasedTo: null, keptOnHold: null });
    expect(await statusOf(kept.po.id)).toBe("on-hold");
    const fromQueue = await heldOrder("Unclear", "waiting for pharmacy");
    expect((await as(admin).admin.issues.resolve({ uid: fromQueue.thread.id })).releasedTo).toBe("waiting for pharmacy");
    expect(await statusOf(fromQueue.po.id)).toBe("waiting for pharmacy");
  });

  it("keeps the order on hold while another thread of it is open", async () => {
    const { po, thread } = await heldOrder();
    await as(pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "And the quantity?", expectedStatus: "on-hold" });
    const outcome = await as(admin).admin.issues.resolve({ uid: thread.id });
    expect(outcome).toEqual({ resolved: true, releasedTo: null, keptOnHold: "other_open_threads" });
    expect(await statusOf(po.id)).toBe("on-hold");
  });

  it("two admins resolving at once: one resolution, one history entry, one event, one audit event", async () => {
    const { po, thread } = await heldOrder();
    const historyBefore = await t.db.pharmacyOrderHistory.count({ where: { pharmacyOrderId: po.id } });
    const eventsBefore = await t.db.outboxEvent.count({ where: { subjectId: po.id } });
    const outcomes = await Promise.all([
      as(admin).admin.issues.resolve({ uid: thread.id, note: "first" }),
      as(secondAdmin).admin.issues.resolve({ uid: thread.id, note: "second" }),
    ]);
    expect(outcomes.map((o) => o.resolved).sort()).toEqual([false, true]);
    expect(await t.db.pharmacyOrderHistory.count({ where: { pharmacyOrderId: po.id } })).toBe(historyBefore + 1);
    expect(await t.db.outboxEvent.count({ where: { subjectId: po.id } })).toBe(eventsBefore + 1);
    expect(await auditOf(thread.id)).toHaveLength(1);
    expect(await statusOf(po.id)).toBe("in-progress");
  });

  it("a completed order: the pharmacist's clarification request holds it, and resolving returns it to completed without a second completion (issue 23)", async () => {
    const r = await placeOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference, { quantity: 2 })])] }));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect((await patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
    const stock = async () => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
    const counts = async () => ({
      stock: await stock(),
      movements: await t.db.stockMovement.count({ where: { pharmacyOrderId: po.id } }),
      payouts: await t.db.payout.count({ where: { pharmacyOrderId: po.id } }),
      stockEvents: await t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: t.pharmacySku.id } }),
    });
    const before = await counts();
    const updates = () => t.db.outboxEvent.count({ where: { subjectId: po.id, eventType: "pharmacy_order_updated" } });
    const updatesBefore = await updates();

    expect(await as(pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "Parcel returned?", expectedStatus: "completed" })).toMatchObject({
      statusChanged: true,
    });
    expect(await statusOf(po.id)).toBe("on-hold");
    const thread = await t.db.adminIssueThread.findFirstOrThrow({ where: { pharmacyOrderId: po.id } });
    expect(await as(admin).admin.issues.resolve({ uid: thread.id, note: "Delivered" })).toEqual({ resolved: true, releasedTo: "completed", keptOnHold: null });
    expect(await statusOf(po.id)).toBe("completed");
    expect(await updates()).toBe(updatesBefore + 2);
    expect(await counts()).toEqual(before);
    expect((await auditOf(thread.id)).map((e) => e.action)).toEqual(["opened", "resolved"]);
    expect((await auditOf(thread.id))[1].summary).toContain("went back to completed");
  });

  it("refuses a note longer than 5000 characters with a field error, writing nothing", async () => {
    const { thread } = await heldOrder();
    expect(await trpcCode(as(admin).admin.issues.resolve({ uid: thread.id, note: "x".repeat(5001) }))).toBe("BAD_REQUEST");
    expect((await t.db.adminIssueThread.findUniqueOrThrow({ where: { id: thread.id } })).status).toBe("OPEN");
  });
});

describe("new answer (issue 22)", () => {
  const queueRow = async (po: { id: string; name: string }) =>
    (await as(pharmacist).pharmacy.orders.list({ search: po.name, limit: 10 })).items.find((i) => i.uid === po.id)!;
  const homeNames = async () => (await as(pharmacist).pharmacy.home.summary({})).newAnswers.orders.map((o) => o.name);

  it("an admin's reply marks the order on the queue and the home page until a pharmacist opens it, without moving its updatedAt", async () => {
    const { po, thread } = await heldOrder();
    expect((await queueRow(po)).unreadAnswer).toBe(false);
    // The pharmacy's own reply is nothing new to read.
    await as(pharmacist).pharmacy.issueThreads.reply({ uid: thread.id, body: "Any news?" });
    expect((await queueRow(po)).unreadAnswer).toBe(false);
    expect((await as(pharmacist).pharmacy.orders.get({ uid: po.id })).unreadAnswerAt).toBeNull();

    const before = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } });
    await as(admin).admin.issues.reply({ uid: thread.id, body: "Take 1 mg." });
    expect((await queueRow(po)).unreadAnswer).toBe(true);
    const home = await as(pharmacist).pharmacy.home.summary({});
    expect(home.newAnswers.count).toBeGreaterThanOrEqual(1);
    expect(home.newAnswers.orders[0]).toMatchObject({ uid: po.id, name: po.name, answeredAt: expect.any(Number) });
    // An answer is no change of the pharmacy order: the API's updated_at stays.
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).updatedAt).toEqual(before.updatedAt);

    // Another pharmacy's pharmacist cannot mark it read.
    const { unreadAnswerAt } = await as(pharmacist).pharmacy.orders.get({ uid: po.id });
    expect(unreadAnswerAt).toEqual(expect.any(Number));
    expect(await trpcCode(as(loosePharmacist).pharmacy.orders.markAnswerRead({ uid: po.id, seen: unreadAnswerAt! }))).toBe("NOT_FOUND");
    // A page that read the order before this answer does not mark it read.
    expect(await as(pharmacist).pharmacy.orders.markAnswerRead({ uid: po.id, seen: unreadAnswerAt! - 1 })).toEqual({ read: false });
    expect((await queueRow(po)).unreadAnswer).toBe(true);
    // The page that showed it does.
    expect(await as(pharmacist).pharmacy.orders.markAnswerRead({ uid: po.id, seen: unreadAnswerAt! })).toEqual({ read: true });
    expect((await queueRow(po)).unreadAnswer).toBe(false);
    expect(await homeNames()).not.toContain(po.name);
    expect((await as(pharmacist).pharmacy.orders.get({ uid: po.id })).unreadAnswerAt).toBeNull();
  });

  it("a resolution that returns the order to the queue is an answer to read", async () => {
    const { po, thread } = await heldOrder("Which size?", "in-progress");
    await as(admin).admin.issues.resolve({ uid: thread.id, releaseOrder: true, note: "Size M." });
    expect(await queueRow(po)).toMatchObject({ status: "in-progress", unreadAnswer: true });
    expect(await homeNames()).toContain(po.name);
  });
});
