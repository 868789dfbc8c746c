import { database } from "@/server/db/client";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { shopOfOrganisation } from "./shops";

/** Shopify's fulfillment status words, from the prescription's pharmacy orders (docs/decisions/intake.md#storefront-products-stock-reservations-order-status). */
export type FulfillmentStatus = "unfulfilled" | "partial" | "fulfilled" | "cancelled";

export type PrescriptionOrderStatus = {
  prescriptionId: string;
  orderStatus: string;
  fulfillmentStatus: FulfillmentStatus;
  trackingNumber: string | null;
  trackingUrl: string | null;
  createdAt: Date;
  fulfilledAt: Date | null;
  lineItems: { skuId: string; displayName: string; quantity: number }[];
};

/**
 * The status of the orders of these prescriptions, for the shop's storefront. Only prescriptions of
 * the organisation whose order was placed through this shop are answered; the others are left out,
 * exactly like unknown uids, so uids of other shops cannot be probed. In the order of `uids`.
 *
 * The prescription's pharmacy orders are those holding its items. fulfillment_status: cancelled
 * when all of them are cancelled; fulfilled when every live one is completed (fulfilled_at: the
 * last completion); partial when some are; else unfulfilled. Tracking: the latest shipment of them.
 */
export async function prescriptionOrderStatuses(
  organisationId: string,
  shopIdentifier: string,
  uids: readonly string[],
): Promise<PrescriptionOrderStatus[]> {
  const db = await database();
  const shop = await shopOfOrganisation(db, organisationId, shopIdentifier);
  const [prescriptions, pharmacyOrders] = await Promise.all([
    db.prescription.findMany({
      where: { id: { in: [...uids] }, organisationId, deletedAt: null, order: { shopOrder: { shopId: shop.id } } },
      select: {
        id: true,
        order: { select: { status: true, createdAt: true } },
        orderItems: {
          where: { status: { not: "CANCELLED" } },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          select: { skuId: true, quantity: true, sku: { select: { displayName: true } } },
        },
      },
    }),
    db.pharmacyOrder.findMany({
      where: { organisationId, items: { some: { orderItem: { prescriptionId: { in: [...uids] } } } } },
      select: {
        status: true,
        completedAt: true,
        items: { select: { orderItem: { select: { prescriptionId: true } } } },
        shipments: { orderBy: [{ createdAt: "desc" }, { sequenceNumber: "desc" }], take: 1, select: { trackingNumber: true, trackingUrl: true, createdAt: true } },
      },
    }),
  ]);
  const byId = new Map(prescriptions.map((p) => [p.id, p]));
  return [...new Set(uids)].flatMap((uid) => {
    const prescription = byId.get(uid);
    if (!prescription?.order) return [];
    const orders = pharmacyOrders.filter((po) => po.items.some((i) => i.orderItem.prescriptionId === uid));
    const live = orders.filter((po) => po.status !== PHARMACY_ORDER_STATUS.cancelled);
    const completed = live.filter((po) => po.status === PHARMACY_ORDER_STATUS.completed);
    const fulfillmentStatus: FulfillmentStatus =
      orders.length > 0 && live.length === 0
        ? "cancelled"
        : live.length > 0 && completed.length === live.length
          ? "fulfilled"
          : completed.length > 0
            ? "partial"
            : "unfulfilled";
    const completions = completed.flatMap((po) => (po.completedAt ? [po.completedAt] : []));
    const shipment = live
      .flatMap((po) => po.shipments)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    return [
      {
        prescriptionId: uid,
        orderStatus: prescription.order.status,
        fulfillmentStatus,
        trackingNumber: shipment?.trackingNumber ?? null,
        trackingUrl: shipment?.trackingUrl ?? null,
        createdAt: prescription.order.createdAt,
        fulfilledAt: fulfillmentStatus === "fulfilled" && completions.length > 0 ? new Date(Math.max(...completions.map((d) => d.getTime()))) : null,
        lineItems: prescription.orderItems.map((i) => ({ skuId: i.skuId, displayName: i.sku.displayName, quantity: i.quantity })),
      },
    ];
  });
}
