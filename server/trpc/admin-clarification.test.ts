/**
 * The admin team's clarification request from the order page (admin.orders.requestClarification over
 * openClarificationRequest, the pharmacist's rule): the pharmacy order on hold with one event, the
 * thread the pharmacy sees (asked by the admin team, waiting to be read), the audit event, a
 * cancelled order put on hold too (the status table's "any"), another organisation's order NOT_FOUND, a
 * lost race and a double submit.
 */
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { resolveIssueThread } from "@/server/domain/pharmacy-orders/resolve-issue-thread";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { trpcCode } from "@/tests/trpc";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let users: AdminCallers;
let otherAdmin: PortalSessionUser;
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  users = await adminCallers(t);
  otherAdmin = (await adminCallers(other)).admin;
});

/** A pharmacy order at pharmacy A (the pharmacist's), moved to `status` over the External Pharmacy API. */
async function pharmacyOrder(status?: "in-progress" | "on-hold" | "cancelled" | "completed") {
  const r = await placeOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] }));
  expect(r.status, r.text).toBe(201);
  const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
  if (status === "completed") expect((await patch(`${EPA}/${po.id}/complete_order`, { key: t.keys.pharmacy })).status).toBe(200);
  else if (status) {
    const body = status === "on-hold" ? { status, comment: "The pharmacy's own question" } : { status };
    expect((await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body })).status).toBe(200);
  }
  return t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } });
}

/** What a clarification request may write: threads, history entries, pharmacy_order_updated events, audit events. */
const footprint = async (pharmacyOrderId: string) => ({
  status: (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrderId } })).status,
  threads: await t.db.adminIssueThread.count({ where: { pharmacyOrderId } }),
  history: await t.db.pharmacyOrderHistory.count({ where: { pharmacyOrderId } }),
  events: await t.db.outboxEvent.count({ where: { subjectId: pharmacyOrderId, eventType: "pharmacy_order_updated" } }),
  audit: await t.db.auditEvent.count({ where: { organisationId: t.organisation.id, entityType: "issue_thread" } }),
});

const ask = (user: PortalSessionUser | null, po: { id: string; status: string }, description = "Is the prescription copy legible?") =>
  as(user).admin.orders.requestClarification({ uid: po.id, description, expectedStatus: po.status as never });

