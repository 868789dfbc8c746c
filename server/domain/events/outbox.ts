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
 * The INSERT of recordEvent, for a statement that writes a change and its event together. Stamped
 * with the statement's clock, not the transaction's start: a change that waited for a row lock is
 * recorded after the change it waited for.
 */
export function outboxInsertSql(event: OutboxEventInput): Prisma.Sql {
  return Prisma.sql`INSERT INTO "OutboxEvent" ("id", "eventType", "organisationId", "pharmacyId", "subjectId", "data", "createdAt")
    VALUES (${randomUUID()}, ${event.type}, ${event.organisationId}, ${event.pharmacyId ?? null}, ${event.subjectId},
            ${event.data === undefined ? null : JSON.stringify(event.data)}::jsonb, clock_timestamp())`;
}
