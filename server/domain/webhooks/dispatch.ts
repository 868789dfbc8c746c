import { database, Prisma } from "@/server/db/client";
import { isPharmacyEventType } from "./event-types";

export type DispatchedDelivery = { id: string; target: string };

/**
 * Fans committed outbox events out into one delivery per matching live subscription: a pharmacy
 * event goes to that pharmacy's subscriptions and to its organisation's; organisation-only events
 * to the organisation's. Subscriptions are matched when the event is dispatched. Events are taken
 * oldest first with FOR UPDATE SKIP LOCKED, so several processes can dispatch at once, and marked
 * dispatched in the same transaction as their deliveries.
 */
export async function dispatchOutboxEvents(limit = 200): Promise<{ events: number; deliveries: DispatchedDelivery[] }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; eventType: string; organisationId: string; pharmacyId: string | null }[]>`
      SELECT "id", "eventType", "organisationId", "pharmacyId" FROM "OutboxEvent"
       WHERE "dispatchedAt" IS NULL
       ORDER BY "createdAt", "id"
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return { events: 0, deliveries: [] };
    const subscriptions = await tx.webhookSubscription.findMany({
      where: {
        deletedAt: null,
        notificationType: { in: [...new Set(events.map((e) => e.eventType))] },
        OR: [
          { scope: "ORGANISATION", organisationId: { in: [...new Set(events.map((e) => e.organisationId))] } },
          { scope: "PHARMACY", pharmacyId: { in: [...new Set(events.flatMap((e) => (e.pharmacyId ? [e.pharmacyId] : [])))] } },
        ],
      },
      select: { id: true, scope: true, organisationId: true, pharmacyId: true, notificationType: true, target: true },
    });
    const rows: Prisma.WebhookDeliveryCreateManyInput[] = [];
    const targets = new Map<string, string>();
    for (const event of events) {
      for (const s of subscriptions) {
        if (s.notificationType !== event.eventType) continue;
        const matches =
          s.scope === "ORGANISATION"
            ? s.organisationId === event.organisationId
            : isPharmacyEventType(event.eventType) && event.pharmacyId !== null && s.pharmacyId === event.pharmacyId;
        if (!matches) continue;
        const id = crypto.randomUUID();
        targets.set(id, s.target);
        rows.push({
          id,
          subscriptionId: s.id,
          outboxEventId: event.id,
          eventType: event.eventType,
          organisationId: event.organisationId,
          pharmacyId: event.pharmacyId,
          nextAttemptAt: new Date(),
        });
      }
    }
    if (rows.length > 0) await tx.webhookDelivery.createMany({ data: rows });
    await tx.$executeRaw`UPDATE "OutboxEvent" SET "dispatchedAt" = now() WHERE "id" IN (${Prisma.join(events.map((e) => e.id))})`;
    return { events: events.length, deliveries: rows.map((r) => ({ id: r.id!, target: targets.get(r.id!)! })) };
  });
}