describe("admin.orders.requestClarification", () => {
  it("puts the pharmacy order on hold with one event; the pharmacy sees the admin team's question, unread", async () => {
    const po = await pharmacyOrder("in-progress");
    const before = await footprint(po.id);
    const result = await ask(users.admin, po, "  Is the prescription copy legible?  ");
    expect(result).toEqual({ threadUid: expect.any(String), statusChanged: true });
    expect(await footprint(po.id)).toEqual({
      status: "on-hold",
      threads: before.threads + 1,
      history: before.history + 1,
      events: before.events + 1,
      audit: before.audit + 1,
    });
    const entry = await t.db.pharmacyOrderHistory.findFirstOrThrow({ where: { pharmacyOrderId: po.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(entry).toMatchObject({ fromStatus: "in-progress", toStatus: "on-hold", comment: "Is the prescription copy legible?", actorType: "USER", actorUserId: users.admin.id });

    // The pharmacy portal: the thread, asked by the admin team, and the order's "New answer".
    const threads = await as(users.pharmacist).pharmacy.issueThreads.listForOrder({ pharmacyOrderUid: po.id });
    expect(threads).toEqual([
      expect.objectContaining({
        uid: result.threadUid,
        status: "open",
        description: "Is the prescription copy legible?",
        openedBy: users.admin.name,
        openedBySide: "admin",
        messages: [],
      }),
    ]);
    const detail = await as(users.pharmacist).pharmacy.orders.get({ uid: po.id });
    expect(detail).toMatchObject({ status: "on-hold", unreadAnswerAt: expect.any(Number) });
    // The pharmacy answers in it; the admin tool lists it open, on the order page too.
    await as(users.pharmacist).pharmacy.issueThreads.reply({ uid: result.threadUid, body: "Yes, it is." });
    const thread = await as(users.admin).admin.issues.get({ uid: result.threadUid });
    expect(thread).toMatchObject({ openedBySide: "admin", messages: [{ side: "pharmacy", body: "Yes, it is." }] });
    const order = await as(users.admin).admin.orders.get({ uid: po.orderId });
    expect(order.fulfillments[0]!.pharmacyOrder).toMatchObject({ status: "on-hold", openThreadUids: [result.threadUid] });

    const [audit] = await t.db.auditEvent.findMany({ where: { entityId: result.threadUid } });
    expect(audit).toMatchObject({ entityType: "issue_thread", action: "opened", actorUserId: users.admin.id, summary: `Admin team asked for clarification on ${po.name}` });
  });

  it("on an order already on hold adds the thread and sends the event, without a history entry", async () => {
    const po = await pharmacyOrder("on-hold");
    const before = await footprint(po.id);
    expect(await ask(users.admin, po)).toMatchObject({ statusChanged: false });
    expect(await footprint(po.id)).toEqual({ ...before, threads: before.threads + 1, events: before.events + 1, audit: before.audit + 1 });
    const sides = (await as(users.pharmacist).pharmacy.issueThreads.listForOrder({ pharmacyOrderUid: po.id })).map((th) => th.openedBySide).sort();
    expect(sides).toEqual(["admin", "pharmacy"]);
  });

  it("puts a completed order on hold too (the spec's any), its completion untouched", async () => {
    const po = await pharmacyOrder("completed");
    const payouts = await t.db.payout.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { id: "asc" } });
    expect(await ask(users.admin, po)).toMatchObject({ statusChanged: true });
    expect((await footprint(po.id)).status).toBe("on-hold");
    expect(await t.db.payout.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { id: "asc" } })).toEqual(payouts);
  });

  it("opens on a cancelled order too (the status table's any): on hold; resolved, back to cancelled without a second cancellation", async () => {
    const po = await pharmacyOrder("cancelled");
    const before = await footprint(po.id);
    const result = await ask(users.admin, po);
    expect(result).toEqual({ threadUid: expect.any(String), statusChanged: true });
    expect(await footprint(po.id)).toEqual({
      status: "on-hold",
      threads: before.threads + 1,
      history: before.history + 1,
      events: before.events + 1,
      audit: before.audit + 1,
    });
    const movements = await t.db.stockMovement.count({ where: { pharmacyOrderId: po.id } });
    const outcome = await resolveIssueThread(t.organisation.id, result.threadUid, { releaseOrder: true }, { type: "USER", userId: users.admin.id });
    expect(outcome).toMatchObject({ resolved: true, releasedTo: "cancelled" });
    expect((await footprint(po.id)).status).toBe("cancelled");
    expect(await t.db.stockMovement.count({ where: { pharmacyOrderId: po.id } })).toBe(movements);
  });

  it("answers NOT_FOUND for another organisation's order and an unknown uid, writing nothing", async () => {
    const po = await pharmacyOrder("in-progress");
    const before = await footprint(po.id);
    expect(await trpcCode(ask(otherAdmin, po))).toBe("NOT_FOUND");
    expect(await trpcCode(ask(users.admin, { id: crypto.randomUUID(), status: "in-progress" }))).toBe("NOT_FOUND");
    expect(await footprint(po.id)).toEqual(before);
    expect(await other.db.auditEvent.count({ where: { organisationId: other.organisation.id, entityType: "issue_thread" } })).toBe(0);
  });

  it("refuses the signed-out, pharmacists and doctors (the admin door)", async () => {
    const po = await pharmacyOrder("in-progress");
    const before = await footprint(po.id);
    expect(await trpcCode(ask(null, po))).toBe("UNAUTHORIZED");
    expect(await trpcCode(ask(users.pharmacist, po))).toBe("FORBIDDEN");
    expect(await trpcCode(ask(users.doctor, po))).toBe("FORBIDDEN");
    expect(await footprint(po.id)).toEqual(before);
  });

  it("requires a question (a field error) and refuses a page that showed another status (CONFLICT), writing nothing", async () => {
    const po = await pharmacyOrder("in-progress");
    const before = await footprint(po.id);
    const blank = await ask(users.admin, po, "   ").then(
      () => null,
      (e: unknown) => e as TRPCError,
    );
    expect(blank?.code).toBe("BAD_REQUEST");
    expect(await trpcCode(ask(users.admin, { id: po.id, status: "waiting for pharmacy" }))).toBe("CONFLICT");
    expect(await footprint(po.id)).toEqual(before);
  });

  it("a double submit (two admins at once) asks once: one thread, one history entry, one event", async () => {
    const po = await pharmacyOrder("in-progress");
    const before = await footprint(po.id);
    const secondAdmin = (await adminCallers(t)).admin;
    const results = await Promise.allSettled([ask(users.admin, po), ask(secondAdmin, po)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as TRPCError).code).toBe("CONFLICT");
    expect(await footprint(po.id)).toEqual({
      status: "on-hold",
      threads: before.threads + 1,
      history: before.history + 1,
      events: before.events + 1,
      audit: before.audit + 1,
    });
  });

  it("a pharmacist's own request stays the pharmacy's: its side, and nothing unread for the pharmacy", async () => {
    const po = await pharmacyOrder("in-progress");
    const { threadUid } = await as(users.pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "Which strength?", expectedStatus: "in-progress" });
    const [thread] = await as(users.pharmacist).pharmacy.issueThreads.listForOrder({ pharmacyOrderUid: po.id });
    expect(thread).toMatchObject({ uid: threadUid, openedBySide: "pharmacy" });
    expect((await as(users.pharmacist).pharmacy.orders.get({ uid: po.id })).unreadAnswerAt).toBeNull();
    const [audit] = await t.db.auditEvent.findMany({ where: { entityId: threadUid } });
    expect(audit).toMatchObject({ action: "opened", summary: `Pharmacy asked for clarification on ${po.name}` });
  });
});
