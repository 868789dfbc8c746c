import { unix } from "@/server/wire/format";
import { overallStatus } from "@/server/domain/pharmacy-orders/order-status";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import { presentedStatus } from "@/server/domain/prescriptions/statuses";

/** The Management order. Without prescription:read, prescriptions is [] and items lose prescription_uid. */
export function presentManagementOrder(order: OrderWithGraph, canReadPrescriptions: boolean) {
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
