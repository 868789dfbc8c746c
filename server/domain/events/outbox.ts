import { randomUUID } from "node:crypto";
import { Prisma, type Tx } from "@/server/db/client";
import type { EventType } from "./event-types";

export { EVENT_TYPES, type EventType } from "./event-types";

export type OutboxEventInput = {
  type: EventType;
  organisationId: string;
  pharmacyId?: string | null;
  subjectId: string;
  /** Events whose payload is what happened (appointment_reminder_due, patient_doctor_meeting_updated), not current state. */
  data?: Prisma.InputJsonValue;
};

/**
 * Records a domain event in the outbox, inside the transaction of the change that caused it, so the
 * event exists exactly when the change committed. Delivery reads the outbox after commit and rebuilds
 * each payload from current state; the event itself only names its subject.
 */
export async function recordEvent(tx: Tx, event: OutboxEventInput): Promise<void> {
  await tx.$executeRaw`${outboxInsertSql(event)}`;
}

/**
 * recordEvent for many events in one statement (an assortment import records one per changed SKU),
 * each stamped with the statement's clock as recordEvent's are.
 */
export async function recordEvents(tx: Tx, events: readonly Omit<OutboxEventInput, "data">[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "OutboxEvent" ("id", "eventType", "organisationId", "pharmacyId", "subjectId", "createdAt")
    SELECT v."id", v."eventType", v."organisationId", v."pharmacyId", v."subjectId", clock_timestamp()
      FROM unnest(${events.map(() => randomUUID())}::text[], ${events.map((e) => e.type)}::text[], ${events.map((e) => e.organisationId)}::text[],
                  ${events.map((e) => e.pharmacyId ?? null)}::text[], ${events.map((e) => e.subjectId)}::text[])
           AS v("id", "eventType", "organisationId", "pharmacyId", "subjectId")`;
}

/**
 * The INSERT of recordEvent, for a statement that writes a change and its event together. Stamped
 * with the statement's clock, not the transaction's start: a change that waited for a row lock is
 * recorded after the change it waited for.
 */
export function outboxInsertSql(event: OutboxEventInput): Prisma.Sql {
  return Prisma.sql`INSERT INTO "OutboxEvent" ("id", "eventType", "organisationId", "pharmacyId", "subjectId", "data", "createdAt")
    VALUES (${randomUUID()}, ${event.type}, ${event.organisationId}, ${event.pharmacyId ?? null}, ${event.subjectId},
            ${event.data === undefined ? null : JSON.stringify(event.data)}::jsonb, clock_timestamp())`;
}
