import { describe, expect, it } from "vitest";
import { recordEvent } from "@/server/domain/events/outbox";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { dispatchOutboxEvents } from "./dispatch";

const sealed = "v1.x.y.z";

function subscribe(t: Tenant, notificationType: string, target: string, pharmacyId?: string) {
  return t.db.webhookSubscription.create({
    data: {
      organisationId: t.organisation.id,
      scope: pharmacyId ? "PHARMACY" : "ORGANISATION",
      pharmacyId: pharmacyId ?? null,
      notificationType,
      target,
      secretEncrypted: sealed,
    },
  });
}

describe("dispatching the outbox", () => {
  it("fans each event out once to the live subscriptions it matches, and marks it dispatched", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const own = await subscribe(t, "pharmacy_order_created", "https://93.184.215.14/own", t.pharmacy.id);
    const organisation = await subscribe(t, "pharmacy_order_created", "https://93.184.215.14/org");
    await subscribe(t, "pharmacy_order_created", "https://93.184.215.14/other-pharmacy", t.groupPharmacy.id);
    await subscribe(t, "pharmacy_order_updated", "https://93.184.215.14/other-type", t.pharmacy.id);
    await subscribe(other, "pharmacy_order_created", "https://93.184.215.14/other-org");
    const deleted = await subscribe(t, "pharmacy_order_created", "https://93.184.215.14/deleted");
    await t.db.webhookSubscription.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    await t.db.$transaction((tx) =>
      recordEvent(tx, { type: "pharmacy_order_created", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: "po-1" }),
    );

    const first = await dispatchOutboxEvents();
    expect(first.events).toBe(1);
    expect(first.drained).toBe(true);
    expect(first.deliveries.map((d) => d.target).sort()).toEqual(["https://93.184.215.14/org", "https://93.184.215.14/own"]);
    const rows = await t.db.webhookDelivery.findMany({ where: { organisationId: t.organisation.id }, orderBy: { subscriptionId: "asc" } });
    expect(rows.map((r) => r.subscriptionId).sort()).toEqual([own.id, organisation.id].sort());
    expect(rows.map((r) => r.id).sort()).toEqual(first.deliveries.map((d) => d.id).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ eventType: "pharmacy_order_created", pharmacyId: t.pharmacy.id, state: "PENDING", attemptCount: 0 });
      expect(row.nextAttemptAt).not.toBeNull();
    }
    expect((await t.db.outboxEvent.findFirstOrThrow({ where: { subjectId: "po-1" } })).dispatchedAt).not.toBeNull();

    const again = await dispatchOutboxEvents();
    expect(again).toEqual({ events: 0, deliveries: [], drained: true });
  });

  it("takes at most `limit` events a call, oldest first, and says when none are left", async () => {
    const t = await createTenant();
    await subscribe(t, "pharmacy_order_updated", "https://93.184.215.14/org");
    for (const subjectId of ["a", "b", "c"]) {
      await t.db.$transaction((tx) => recordEvent(tx, { type: "pharmacy_order_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId }));
    }
    const subjects = async (ids: string[]) =>
      (await t.db.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { outboxEvent: { select: { subjectId: true } } } })).map((d) => d.outboxEvent.subjectId);
    const first = await dispatchOutboxEvents(2);
    expect([first.events, first.drained]).toEqual([2, false]);
    expect((await subjects(first.deliveries.map((d) => d.id))).sort()).toEqual(["a", "b"]);
    const second = await dispatchOutboxEvents(2);
    expect([second.events, second.drained]).toEqual([1, true]);
    expect(await subjects(second.deliveries.map((d) => d.id))).toEqual(["c"]);
  });

  it("never dispatches an event twice when dispatchers run at once", async () => {
    const t = await createTenant();
    const subscription = await subscribe(t, "pharmacy_order_updated", "https://93.184.215.14/org");
    for (let i = 0; i < 20; i++) {
      await t.db.$transaction((tx) => recordEvent(tx, { type: "pharmacy_order_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: `s-${i}` }));
    }
    const results = await Promise.all(Array.from({ length: 5 }, () => dispatchOutboxEvents(5)));
    while (!(await dispatchOutboxEvents(5)).drained);
    expect(results.reduce((sum, r) => sum + r.deliveries.length, 0)).toBeLessThanOrEqual(20);
    expect(await t.db.webhookDelivery.count({ where: { subscriptionId: subscription.id } })).toBe(20);
    expect(await t.db.outboxEvent.count({ where: { organisationId: t.organisation.id, dispatchedAt: null } })).toBe(0);
  });
});
