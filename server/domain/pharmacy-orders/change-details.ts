import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN } from "@/server/domain/orders/intake";
import {
  lockPharmacyOrderInScope,
  PHARMACY_ORDER_CHANGE,
  pharmacyOrderScopeWhere,
  recordOrderChangeOnPharmacyOrders,
  recordPharmacyOrderChange,
  type PharmacyOrderScope,
} from "./lock";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { DELIVERY_TYPES, isLivePharmacyOrderStatus, priorityChangeComment, type DeliveryType } from "./statuses";

const notInQueue = (status: string) => new BadRequestError(errorText("pharmacyOrders.notInQueue", { status }));

/**
 * The priority shown on a pharmacy order, changed in a portal. Priority belongs to the order
 * (`order.priority`, shown on every pharmacy order of it), so this changes the order's priority,
 * exactly like the Management order update: under the order's row lock, each live pharmacy order
 * of the order (neither cancelled nor completed, whichever pharmacy has it) gets `updatedAt` moved
 * on, a history entry ("order updated", naming who) and one pharmacy_order_updated
 * (recordOrderChangeOnPharmacyOrders, the one place for that rule).
 *
 * An integer from -1000 to 1000 (the Management API's range), else ValidationError on `priority`.
 * The pharmacy order named must be in scope (else NotFoundError) and live (else BadRequestError: a
 * priority means nothing to an order that left the queue). The same priority again changes nothing
 * and records nothing. Returns whether it changed.
 */
export async function changePharmacyOrderPriority(
  scope: PharmacyOrderScope,
  pharmacyOrderId: string,
  priority: number,
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<boolean> {
  const db = await database();
  if (!Number.isInteger(priority) || priority < ORDER_PRIORITY_MIN || priority > ORDER_PRIORITY_MAX) {
    throw ValidationError.field("priority", errorText("fields.integerBetween", { min: ORDER_PRIORITY_MIN, max: ORDER_PRIORITY_MAX }));
  }
  return db.$transaction(async (tx) => {
    // Read, not locked: the order is locked first, as every order-level command does (no lock-order inversion).
    const po = await tx.pharmacyOrder.findFirst({
      where: { id: pharmacyOrderId, ...pharmacyOrderScopeWhere(scope) },
      select: { status: true, orderId: true },
    });
    if (!po) throw new NotFoundError();
    const [order] = await tx.$queryRaw<{ priority: number }[]>`SELECT "priority" FROM "Order" WHERE "id" = ${po.orderId} FOR UPDATE`;
    // The priority under the order's lock; the pharmacy order's status as read (a status change does not lock the Order).
    assertOrderAsExpected({ status: po.status, priority: order.priority }, expected);
    if (!isLivePharmacyOrderStatus(po.status)) throw notInQueue(po.status);
    if (order.priority === priority) return false;
    await tx.order.update({ where: { id: po.orderId }, data: { priority } });
    await recordOrderChangeOnPharmacyOrders(tx, po.orderId, actor, priorityChangeComment(order.priority, priority));
    return true;
  });
}

/**
 * The delivery type of one pharmacy order (`shipping`, the default, or `pickup` at the pharmacy),
 * changed in a portal, in one transaction under the order's row lock: `updatedAt` moved on, a
 * history entry naming who ("delivery type changed", comment "shipping → pickup") and one
 * pharmacy_order_updated. Another value: ValidationError on `delivery_type`. Out of scope:
 * NotFoundError; cancelled or completed: BadRequestError. The same type again records nothing.
 * Returns whether it changed.
 */
export async function changePharmacyOrderDeliveryType(
  scope: PharmacyOrderScope,
  pharmacyOrderId: string,
  deliveryType: DeliveryType,
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<boolean> {
  const db = await database();
  if (!(DELIVERY_TYPES as readonly string[]).includes(deliveryType)) {
    throw ValidationError.field("delivery_type", errorText("fields.oneOf", { values: DELIVERY_TYPES.join(", ") }));
  }
  return db.$transaction(async (tx) => {
    const order = await lockPharmacyOrderInScope(tx, scope, pharmacyOrderId);
    const { deliveryType: current } = await tx.pharmacyOrder.findUniqueOrThrow({ where: { id: order.id }, select: { deliveryType: true } });
    assertOrderAsExpected({ status: order.status, deliveryType: current }, expected);
    if (!isLivePharmacyOrderStatus(order.status)) throw notInQueue(order.status);
    if (current === deliveryType) return false;
    await tx.pharmacyOrder.update({ where: { id: order.id }, data: { deliveryType } });
    await recordPharmacyOrderChange(tx, [order], PHARMACY_ORDER_CHANGE.deliveryTypeChanged, actor, `${current} → ${deliveryType}`);
    return true;
  });
}
