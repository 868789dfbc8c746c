import { database, type Db } from "@/server/db/client";
import { Prisma } from "@/server/db/generated/client";
import type { Actor } from "@/server/domain/actor";
import { completeLockedPharmacyOrder, type TrackingLink } from "@/server/domain/pharmacy-orders/complete";
import { cancelAsPharmacy } from "@/server/domain/pharmacy-orders/reroute";
import { lockPharmacyOrder } from "@/server/domain/pharmacy-orders/lock";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { log } from "@/server/log";
import { UNKNOWN, type PharmacySystemConnector, type PharmacySystemReport } from "./connector";
import { connectorFor as defaultConnectorFor } from "./registry";

const SYSTEM: Actor = { type: "SYSTEM" };
/**
 * Completed orders are asked for this long after their completion (the status table's "any": a
 * system may report one cancelled); older ones are settled, and asking about every order ever
 * completed would grow each run without bound.
 */
export const COMPLETED_CHECK_DAYS = 30;

/** Where a run stopped: the last order it looked at, in (createdAt, id) order. */
export type StatusCheckCursor = { createdAt: Date; id: string };

export type StatusCheckOptions = {
  /** Orders created after this instant are left to the next run. Default: the time of the call. */
  now?: Date;
  /** Orders read and asked per batch (default 100). */
  batchSize?: number;
  /** At most this many orders per run (default 1000); the returned cursor says where to go on. */
  maxOrders?: number;
  /** Requests to pharmacy systems in flight at once (default 5). */
  concurrency?: number;
  /** No new batch is started once this much time has passed since the run began (default: no limit). */
  timeBudgetMs?: number;
  /** Go on after this order (a previous run's cursor); null or absent: from the oldest open order. */
  after?: StatusCheckCursor | null;
  /** Builds a pharmacy's connector from its setting (default: the registry). */
  connectorFor?: (pharmacy: { id: string; systemConnector: unknown }) => PharmacySystemConnector | null;
};

export type StatusCheckSummary = {
  /** Orders whose pharmacy system was asked. */
  checked: number;
  completed: number;
  cancelled: number;
  /** The system reports the order still in work. */
  open: number;
  /** No usable answer (error, garbage, timeout): nothing changed. */
  unknown: number;
  /** Not asked: the system's address was refused by the outgoing-request guard (logged as blocked_target). */
  blocked: number;
  /** Completed or cancelled meanwhile by someone else: nothing changed. */
  skipped: number;
  /** A completed order its system still reports shipped or completed: nothing to do. */
  unchanged: number;
  /** Our own change failed (logged); the next run tries again. */
  failed: number;
  /** Set when the run stopped at maxOrders or its time budget: pass it as `after` to the next run. Null: every open order was checked. */
  cursor: StatusCheckCursor | null;
};

type Candidate = Prisma.PharmacyOrderGetPayload<{ select: typeof candidateSelect }>;

const candidateSelect = {
  id: true,
  name: true,
  status: true,
  externalStatus: true,
  createdAt: true,
  pharmacyId: true,
  pharmacy: { select: { id: true, systemConnector: true } },
} as const satisfies Prisma.PharmacyOrderSelect;

/**
 * The automatic status check (spec, pharmacy order status table, "any"): every pharmacy order but a
 * cancelled one (completed ones for COMPLETED_CHECK_DAYS after their completion) of a pharmacy with
 * a connected system, oldest first, is looked up in that system; a completed one can only become
 * cancelled (a cancellation after completion: payouts flagged, stock kept). shipped or completed completes the order exactly like complete_order (stock
 * reduced with a movement and pharmacy_sku_stock_updated per pharmacy SKU, payouts routed,
 * pharmacy_order_updated; a reported tracking URL becomes the shipment); cancelled cancels it
 * (pharmacy_order_updated). Each change runs in its own transaction under the order's row lock and
 * re-reads the status there, so an order completed or cancelled meanwhile is left alone and stock
 * is never reduced twice. The systems are asked outside any transaction; what they answer is
 * applied one order after the other.
 *
 * A system that fails to answer never stops the run: its orders count as unknown and are asked
 * again next time. Work per run is bounded by `maxOrders` and `timeBudgetMs`; the cursor lets the
 * next run go on from there, so the newest orders are not starved when there are many.
 */
