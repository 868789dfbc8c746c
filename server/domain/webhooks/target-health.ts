import { database, type Prisma } from "@/server/db/client";

/**
 * Whether a subscription's target keeps failing, so that an operator can act (the retry schedule
 * itself never changes for it). Every attempt that was sent moves the subscription's health columns
 * on (deliver-attempt.ts, in the statement that records the attempt): the last success, the last
 * failure, and the failures since the last success. What is measured runs from the last success,
 * or from the registration when none succeeded yet (`measuredSince`).
 *
 * - `failing` ("keeps failing"): at least FAILING_MIN_FAILURES attempts failed and none succeeded
 *   for FAILING_AFTER_MS: as many failures as one delivery's attempts, over an hour. One failure
 *   ten seconds after registering is not a target that keeps failing
 *   (docs/decisions/portals.md#say-what-it-means).
 * - `recovering` (recent failures): the latest attempts failed, not (yet) as many or as long.
 * - `healthy`: the latest attempt succeeded.
 * - `unknown`: no attempt yet.
 */
export const FAILING_AFTER_MS = 60 * 60_000;
export const FAILING_MIN_FAILURES = 5;
/** The "keeps failing" warning is logged at most this often per subscription. */
export const FAILING_WARNING_EVERY_MS = 60 * 60_000;

export type TargetHealthState = "failing" | "recovering" | "healthy" | "unknown";

export type HealthColumns = { createdAt: Date; lastSuccessAt: Date | null; lastFailureAt: Date | null; failuresSinceSuccess: number };

/** Where the failures since the last success are counted from: the last success, else the registration. */
export const measuredSince = (h: Pick<HealthColumns, "createdAt" | "lastSuccessAt">): Date => h.lastSuccessAt ?? h.createdAt;

/** The one rule for a target's health state (deliver-attempt.ts's warning applies it in SQL). */
export function targetHealthState(h: HealthColumns, now = new Date()): TargetHealthState {
  if (h.failuresSinceSuccess > 0) {
    const long = now.getTime() - measuredSince(h).getTime() >= FAILING_AFTER_MS;
    return long && h.failuresSinceSuccess >= FAILING_MIN_FAILURES ? "failing" : "recovering";
  }
  return h.lastSuccessAt === null ? "unknown" : "healthy";
}

export type TargetHealth = HealthColumns & {
  subscriptionId: string;
  pharmacyId: string | null;
  notificationType: string;
  target: string;
  state: TargetHealthState;
};

/** The health of the live subscriptions of these pharmacies, failing ones first, then by registration. */
export async function pharmacyTargetHealth(pharmacyIds: string[], now = new Date()): Promise<TargetHealth[]> {
  if (pharmacyIds.length === 0) return [];
  return targetHealth({ scope: "PHARMACY", pharmacyId: { in: pharmacyIds } }, now);
}

/** The health of the organisation's live organisation-level subscriptions (the admin tool), failing ones first. */
export async function organisationTargetHealth(organisationId: string, now = new Date()): Promise<TargetHealth[]> {
  return targetHealth({ scope: "ORGANISATION", organisationId, pharmacyId: null }, now);
}

async function targetHealth(where: Prisma.WebhookSubscriptionWhereInput, now: Date): Promise<TargetHealth[]> {
  const db = await database();
  const rows = await db.webhookSubscription.findMany({
    where: { ...where, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      pharmacyId: true,
      notificationType: true,
      target: true,
      createdAt: true,
      lastSuccessAt: true,
      lastFailureAt: true,
      failuresSinceSuccess: true,
    },
  });
  const rank: Record<TargetHealthState, number> = { failing: 0, recovering: 1, unknown: 2, healthy: 3 };
  return rows
    .map(({ id, ...r }) => ({ subscriptionId: id, ...r, state: targetHealthState(r, now) }))
    .sort((a, b) => rank[a.state] - rank[b.state]);
}
