import type { Tx } from "@/server/db/client";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { refreshOrderStatus } from "@/server/domain/pharmacy-orders/order-status";
import { AWAITING_DOCTOR_STATUSES, PRESCRIPTION_STATUS, SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "./statuses";

/** Order statuses an order reaches through its prescriptions (public order statuses, gaps-reference G10). */
export const ORDER_STATUS_AFTER_DOCTOR = {
  prescriptionDeclined: ORDER_STATUS.prescriptionDeclined,
  pharmacyNotFound: ORDER_STATUS.pharmacyNotFound,
} as const;

const WAITING_ON_PRESCRIPTIONS: string[] = [
  ORDER_STATUS.waitingForDoctor,
  ORDER_STATUS_AFTER_DOCTOR.prescriptionDeclined,
  ORDER_STATUS_AFTER_DOCTOR.pharmacyNotFound,
];

/**
 * Moves an order on after one of its prescriptions changed (the caller holds the order's lock).
 * An order on hold keeps its status. While a prescription of a live item still needs a doctor
 * (waiting for doctor, ON_HOLD, approved) the order is "waiting for doctor". Otherwise: an open
 * fulfillment whose prescriptions are all signed but that has no pharmacy order (sending found no
 * pharmacy that can serve it; callers run this after sending) makes it "pharmacy not found"; an
 * order whose every fulfillment is cancelled after a decline is "prescription declined"; else its
 * status follows its fulfillments as usual (refreshOrderStatus: waiting for pharmacy, completed, …).
 */
export async function progressOrderAfterPrescription(tx: Tx, orderId: string): Promise<void> {
  const order = await tx.order.findUniqueOrThrow({
    where: { id: orderId },
    select: { status: true, onHold: true, fulfillments: { select: { status: true } } },
  });
  if (order.onHold || order.status === ORDER_STATUS.paused) return;
  const setStatus = async (status: string) => {
    if (status !== order.status) await tx.order.update({ where: { id: orderId }, data: { status } });
  };
  const awaitingDoctor = await tx.prescription.count({
    where: {
      orderId,
      deletedAt: null,
      status: { in: storedSpellings(AWAITING_DOCTOR_STATUSES) },
      orderItems: { some: { status: { not: "CANCELLED" } } },
    },
  });
  if (awaitingDoctor > 0) return setStatus(ORDER_STATUS.waitingForDoctor);
  // Signed and ready, yet no pharmacy order: sending found no pharmacy that can serve it.
  const stranded = await tx.fulfillment.count({
    where: {
      orderId,
      status: { not: "CANCELLED" },
      pharmacyOrder: null,
      items: {
        some: { status: { not: "CANCELLED" }, prescriptionId: { not: null }, sku: { skipForPharmacyOrders: false } },
        none: { prescription: { status: { notIn: [...SIGNED_PRESCRIPTION_STATUSES] } } },
      },
    },
  });
  if (stranded > 0) return setStatus(ORDER_STATUS_AFTER_DOCTOR.pharmacyNotFound);
  const live = order.fulfillments.filter((f) => f.status !== "CANCELLED");
  if (live.length === 0) {
    const declined = await tx.prescription.count({ where: { orderId, deletedAt: null, status: PRESCRIPTION_STATUS.declined } });
    if (declined > 0) return setStatus(ORDER_STATUS_AFTER_DOCTOR.prescriptionDeclined);
  }
  // refreshOrderStatus keeps "waiting for doctor": step out of it first, then let it decide.
  if (WAITING_ON_PRESCRIPTIONS.includes(order.status)) await tx.order.update({ where: { id: orderId }, data: { status: ORDER_STATUS.started } });
  await refreshOrderStatus(tx, orderId);
}
