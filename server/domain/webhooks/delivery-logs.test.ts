import { beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";
import { getWebhookDelivery, listSubscriptionsForLogs, listWebhookDeliveries } from "./delivery-logs";

const T = new Date("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T.getTime() + seconds * 1000);

let tenant: Tenant;
let A: string;
let B: string;
const ids: Record<string, string> = {};
const subs: Record<string, string> = {};

beforeAll(async () => {
  tenant = await createTenant();
  const { db } = tenant;
  A = tenant.pharmacy.id;
  B = tenant.groupPharmacy.id;
  const organisationId = tenant.organisation.id;
  const subA = await createSubscription(db, { organisationId, pharmacyId: A, notificationType: "pharmacy_order_updated", target: "https://a.example/orders" });
  const subA2 = await createSubscription(db, { organisationId, pharmacyId: A, notificationType: "pharmacy_sku_stock_updated", target: "https://a.example/stock" });
  const subDeleted = await createSubscription(db, { organisationId, pharmacyId: A, notificationType: "pharmacy_order_created", target: "https://a.example/old", deletedAt: at(50) });
  const subDeletedEmpty = await createSubscription(db, { organisationId, pharmacyId: A, target: "https://a.example/never", deletedAt: at(50) });
  const subB = await createSubscription(db, { organisationId, pharmacyId: B, notificationType: "pharmacy_order_created", target: "https://b.example/" });
  const subOrg = await createSubscription(db, { organisationId, pharmacyId: null, notificationType: "pharmacy_order_updated", target: "https://org.example/" });
  Object.assign(subs, { subA: subA.id, subA2: subA2.id, subDeleted: subDeleted.id, subDeletedEmpty: subDeletedEmpty.id, subB: subB.id, subOrg: subOrg.id });

  ids.d1 = (await createDelivery(db, subA, { state: "SUCCEEDED", createdAt: at(0), attempts: [{ responseStatus: 200, durationMs: 80 }] })).id;
  ids.d2 = (await createDelivery(db, subA, { state: "FAILED", createdAt: at(10), subjectId: "po-2", attempts: droppedAttempts() })).id;
  ids.d3 = (
    await createDelivery(db, subA2, {
      state: "PENDING",
      createdAt: at(20),
      nextAttemptAt: at(70),
      attempts: [{ responseStatus: null, errorClass: "timeout", durationMs: 30_000 }],
    })
  ).id;
  ids.d4 = (await createDelivery(db, subA, { state: "PENDING", createdAt: at(30), nextAttemptAt: at(30) })).id;
  ids.d5 = (await createDelivery(db, subDeleted, { state: "FAILED", createdAt: at(40), attempts: [{ responseStatus: null, errorClass: "subscription_deleted", durationMs: 0 }] })).id;
  ids.d6 = (await createDelivery(db, subB, { state: "SUCCEEDED", createdAt: at(15), attempts: [{ responseStatus: 204 }] })).id;
  // Organisation-level delivery of an event about pharmacy A: not in the pharmacy portal.
  ids.d7 = (await createDelivery(db, subOrg, { pharmacyId: A, state: "FAILED", createdAt: at(25), attempts: droppedAttempts() })).id;
});

const list = (filter: Partial<Parameters<typeof listWebhookDeliveries>[0]> = {}) =>
  listWebhookDeliveries({ pharmacyIds: [A], page: 0, limit: 50, ...filter });
const uids = (result: { items: { id: string }[] }) => result.items.map((i) => Object.keys(ids).find((k) => ids[k] === i.id));

describe("listWebhookDeliveries", () => {
  it("lists a pharmacy's deliveries to its own subscriptions, newest first, without organisation-level ones", async () => {
    const result = await list();
    expect(result.total).toBe(5);
    expect(uids(result)).toEqual(["d5", "d4", "d3", "d2", "d1"]);
  });

  it("shows each delivery with its subscription, event subject and last attempt", async () => {
    const { items } = await list();
    const d2 = items.find((i) => i.id === ids.d2)!;
    expect(d2).toEqual({
      id: ids.d2,
      eventType: "pharmacy_order_updated",
      subjectId: "po-2",
      pharmacyId: A,
      subscription: { id: subs.subA, target: "https://a.example/orders", notificationType: "pharmacy_order_updated", deleted: false },
      state: "failed",
      attemptCount: 5,
      maxAttempts: 5,
      nextAttemptAt: null,
      lastAttemptAt: at(10),
      createdAt: at(10),
      lastAttempt: { attemptNumber: 5, responseStatus: 503, errorClass: "http_status", durationMs: 120 },
    });
    const d3 = items.find((i) => i.id === ids.d3)!;
    expect(d3.state).toBe("retrying");
    expect(items.find((i) => i.id === ids.d4)!.state).toBe("pending");
    expect(items.find((i) => i.id === ids.d1)!.state).toBe("delivered");
    expect(d3.nextAttemptAt).toEqual(at(70));
    expect(d3.lastAttempt).toEqual({ attemptNumber: 1, responseStatus: null, errorClass: "timeout", durationMs: 30_000 });
    expect(items.find((i) => i.id === ids.d4)!.lastAttempt).toBeNull();
    expect(items.find((i) => i.id === ids.d5)!.subscription.deleted).toBe(true);
  });

  it("filters by subscription, event type and state", async () => {
    expect(uids(await list({ subscriptionId: subs.subA }))).toEqual(["d4", "d2", "d1"]);
    expect(uids(await list({ eventType: "pharmacy_sku_stock_updated" }))).toEqual(["d3"]);
    expect(uids(await list({ state: "failed" }))).toEqual(["d5", "d2"]);
    // Pending: no attempt recorded yet; retrying: pending after a failed attempt.
    expect(uids(await list({ state: "pending" }))).toEqual(["d4"]);
    expect(uids(await list({ state: "retrying" }))).toEqual(["d3"]);
    expect(uids(await list({ state: "delivered" }))).toEqual(["d1"]);
    expect(uids(await list({ state: "failed", subscriptionId: subs.subA }))).toEqual(["d2"]);
    // Another pharmacy's subscription or the organisation-level one: nothing.
    expect((await list({ subscriptionId: subs.subB })).total).toBe(0);
    expect((await list({ subscriptionId: subs.subOrg })).total).toBe(0);
  });

  it("filters on creation time with inclusive bounds", async () => {
    expect(uids(await list({ from: at(10), to: at(30) }))).toEqual(["d4", "d3", "d2"]);
    expect(uids(await list({ from: at(30) }))).toEqual(["d5", "d4"]);
    expect(uids(await list({ to: at(0) }))).toEqual(["d1"]);
    expect(uids(await list({ from: at(11), to: at(19) }))).toEqual([]);
  });

  it("pages with a total of all matches", async () => {
    const first = await list({ limit: 2, page: 0 });
    expect(first.total).toBe(5);
    expect(uids(first)).toEqual(["d5", "d4"]);
    expect(uids(await list({ limit: 2, page: 1 }))).toEqual(["d3", "d2"]);
    expect(uids(await list({ limit: 2, page: 2 }))).toEqual(["d1"]);
    const beyond = await list({ limit: 2, page: 3 });
    expect(beyond).toEqual({ items: [], total: 5 });
    expect((await list({ limit: 10_000 })).items).toHaveLength(5);
  });

  it("covers every pharmacy it is given, and none for an empty list", async () => {
    expect(uids(await list({ pharmacyIds: [A, B] }))).toEqual(["d5", "d4", "d3", "d6", "d2", "d1"]);
    expect(uids(await list({ pharmacyIds: [B] }))).toEqual(["d6"]);
    expect(await list({ pharmacyIds: [] })).toEqual({ items: [], total: 0 });
    expect((await list({ pharmacyIds: [tenant.loosePharmacy.id] })).total).toBe(0);
  });
});

describe("getWebhookDelivery", () => {
  it("returns a delivery with all its attempts in order and its re-sends", async () => {
    const user = await createPortalUser(tenant.db, { role: "PHARMACIST", organisationId: tenant.organisation.id, pharmacyId: A });
    await tenant.db.webhookDeliveryResend.create({ data: { deliveryId: ids.d2, userId: user.id, createdAt: at(100) } });
    const detail = await getWebhookDelivery({ pharmacyIds: [A] }, ids.d2);
    expect(detail.state).toBe("failed");
    expect(detail.attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(detail.attempts[0]).toEqual({
      attemptNumber: 1,
      startedAt: at(10),
      durationMs: 120,
      target: "https://a.example/orders",
      responseStatus: 503,
      errorClass: "http_status",
      errorMessage: null,
      requestBytes: 512,
      nextAttemptAt: null,
    });
    expect(detail.lastAttempt?.attemptNumber).toBe(5);
    expect(detail.resends).toEqual([{ createdAt: at(100), by: { type: "USER", id: user.id, name: user.name } }]);
  });

  it("does not find deliveries of other pharmacies, organisation-level ones, or unknown ids", async () => {
    await expect(getWebhookDelivery({ pharmacyIds: [A] }, ids.d6)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getWebhookDelivery({ pharmacyIds: [A] }, ids.d7)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getWebhookDelivery({ pharmacyIds: [A] }, "00000000-0000-0000-0000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
    await expect(getWebhookDelivery({ pharmacyIds: [] }, ids.d2)).rejects.toBeInstanceOf(NotFoundError);
    expect((await getWebhookDelivery({ pharmacyIds: [A, B] }, ids.d6)).id).toBe(ids.d6);
  });
});

describe("listSubscriptionsForLogs", () => {
  it("lists the pharmacies' live subscriptions, then deleted ones that still have deliveries", async () => {
    const result = await listSubscriptionsForLogs({ pharmacyIds: [A] });
    expect(result.map((s) => s.id)).toEqual([subs.subA, subs.subA2, subs.subDeleted]);
    expect(result[2]).toEqual({ id: subs.subDeleted, pharmacyId: A, notificationType: "pharmacy_order_created", target: "https://a.example/old", deleted: true });
    expect((await listSubscriptionsForLogs({ pharmacyIds: [A, B] })).map((s) => s.id)).toContain(subs.subB);
    expect(await listSubscriptionsForLogs({ pharmacyIds: [] })).toEqual([]);
  });
});
