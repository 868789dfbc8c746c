import { z } from "zod";
import { presentPharmacyOrderDetail } from "@/server/api/external-pharmacy/pharmacy-order.presenters";
import { presentPharmacySku, type PharmacySkuWithSku } from "@/server/api/external-pharmacy/pharmacy-sku.presenters";
import { managementOrderSchema, presentManagementOrder } from "@/server/api/management/order.presenters";
import { prescriptionSchema, presentPrescription } from "@/server/api/management/prescription.presenters";
import type { ShopOfSku } from "@/server/domain/catalogue/pharmacy-skus";
import type { OrderStatusChange } from "@/server/domain/events/order-events";
import { DOCTOR_ASSIGNMENT_REASONS, type PrescriptionChange } from "@/server/domain/events/prescription-events";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import type { PharmacyOrderDetail, PharmacyOrderFulfillment } from "@/server/domain/pharmacy-orders/queries";
import type { PrescriptionDetail } from "@/server/domain/prescriptions/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { PRESCRIPTION_STATUSES } from "@/server/domain/prescriptions/statuses";
import { statusField } from "@/server/wire/format";

/** The `data` of the webhook payloads, from the GET endpoints' presenters. */

/**
 * A pharmacy order's payload: the pharmacy's detail (pharmacy scope), or, given the fulfillment,
 * the organisation's (no prescription_file, shop ids on each sku, the fulfillment added).
 */
export function presentPharmacyOrderPayload(detail: PharmacyOrderDetail, fulfillment: PharmacyOrderFulfillment | null) {
  const presented = presentPharmacyOrderDetail(detail);
  const order = {
    ...presented.order,
    // Payload contract: always an integer, 0 when no shipping is charged.
    shipping_costs_amount: presented.shipping_costs_amount ?? 0,
    shipping_costs_currency: presented.shipping_costs_currency,
  };
  if (!fulfillment) return { ...presented, order };

  const { prescription_file: _omitted, ...withoutFile } = presented;
  const shopIds = new Map(
    fulfillment.items.map((item) => [
      item.id,
      { shop_variation_id: item.shopVariationId, shop_product_external_id: item.shopProductExternalId },
    ]),
  );
  const noShopIds = { shop_variation_id: null, shop_product_external_id: null };
  return {
    ...withoutFile,
    order,
    order_items: presented.order_items.map((item) => ({ ...item, sku: { ...item.sku, ...(shopIds.get(item.uid) ?? noShopIds) } })),
    fulfillment: {
      uid: fulfillment.id,
      external_id: fulfillment.externalId,
      status: fulfillment.status,
      items: fulfillment.items.map((item) => ({
        uid: item.id,
        order_item_uid: item.id,
        status: item.status,
        amount: item.quantity,
        sku: { uid: item.sku.id, display_name: item.sku.displayName, pzn: item.sku.pzn, ...shopIds.get(item.id)! },
      })),
    },
  };
}

/** A pharmacy SKU's payload: as the pharmacy sees it, or, given the shop, with the shop's ids and identifier. */
export function presentPharmacySkuPayload(row: PharmacySkuWithSku, shop: ShopOfSku | null) {
  const presented = presentPharmacySku(row);
  if (!shop) return presented;
  return {
    ...presented,
    sku: { ...presented.sku, shop_variation_id: shop.shopVariationId, shop_product_external_id: shop.shopProductExternalId },
    shop_identifier: shop.shopIdentifier,
  };
}

/** What an order_updated says happened (captured when the status changed, unlike the order beside it). */
export const orderStatusChangeSchema = z.object({
  from_status: statusField(Object.values(ORDER_STATUS)).describe("The order's status before the change"),
  to_status: statusField(Object.values(ORDER_STATUS)).describe("The status the change made (the order beside it shows the status at send time)"),
});

/** What a prescription_updated says happened. */
export const prescriptionChangeSchema = z.object({
  from_status: statusField(PRESCRIPTION_STATUSES),
  to_status: statusField(PRESCRIPTION_STATUSES).describe("The status the change made (the prescription beside it shows the status at send time)"),
  reason: z.string().nullable().describe("The note the change was made with: what a hold needs, why it was declined; null without one"),
  from_doctor_uid: z.string().nullable(),
  to_doctor_uid: z.string().nullable(),
  doctor_assignment_reason: z
    .enum(DOCTOR_ASSIGNMENT_REASONS)
    .nullable()
    .describe("Why the assigned doctor changed (decision: the doctor who decided was assigned; requeue: the admin team moved the doctor's pending prescriptions to the pool or to a colleague); null when the doctor did not change"),
});

/** The data of order_created (the order as GET /v1/management/orders/{uid} shows it) and of order_updated (plus change). */
export const orderCreatedDataSchema = managementOrderSchema;
export const orderUpdatedDataSchema = managementOrderSchema.extend({ change: orderStatusChangeSchema });
/** The data of prescription_created (as GET /v1/management/prescriptions/{uid} shows it) and of prescription_updated (plus change). */
export const prescriptionCreatedDataSchema = prescriptionSchema;
export const prescriptionUpdatedDataSchema = prescriptionSchema.extend({ change: prescriptionChangeSchema });

/**
 * An order event's payload: the Management order at send time, as a key with prescription:read sees
 * it (the subscription is the organisation's, not a key's), and for order_updated what changed.
 */
export function presentOrderPayload(order: OrderWithGraph, change: OrderStatusChange | null) {
  const presented = presentManagementOrder(order, true);
  return change ? { ...presented, change: { from_status: change.from_status, to_status: change.to_status } } : presented;
}

/** A prescription event's payload: the Management prescription at send time, and for prescription_updated what changed. */
export function presentPrescriptionPayload(prescription: PrescriptionDetail, change: PrescriptionChange | null) {
  const presented = presentPrescription(prescription);
  if (!change) return presented;
  // The recorded change is stored as jsonb (keys reordered): presented in the schema's order.
  return {
    ...presented,
    change: {
      from_status: change.from_status,
      to_status: change.to_status,
      reason: change.reason ?? null,
      from_doctor_uid: change.from_doctor_uid ?? null,
      to_doctor_uid: change.to_doctor_uid ?? null,
      doctor_assignment_reason: change.doctor_assignment_reason ?? null,
    },
  };
}
