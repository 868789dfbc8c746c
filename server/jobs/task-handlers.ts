import { sendQueuedMail } from "@/server/domain/mail/send-mail";
import { createPayoutRoute } from "@/server/domain/payouts/create-route";
import { deleteShopifyDraftOrder } from "@/server/domain/shopify/draft-orders";
import { pushTrackingToShopify } from "@/server/domain/shopify/push-tracking";
import { routeWaitingFulfillments } from "@/server/domain/orders/route-waiting";
import { sendPrescriptionToPharmacy } from "@/server/domain/prescriptions/send-to-pharmacy";
import { pushPassUpdate } from "@/server/domain/wallet-passes/push-pass-update";
import { sendPushNotification } from "@/server/domain/wallet-passes/send-notification";
import type { TaskPayload } from "@/server/domain/tasks/enqueue";
import type { TaskHandlers } from "@/server/domain/tasks/attempt";

function prescriptionIdOf(payload: TaskPayload): string {
  const id = payload.prescriptionId;
  if (typeof id !== "string" || id === "") throw new Error("The task's payload has no prescriptionId.");
  return id;
}

/**
 * What each background task does (the spec's internal events). Every handler is idempotent: a task
 * runs at least once, and again after a failure, a crash or a lost lease, so a repeat must find
 * its work done and change nothing (or redo it with the same result).
 */
export const TASK_HANDLERS: TaskHandlers = {
  // Loaded on first use: the PDF renderer takes about a second to load and most processes never render.
  "prescription.render": async (payload) => {
    const prescriptionId = prescriptionIdOf(payload);
    const { renderPrescriptionPdf } = await import("@/server/domain/prescriptions/render-pdf");
    await renderPrescriptionPdf(prescriptionId);
  },
  "pharmacy_manager.send_prescription": async (payload) => {
    await sendPrescriptionToPharmacy(prescriptionIdOf(payload));
  },
  "orders.route_waiting": async (payload) => {
    const id = payload.organisationId;
    if (typeof id !== "string" || id === "") throw new Error("The task's payload has no organisationId.");
    await routeWaitingFulfillments(id);
  },
  "wallet_pass.push_notification": async (payload, attempt) => {
    const id = payload.notificationId;
    if (typeof id !== "string" || id === "") throw new Error("The task's payload has no notificationId.");
    await sendPushNotification(id, attempt);
  },
  "wallet_pass.updated": async (payload) => {
    const id = payload.walletPassId;
    if (typeof id !== "string" || id === "") throw new Error("The task's payload has no walletPassId.");
    await pushPassUpdate(id);
  },
  "mail.send": async (payload, attempt) => {
    const id = payload.mailId;
    if (typeof id !== "string" || id === "") throw new Error("The task's payload has no mailId.");
    await sendQueuedMail(id, attempt);
  },
  "payout.create_route": async (payload, attempt) => {
    const id = payload.payoutId;
    if (typeof id !== "string" || id === "") throw new Error("The task's payload has no payoutId.");
    await createPayoutRoute(id, attempt);
  },
  "shopify.push_tracking": async (payload) => {
    await pushTrackingToShopify(payload);
  },
  "shopify.delete_draft_order": async (payload) => {
    await deleteShopifyDraftOrder(payload);
  },
};
