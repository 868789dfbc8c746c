import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { log } from "@/server/log";
import type { Wait } from "@/server/http/retry-after";
import { createMollieRoute, MOLLIE_CALL_MAX_MS, MollieCallError, mollieAmount } from "./mollie-api";
import { paymentConnectionOf } from "./payment-connection";

/** While a task holds a payout its request to Mollie runs (with its rate-limit retries, bounded by MOLLIE_CALL_MAX_MS). */
const LEASE_MS = MOLLIE_CALL_MAX_MS + 30_000;

export type RouteOutcome = "routed" | "failed" | "skipped" | "not_pending";

/**
 * Which Mollie payment an order was paid with (docs/decisions/payouts.md#split-payouts): order
 * intake's `additional_details.mollie_payment_id`, else a checkout's transaction id when it is a
 * Mollie payment id (tr_…).
 */
export function molliePaymentIdOf(additionalDetails: unknown): string | null {
  const details = (additionalDetails ?? {}) as { mollie_payment_id?: unknown; checkout?: { transaction?: { transaction_id?: unknown } | null } };
  const candidates = [details.mollie_payment_id, details.checkout?.transaction?.transaction_id];
  return (candidates.find((c) => typeof c === "string" && /^tr_[A-Za-z0-9]+$/.test(c)) as string | undefined) ?? null;
}

/**
 * Creates a routed payout's route at Mollie (the payout.create_route task) and stores its id as
 * provider_route_id. The row is claimed first by one conditional update (pending and not held), so
 * of two runners exactly one asks Mollie; the request's Idempotency-Key is the payout row's id, so
 * an attempt after a lost answer gets the first route back instead of a second one. A payout whose
 * pharmacy order was cancelled meanwhile is not sent (skipped; the cancellation flags the routed row
 * for review as before). Missing data (no connection, no organization id for the pharmacy, no payment
 * id on the order) and Mollie's 4xx refusals fail the row at once; 429, 5xx and lost answers are
 * thrown, so the task runner retries with its backoff, and after the last attempt the row is failed.
 * A failed row shows its reason in the admin tool, which can retry it (retryPayoutRoute).
 */
export async function createPayoutRoute(payoutId: string, attempt: { last: boolean } = { last: false }, wait?: Wait): Promise<RouteOutcome> {
  const db = await database();
  const [claimed] = await db.$queryRaw<{ pharmacyOrderId: string; receiverPharmacyId: string; amount: number; currency: string; componentType: string }[]>`
    UPDATE "Payout"
       SET "providerLeaseUntil" = now() + ${LEASE_MS} * interval '1 millisecond', "providerAttempts" = "providerAttempts" + 1
     WHERE "id" = ${payoutId} AND "providerRouting" = 'PENDING' AND ("providerLeaseUntil" IS NULL OR "providerLeaseUntil" < now())
 RETURNING "pharmacyOrderId", "receiverPharmacyId", "amount", "currency", "componentType"`;
  if (!claimed) {
    const current = await db.payout.findUnique({ where: { id: payoutId }, select: { providerRouting: true } });
    // Held by another attempt: this one comes back later and finds the route (or the holder gone).
    if (current?.providerRouting === "PENDING") throw new Error("The payout is being routed by another attempt.");
    return "not_pending";
  }

  const pending = { id: payoutId, providerRouting: "PENDING" as const };
  const finish = async (data: { providerRouting?: "ROUTED" | "FAILED" | "SKIPPED"; providerRouteId?: string; providerError: string | null }) => {
    await db.payout.updateMany({ where: pending, data: { ...data, providerLeaseUntil: null } });
  };

  const facts = await db.pharmacyOrder.findUniqueOrThrow({
    where: { id: claimed.pharmacyOrderId },
    select: { status: true, name: true, order: { select: { organisationId: true, additionalDetails: true } } },
  });
  if (facts.status === PHARMACY_ORDER_STATUS.cancelled) {
    await finish({ providerRouting: "SKIPPED", providerError: "The pharmacy order was cancelled before its route was created." });
    return "skipped";
  }
  const [connection, receiver] = await Promise.all([
    paymentConnectionOf(facts.order.organisationId),
    db.pharmacy.findUniqueOrThrow({ where: { id: claimed.receiverPharmacyId }, select: { mollieOrganizationId: true } }),
  ]);
  const paymentId = molliePaymentIdOf(facts.order.additionalDetails);
  const missing = !connection
    ? "No payment provider is connected."
    : !receiver.mollieOrganizationId
      ? "The receiving pharmacy has no Mollie organization id."
      : !paymentId
        ? "The order carries no Mollie payment id (additional_details.mollie_payment_id)."
        : null;
  if (missing) {
    await finish({ providerRouting: "FAILED", providerError: missing });
    return "failed";
  }

  try {
    const routeId = await createMollieRoute(
      connection!,
      paymentId!,
      {
        amount: mollieAmount(claimed.amount, claimed.currency),
        description: `Payout ${claimed.componentType} of pharmacy order ${facts.name ?? claimed.pharmacyOrderId}`.slice(0, 255),
        destination: { type: "organization", organizationId: receiver.mollieOrganizationId! },
      },
      payoutId,
      wait,
    );
    await finish({ providerRouting: "ROUTED", providerRouteId: routeId, providerError: null });
    return "routed";
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const retryable = !(error instanceof MollieCallError) || error.retryable;
    const final = !retryable || attempt.last;
    await finish({ ...(final ? { providerRouting: "FAILED" as const } : {}), providerError: message });
    log.warn(final ? "payout route failed" : "payout route not created; it will be retried", { payoutId, httpStatus: error instanceof MollieCallError ? error.httpStatus : null });
    if (!retryable) return "failed";
    throw error;
  }
}

/**
 * The admin tool's "Retry" of a failed route: pending again, with a new payout.create_route task
 * (same idempotency key: a route Mollie did make is returned, not made twice). Only failed rows; an
 * organisation's own rows only. Audited.
 */
export async function retryPayoutRoute(organisationId: string, actor: Actor, payoutId: string): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const payout = await tx.payout.findFirst({
      where: { id: payoutId, receiverPharmacy: { organisationId } },
      select: { pharmacyOrderId: true, componentType: true },
    });
    if (!payout) throw new NotFoundError("Payout not found");
    const changed = await tx.payout.updateMany({ where: { id: payoutId, providerRouting: "FAILED" }, data: { providerRouting: "PENDING", providerError: null } });
    if (changed.count !== 1) throw new ConflictError(errorText("payouts.notRetryable"), { code: "payout_not_failed" });
    await enqueueTask(tx, "payout.create_route", { payoutId });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "payout",
      entityId: payoutId,
      action: "retried",
      values: { component: payout.componentType, pharmacyOrder: payout.pharmacyOrderId },
      summary: `Payout route retried (${payout.componentType} of pharmacy order ${payout.pharmacyOrderId})`,
    });
  });
}