export async function checkPharmacyOrderStatuses(options: StatusCheckOptions = {}): Promise<StatusCheckSummary> {
  const db = await database();
  const now = options.now ?? new Date();
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const maxOrders = Math.max(1, options.maxOrders ?? 1000);
  const concurrency = Math.max(1, options.concurrency ?? 5);
  const buildConnector = options.connectorFor ?? defaultConnectorFor;
  const deadline = options.timeBudgetMs === undefined ? Infinity : Date.now() + options.timeBudgetMs;
  const connectors = new Map<string, PharmacySystemConnector | null>();
  const connectorOf = (pharmacy: Candidate["pharmacy"]) => {
    if (!connectors.has(pharmacy.id)) connectors.set(pharmacy.id, buildConnector(pharmacy));
    return connectors.get(pharmacy.id) ?? null;
  };

  const summary: StatusCheckSummary = { checked: 0, completed: 0, cancelled: 0, open: 0, unknown: 0, blocked: 0, skipped: 0, unchanged: 0, failed: 0, cursor: null };
  const completedSince = new Date(now.getTime() - COMPLETED_CHECK_DAYS * 86_400_000);
  let cursor = options.after ?? null;
  let seen = 0;
  for (;;) {
    const take = Math.min(batchSize, maxOrders - seen);
    const batch = await db.pharmacyOrder.findMany({
      where: {
        createdAt: { lte: now },
        pharmacy: { systemConnector: { not: Prisma.AnyNull } },
        AND: [
          {
            OR: [
              { status: { notIn: [PHARMACY_ORDER_STATUS.completed, PHARMACY_ORDER_STATUS.cancelled] } },
              { status: PHARMACY_ORDER_STATUS.completed, completedAt: { gte: completedSince } },
            ],
          },
          cursor ? { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] } : {},
        ],
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take,
      select: candidateSelect,
    });
    const asked = batch.map((order) => ({ order, connector: connectorOf(order.pharmacy) })).filter((a) => a.connector);
    const reports = await mapLimit(asked, concurrency, ({ order, connector }) => ask(connector!, order));
    for (const [i, { order }] of asked.entries()) {
      summary.checked += 1;
      const outcome = await apply(db, order, reports[i]);
      summary[outcome] += 1;
    }
    seen += batch.length;
    const last = batch.at(-1);
    if (last) cursor = { createdAt: last.createdAt, id: last.id };
    if (batch.length < take) return { ...summary, cursor: null };
    if (seen >= maxOrders || Date.now() >= deadline) return { ...summary, cursor };
  }
}

/** A connector's answer; a connector that throws despite its contract counts as unknown. */
async function ask(connector: PharmacySystemConnector, order: Candidate): Promise<PharmacySystemReport> {
  try {
    return await connector.fetchStatus({ uid: order.id, name: order.name, status: order.status, externalStatus: order.externalStatus });
  } catch (error) {
    log.error("pharmacy system connector threw", { pharmacyId: order.pharmacyId, pharmacyOrderId: order.id, connector: connector.type, error });
    return UNKNOWN;
  }
}

type Outcome = "completed" | "cancelled" | "open" | "unknown" | "blocked" | "skipped" | "unchanged" | "failed";

async function apply(db: Db, candidate: Candidate, report: PharmacySystemReport): Promise<Outcome> {
  if (report.status === "open" || report.status === "unknown" || report.status === "blocked") return report.status;
  const wasCompleted = candidate.status === PHARMACY_ORDER_STATUS.completed;
  if (wasCompleted && report.status !== "cancelled") return "unchanged";
  try {
    return await db.$transaction(async (tx): Promise<Outcome> => {
      const order = await lockPharmacyOrder(tx, candidate.pharmacyId, candidate.id);
      // Someone else cancelled it, or completed it, since we read it: their change stands (the next run asks again).
      if (order.status === PHARMACY_ORDER_STATUS.cancelled) return "skipped";
      if (order.status === PHARMACY_ORDER_STATUS.completed && !wasCompleted) return "skipped";
      if (report.status === "cancelled") {
        // The pharmacy cancelled it in its own system: its own cancellation, so the fulfillment may be re-routed.
        await cancelAsPharmacy(tx, order, SYSTEM, "Cancelled in the pharmacy system (automatic status check).");
        return "cancelled";
      }
      const trackingLinks: TrackingLink[] = report.trackingUrl
        ? [{ trackingLink: report.trackingUrl, carrier: report.carrier ?? "Other" }]
        : [];
      await completeLockedPharmacyOrder(tx, order, trackingLinks, SYSTEM);
      return "completed";
    });
  } catch (error) {
    log.error("automatic status check could not apply the pharmacy system's status", {
      pharmacyId: candidate.pharmacyId,
      pharmacyOrderId: candidate.id,
      reported: report.status,
      error,
    });
    return "failed";
  }
}

/** `work` over `items` with at most `limit` in flight; results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
