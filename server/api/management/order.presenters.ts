import { z } from "zod";
import { statusField, unix, unixField } from "@/server/wire/format";
import { overallStatus } from "@/server/domain/pharmacy-orders/order-status";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { PRESCRIPTION_STATUSES, presentedStatus } from "@/server/domain/prescriptions/statuses";

export const managementOrderSchema = z.object({
  uid: z.string(),
  status: statusField(Object.values(ORDER_STATUS)),
  overall_status: statusField(["pending", "in_progress", "on_hold", "completed", "cancelled"]),
  created_at: unixField(),
  updated_at: unixField(),
  shop_order: z
    .object({ uid: z.string(), external_id: z.string(), shop: z.object({ uid: z.string(), identifier: z.string() }) })
    .nullable(),
  items: z.array(
    z.object({
      uid: z.string(),
      sku_uid: z.string(),
      sku_display_name: z.string(),
      sku_pzn: z.string().nullable(),
      amount: z.number().int(),
      prescription_uid: z.string().nullable().optional().describe("Only with the permission prescription:read"),
    }),
  ),
  fulfillment_orders: z.array(
    z.object({
      uid: z.string(),
      status: z.string(),
      external_id: z.string(),
      items: z.array(z.object({ uid: z.string(), order_item_uid: z.string(), status: z.string(), amount: z.number().int() })),
    }),
  ),
  prescriptions: z
    .array(
      z.object({
        uid: z.string(),
        status: statusField(PRESCRIPTION_STATUSES),
        doctor_uid: z.string().nullable(),
        doctor_name: z.string().nullable(),
      }),
    )
    .describe("Empty without the permission prescription:read"),
});

/** The Management order. Without prescription:read, prescriptions is [] and items lose prescription_uid. */
export function presentManagementOrder(order: OrderWithGraph, canReadPrescriptions: boolean): z.infer<typeof managementOrderSchema> {
  return {
    uid: order.id,
    status: order.status,
    overall_status: overallStatus(order),
    created_at: unix(order.createdAt),
    updated_at: unix(order.updatedAt),
    shop_order: order.shopOrder
      ? {
          uid: order.shopOrder.id,
          external_id: order.shopOrder.externalId,
          shop: { uid: order.shopOrder.shop.id, identifier: order.shopOrder.shop.identifier },
        }
      : null,
    items: order.items.map((item) => ({
      uid: item.id,
      sku_uid: item.skuId,
      sku_display_name: item.sku.displayName,
      sku_pzn: item.sku.pzn,
      amount: item.quantity,
      ...(canReadPrescriptions ? { prescription_uid: item.prescriptionId } : {}),
    })),
    fulfillment_orders: order.fulfillments.map((f) => ({
      uid: f.id,
      status: f.status,
      external_id: f.externalId,
      items: f.items.map((item) => ({ uid: item.id, order_item_uid: item.id, status: item.status, amount: item.quantity })),
    })),
    prescriptions: canReadPrescriptions
      ? order.prescriptions.map((p) => ({
          uid: p.id,
          status: presentedStatus(p.status),
          doctor_uid: p.doctor?.id ?? null,
          doctor_name: p.doctor?.displayName ?? null,
        }))
      : [],
  };
}
