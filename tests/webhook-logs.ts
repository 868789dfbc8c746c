/**
 * Rows for delivery-log tests, all inserted directly with Prisma, none through a domain function:
 * portal users (quicker than the admin tool's invitation flow); subscriptions (the commands
 * registerPharmacySubscription / registerOrganisationSubscription check that the target's host
 * resolves, which these tests' *.example targets do not, and cannot backdate a deletion); and
 * outbox events, deliveries and attempts with chosen states, times and results (the product writes
 * those only as dispatch and delivery happen).
 */
import { randomUUID } from "node:crypto";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import type { Db } from "@/server/db/client";

export async function createPortalUser(
  db: Db,
  user: { role: "ADMIN" | "PHARMACIST" | "DOCTOR"; organisationId: string; pharmacyId?: string; pharmacyGroupId?: string; doctorId?: string },
): Promise<PortalSessionUser> {
  const tag = randomUUID().slice(0, 8);
  const row = await db.user.create({
    data: {
      email: `${user.role.toLowerCase()}-${tag}@example.com`,
      displayName: `${{ ADMIN: "Admin", PHARMACIST: "Pharmacist", DOCTOR: "Doctor" }[user.role]} ${tag}`,
      passwordHash: "not-a-real-hash",
      role: user.role,
      organisationId: user.organisationId,
      pharmacyId: user.pharmacyId ?? null,
      pharmacyGroupId: user.pharmacyGroupId ?? null,
      doctorId: user.doctorId ?? null,
    },
  });
  return {
    id: row.id,
    email: row.email,
    name: row.displayName,
    role: row.role,
    organisationId: row.organisationId,
    pharmacyId: row.pharmacyId,
    pharmacyGroupId: row.pharmacyGroupId,
    doctorId: row.doctorId,
    sessionVersion: row.sessionVersion,
  };
}

export async function createSubscription(
  db: Db,
  s: { organisationId: string; pharmacyId?: string | null; notificationType?: string; target?: string; deletedAt?: Date | null },
) {
  return db.webhookSubscription.create({
    data: {
      organisationId: s.organisationId,
      scope: s.pharmacyId ? "PHARMACY" : "ORGANISATION",
      pharmacyId: s.pharmacyId ?? null,
      notificationType: s.notificationType ?? "pharmacy_order_updated",
      target: s.target ?? `https://hooks.example/${randomUUID().slice(0, 8)}`,
      secretEncrypted: "test-secret",
      deletedAt: s.deletedAt ?? null,
    },
  });
}

type AttemptSpec = { responseStatus?: number | null; errorClass?: string | null; durationMs?: number; startedAt?: Date };

/**
 * A delivery of a new outbox event (dispatched) to `subscription`, with `attempts` recorded in order
 * (attemptCount = their number unless given). The delivery's pharmacy is the event's: `pharmacyId`,
 * else the subscription's.
 */
export async function createDelivery(
  db: Db,
  subscription: { id: string; organisationId: string; pharmacyId: string | null; notificationType: string; target: string },
  d: {
    pharmacyId?: string;
    eventType?: string;
    subjectId?: string;
    state?: "PENDING" | "SUCCEEDED" | "FAILED";
    createdAt?: Date;
    lastAttemptAt?: Date | null;
    nextAttemptAt?: Date | null;
    attemptCount?: number;
    maxAttempts?: number;
    attempts?: AttemptSpec[];
  } = {},
) {
  const createdAt = d.createdAt ?? new Date();
  const eventType = d.eventType ?? subscription.notificationType;
  const pharmacyId = d.pharmacyId ?? subscription.pharmacyId;
  const event = await db.outboxEvent.create({
    data: {
      organisationId: subscription.organisationId,
      pharmacyId,
      eventType,
      subjectId: d.subjectId ?? randomUUID(),
      createdAt,
      dispatchedAt: createdAt,
    },
  });
  const attempts = d.attempts ?? [];
  const delivery = await db.webhookDelivery.create({
    data: {
      subscriptionId: subscription.id,
      outboxEventId: event.id,
      eventType,
      organisationId: subscription.organisationId,
      pharmacyId,
      state: d.state ?? "PENDING",
      attemptCount: d.attemptCount ?? attempts.length,
      maxAttempts: d.maxAttempts ?? 5,
      nextAttemptAt: d.nextAttemptAt ?? null,
      lastAttemptAt: d.lastAttemptAt === undefined ? (attempts.length ? createdAt : null) : d.lastAttemptAt,
      createdAt,
    },
  });
  for (const [index, a] of attempts.entries()) {
    await db.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        attemptNumber: index + 1,
        startedAt: a.startedAt ?? new Date(createdAt.getTime() + index * 1000),
        durationMs: a.durationMs ?? 120,
        target: subscription.target,
        responseStatus: a.responseStatus === undefined ? 500 : a.responseStatus,
        errorClass: a.errorClass === undefined ? (a.responseStatus && a.responseStatus < 300 ? null : "http_status") : a.errorClass,
        errorMessage: a.errorClass === "timeout" ? "No response within 30 s" : null,
        requestBytes: 512,
      },
    });
  }
  return { ...delivery, outboxEvent: event };
}

/** Five failed attempts: a dropped delivery. */
export const droppedAttempts = (): AttemptSpec[] => Array.from({ length: 5 }, () => ({ responseStatus: 503 }));
