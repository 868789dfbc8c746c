import { randomUUID } from "node:crypto";
import { Prisma, type Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { NotFoundError } from "@/server/domain/errors";
import { outboxInsertSql, recordEvent } from "@/server/domain/events/outbox";
import { refreshOrderStatus } from "./order-status";
import { FINAL_PHARMACY_ORDER_STATUSES, PHARMACY_ORDER_CHANGE, PHARMACY_ORDER_STATUS, type PharmacyOrderChange, type PharmacyOrderStatus } from "./statuses";

export type LockedPharmacyOrder = { id: string; status: string; organisationId: string; pharmacyId: string; orderId: string };

/**
 * Whose pharmacy orders a caller may act on: a pharmacist's pharmacies (`pharmacyIds`, from
 * the pharmacy portal's door, `ctx.scope.pharmacyIds`, or a pharmacy key's one pharmacy) or an admin's whole organisation.
 * An order outside the scope is not found, exactly like one that does not exist.
 */
export type PharmacyOrderScope = { pharmacyIds: readonly string[] } | { organisationId: string };

function scopeCondition(scope: PharmacyOrderScope): Prisma.Sql | null {
  if ("organisationId" in scope) return Prisma.sql`"organisationId" = ${scope.organisationId}`;
  if (scope.pharmacyIds.length === 0) return null;
  return Prisma.sql`"pharmacyId" IN (${Prisma.join(scope.pharmacyIds)})`;
}

/** The same scope as a Prisma `where` on PharmacyOrder, for reads that need no lock. */
export function pharmacyOrderScopeWhere(scope: PharmacyOrderScope): Prisma.PharmacyOrderWhereInput {
  return "organisationId" in scope ? { organisationId: scope.organisationId } : { pharmacyId: { in: [...scope.pharmacyIds] } };
}

/**
 * Locks a pharmacy order within `scope` for the rest of the transaction (FOR UPDATE), so that
 * concurrent commands on one order run one after the other and each sees the other's result.
 * An order outside the scope is not found.
 *
 * The order the pharmacy order belongs to is locked first, in the same statement (the InitPlan of
 * `locked_order` runs before the pharmacy order's row is locked): every command takes the order,
 * then its pharmacy order, then stock rows, as the Management order changes do (lockOrder, then
 * this). The other way round, a PATCH status that updates the order's status after locking its
 * pharmacy order could deadlock with a fulfillment cancel; and two pharmacy orders of one order
 * completed at once could each miss the other and leave the order's status behind.
 */
export async function lockPharmacyOrderInScope(tx: Tx, scope: PharmacyOrderScope, pharmacyOrderId: string): Promise<LockedPharmacyOrder> {
  const condition = scopeCondition(scope);
  if (!condition) throw new NotFoundError();
  const [row] = await tx.$queryRaw<LockedPharmacyOrder[]>`
    WITH locked_order AS (
      SELECT o."id" FROM "Order" o
       WHERE o."id" = (SELECT "orderId" FROM "PharmacyOrder" WHERE "id" = ${pharmacyOrderId} AND ${condition})
         FOR UPDATE)
    SELECT "id", "status", "organisationId", "pharmacyId", "orderId" FROM "PharmacyOrder"
    WHERE "id" = ${pharmacyOrderId} AND ${condition} AND EXISTS (SELECT 1 FROM locked_order)
    FOR UPDATE`;
  if (!row) throw new NotFoundError();
  return row;
}

/** Locks a pharmacy order of `pharmacyId` (see lockPharmacyOrderInScope); another pharmacy's order is not found. */
export function lockPharmacyOrder(tx: Tx, pharmacyId: string, pharmacyOrderId: string): Promise<LockedPharmacyOrder> {
  return lockPharmacyOrderInScope(tx, { pharmacyIds: [pharmacyId] }, pharmacyOrderId);
}

/**
 * Sets the status, writes the history entry and records pharmacy_order_updated, in the caller's
 * transaction: one statement rather than three model writes (the PATCH status row of the orders
 * benchmark). updatedAt is
 * the statement's clock, not the transaction's start: under the row lock, a change that waited for
 * another is then also later in time. Not for cancelled: a cancellation also undoes what a
 * completion did, so it goes through cancelLockedPharmacyOrder (cancel.ts).
 */
export async function recordStatusChange(
  tx: Tx,
  order: LockedPharmacyOrder,
  toStatus: Exclude<PharmacyOrderStatus, typeof PHARMACY_ORDER_STATUS.cancelled>,
  actor: Actor,
  comment: string | null = null,
): Promise<void> {
  await writeStatusChange(tx, order, toStatus, actor, comment);
}

/** pharmacy_order_updated for an order whose state did not change (a re-sent status, a clarification on an order already on hold). */
export async function announcePharmacyOrderUpdate(tx: Tx, order: LockedPharmacyOrder): Promise<void> {
  await recordEvent(tx, { type: "pharmacy_order_updated", organisationId: order.organisationId, pharmacyId: order.pharmacyId, subjectId: order.id });
}

/** recordStatusChange for cancelled: cancelLockedPharmacyOrder (cancel.ts), and a resolved question returning a cancelled order to cancelled (resolve-issue-thread.ts). */
export async function recordCancelledStatus(tx: Tx, order: LockedPharmacyOrder, actor: Actor, comment: string | null): Promise<void> {
  await writeStatusChange(tx, order, PHARMACY_ORDER_STATUS.cancelled, actor, comment);
}

async function writeStatusChange(tx: Tx, order: LockedPharmacyOrder, toStatus: PharmacyOrderStatus, actor: Actor, comment: string | null): Promise<void> {
  const event = outboxInsertSql({ type: "pharmacy_order_updated", organisationId: order.organisationId, pharmacyId: order.pharmacyId, subjectId: order.id });
  await tx.$executeRaw`
    WITH "updated" AS (UPDATE "PharmacyOrder" SET "status" = ${toStatus}, "updatedAt" = clock_timestamp() WHERE "id" = ${order.id}),
         "history" AS (${historyInsertSql(order.id, order.status, toStatus, actor, comment)}),
         "event" AS (${event})
    SELECT 1`;
  await refreshOrderStatus(tx, order.orderId);
}

/** The INSERT of one PharmacyOrderHistory entry, for a statement that writes the change it records (stamped like its outbox event). */
export function historyInsertSql(
  pharmacyOrderId: string,
  fromStatus: string | null,
  toStatus: string,
  actor: Actor,
  comment: string | null = null,
): Prisma.Sql {
  const { actorType, actorApiKeyId, actorUserId } = actorColumns(actor);
  return Prisma.sql`INSERT INTO "PharmacyOrderHistory" ("id", "pharmacyOrderId", "fromStatus", "toStatus", "actorType", "actorApiKeyId", "actorUserId", "comment", "createdAt")
    VALUES (${randomUUID()}, ${pharmacyOrderId}, ${fromStatus}, ${toStatus}, ${actorType}::"ActorType", ${actorApiKeyId}, ${actorUserId}, ${comment}, clock_timestamp())`;
}

// The labels are vocabulary (statuses.ts), so that the portals can word them without this module.
export { PHARMACY_ORDER_CHANGE, type PharmacyOrderChange } from "./statuses";

/**
 * Records a change to pharmacy orders that is not a status change (a shipment, the delivery type,
 * the order's addresses or priority), in the caller's transaction: `updatedAt` moves on (the
 * payload's staleness key), one pharmacy_order_updated per order, and a history entry naming who
 * (keys and users; the system's own changes are not entered).
 */
export async function recordPharmacyOrderChange(
  tx: Tx,
  orders: readonly { id: string; organisationId: string; pharmacyId: string }[],
  change: PharmacyOrderChange,
  actor: Actor,
  comment: string | null = null,
): Promise<void> {
  if (orders.length === 0) return;
  await tx.pharmacyOrder.updateMany({ where: { id: { in: orders.map((o) => o.id) } }, data: { updatedAt: new Date() } });
  for (const po of orders) {
    await recordEvent(tx, { type: "pharmacy_order_updated", organisationId: po.organisationId, pharmacyId: po.pharmacyId, subjectId: po.id });
  }
  if (actor.type !== "SYSTEM") {
    await tx.pharmacyOrderHistory.createMany({
      data: orders.map((po) => ({ pharmacyOrderId: po.id, fromStatus: null, toStatus: change, comment, ...actorColumns(actor) })),
    });
  }
}

/**
 * Pharmacy orders show their order's addresses and priority, so a change of those is a change of
 * every live pharmacy order of it (neither cancelled nor completed): each gets the change recorded.
 * The one place for that rule (Management order update, portal priority change).
 */
export async function recordOrderChangeOnPharmacyOrders(tx: Tx, orderId: string, actor: Actor, comment: string | null = null): Promise<void> {
  const live = await tx.pharmacyOrder.findMany({
    where: { orderId, status: { notIn: [...FINAL_PHARMACY_ORDER_STATUSES] } },
    select: { id: true, organisationId: true, pharmacyId: true },
    orderBy: { id: "asc" },
  });
  await recordPharmacyOrderChange(tx, live, PHARMACY_ORDER_CHANGE.orderUpdated, actor, comment);
}
