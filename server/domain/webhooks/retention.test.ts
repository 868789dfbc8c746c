import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createDelivery, createSubscription, droppedAttempts } from "@/tests/webhook-logs";
import { pruneWebhookLogs } from "./retention";

const DAY = 24 * 60 * 60_000;
const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * DAY);

let tenant: Tenant;
let sub: Awaited<ReturnType<typeof createSubscription>>;

beforeAll(async () => {
  tenant = await createTenant();
  sub = await createSubscription(tenant.db, { organisationId: tenant.organisation.id, pharmacyId: tenant.pharmacy.id });
});

describe("pruneWebhookLogs", () => {
  it("deletes old ended deliveries with their attempts, re-sends and orphaned events; keeps pending and recent ones", async () => {
    const { db } = tenant;
    const oldSucceeded = await createDelivery(db, sub, { state: "SUCCEEDED", createdAt: daysAgo(40), attempts: [{ responseStatus: 200 }] });
    const oldFailed = await createDelivery(db, sub, { state: "FAILED", createdAt: daysAgo(40), attempts: droppedAttempts() });
    await db.webhookDeliveryResend.create({ data: { deliveryId: oldFailed.id, createdAt: daysAgo(39) } });
    const oldPending = await createDelivery(db, sub, { state: "PENDING", createdAt: daysAgo(40), nextAttemptAt: daysAgo(40) });
    // Created long ago, but its last attempt (after a re-send) is recent.
    const recentlyAttempted = await createDelivery(db, sub, {
      state: "FAILED",
      createdAt: daysAgo(40),
      lastAttemptAt: daysAgo(1),
      attempts: droppedAttempts(),
    });
    const recent = await createDelivery(db, sub, { state: "SUCCEEDED", createdAt: daysAgo(2), attempts: [{ responseStatus: 200 }] });
    const orphanEvent = await db.outboxEvent.create({
      data: { organisationId: tenant.organisation.id, eventType: "pharmacy_order_updated", subjectId: "x", createdAt: daysAgo(40), dispatchedAt: daysAgo(40) },
    });
    const undispatchedEvent = await db.outboxEvent.create({
      data: { organisationId: tenant.organisation.id, eventType: "pharmacy_order_updated", subjectId: "y", createdAt: daysAgo(40) },
    });

    const result = await pruneWebhookLogs({ olderThan: daysAgo(30) });
    expect(result).toEqual({ deliveries: 2, outboxEvents: 3 });

    const left = (await db.webhookDelivery.findMany({ select: { id: true } })).map((d) => d.id).sort();
    expect(left).toEqual([oldPending.id, recentlyAttempted.id, recent.id].sort());
    expect(await db.webhookAttempt.count({ where: { deliveryId: { in: [oldSucceeded.id, oldFailed.id] } } })).toBe(0);
    expect(await db.webhookDeliveryResend.count({ where: { deliveryId: oldFailed.id } })).toBe(0);
    const events = (await db.outboxEvent.findMany({ select: { id: true } })).map((e) => e.id);
    expect(events).not.toContain(orphanEvent.id);
    expect(events).not.toContain(oldSucceeded.outboxEventId);
    expect(events).not.toContain(oldFailed.outboxEventId);
    expect(events).toEqual(expect.arrayContaining([undispatchedEvent.id, oldPending.outboxEventId, recentlyAttempted.outboxEventId, recent.outboxEventId]));
    expect(await db.webhookAttempt.count({ where: { deliveryId: recentlyAttempted.id } })).toBe(5);

    expect(await pruneWebhookLogs({ olderThan: daysAgo(30) })).toEqual({ deliveries: 0, outboxEvents: 0 });
  });

  it("works through a backlog in batches", async () => {
    const { db } = tenant;
    for (let i = 0; i < 7; i++) await createDelivery(db, sub, { state: i % 2 ? "FAILED" : "SUCCEEDED", createdAt: daysAgo(60), attempts: [{ responseStatus: 500 }] });
    expect(await pruneWebhookLogs({ olderThan: daysAgo(50), batchSize: 2 })).toEqual({ deliveries: 7, outboxEvents: 7 });
    expect(await db.webhookDelivery.count({ where: { createdAt: { lt: daysAgo(50) } } })).toBe(0);
  });
});
