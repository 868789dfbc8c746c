/** The admin tool's shapes of orders: camelCase, uids, dates as Unix seconds, money in minor units. */
import type { Address } from "@/server/domain/orders/intake";
import type { AdminOrderDetail } from "@/server/domain/orders/order-detail";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import { overallStatus } from "@/server/domain/pharmacy-orders/order-status";
import { PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { isoDateOrNull, unix, unixOrNull } from "@/server/wire/format";
import { presentAddress } from "./pharmacy-orders.presenters";

type OrderRow = OrderWithGraph;

/**
 * When the order last changed as a person sees it: the latest of the order's own update and its
 * pharmacy orders' (the order's status stays "waiting for pharmacy" while the pharmacy moves its
 * pharmacy order on). docs/decisions/portals.md#say-what-it-means
 */
function lastChangeAt(order: { updatedAt: Date; fulfillments: { pharmacyOrder: { updatedAt: Date } | null }[] }): number {
  let latest = order.updatedAt.getTime();
  for (const f of order.fulfillments) if (f.pharmacyOrder) latest = Math.max(latest, f.pharmacyOrder.updatedAt.getTime());
  return unix(new Date(latest));
}

export function presentOrderRow(row: OrderRow) {
  return {
    uid: row.id,
    name: row.name,
    externalId: row.externalId,
    status: row.status,
    overallStatus: overallStatus(row),
    onHold: row.onHold,
    /** What the pharmacies are doing: the statuses of the order's pharmacy orders, one per fulfillment at a pharmacy. */
    pharmacyOrderStatuses: row.fulfillments.flatMap((f) => (f.pharmacyOrder ? [f.pharmacyOrder.status] : [])),
    customerEmail: row.customerEmail,
    shop: row.shopOrder ? row.shopOrder.shop.identifier : null,
    fulfillmentCount: row.fulfillments.length,
    itemCount: row.items.reduce((sum, i) => sum + i.quantity, 0),
    createdAt: unix(row.createdAt),
    lastChangeAt: lastChangeAt(row),
  };
}

export function presentOrderDetail(order: AdminOrderDetail) {
  return {
    uid: order.id,
    name: order.name,
    externalId: order.externalId,
    status: order.status,
    overallStatus: overallStatus({ ...order, fulfillments: order.fulfillments.map((f) => ({ status: f.status, pharmacyOrder: f.pharmacyOrder })) }),
    onHold: order.onHold,
    holdComment: order.onHold ? order.holdComment : null,
    priority: order.priority,
    customerEmail: order.customerEmail,
    patient: { uid: order.patient.id, displayName: order.patient.displayName, email: order.patient.email, dateOfBirth: isoDateOrNull(order.patient.dateOfBirth) },
    shopOrder: order.shopOrder ? { name: order.shopOrder.name, externalId: order.shopOrder.externalId, shop: order.shopOrder.shop.displayName } : null,
    deliveryAddress: presentAddress(order.deliveryAddress as Address),
    invoiceAddress: presentAddress(order.invoiceAddress as Address),
    shippingCost: order.shippingCostAmount === null ? null : { amount: order.shippingCostAmount, currency: order.shippingCostCurrency ?? "EUR" },
    createdAt: unix(order.createdAt),
    updatedAt: unix(order.updatedAt),
    lastChangeAt: lastChangeAt(order),
    fulfillments: order.fulfillments.map((f) => ({
      uid: f.id,
      externalId: f.externalId,
      status: f.status,
      createdAt: unix(f.createdAt),
      cancelledAt: unixOrNull(f.cancelledAt),
      items: order.items
        .filter((i) => i.fulfillmentId === f.id)
        .map((i) => ({
          uid: i.id,
          externalId: i.externalId,
          sku: { displayName: i.sku.displayName, pzn: i.sku.pzn },
          quantity: i.quantity,
          totalPaid: { amount: i.totalPaidAmount, currency: i.totalPaidCurrency },
          status: i.status,
          prescriptionUid: i.prescriptionId,
        })),
      pharmacyOrder: f.pharmacyOrder
        ? {
            uid: f.pharmacyOrder.id,
            name: f.pharmacyOrder.name,
            status: f.pharmacyOrder.status,
            pharmacy: { uid: f.pharmacyOrder.pharmacy.id, displayName: f.pharmacyOrder.pharmacy.displayName },
            openThreadUids: f.pharmacyOrder.issueThreads.map((t) => t.id),
            routing: f.pharmacyOrder.routing,
            createdAt: unix(f.pharmacyOrder.createdAt),
            history: presentHistory(order, f.pharmacyOrder.id),
            shipments: f.pharmacyOrder.shipments.map((s) => ({
              uid: s.id,
              sequenceNumber: s.sequenceNumber,
              trackingUrl: s.trackingUrl,
              trackingNumber: s.trackingNumber,
              carrierName: s.carrierName,
              createdAt: unix(s.createdAt),
            })),
            payouts: f.pharmacyOrder.payouts.map((p) => ({
              uid: p.id,
              status: p.status === "ROUTED" ? "routed" : "projected",
              amount: p.amount,
              currency: p.currency,
              componentType: p.componentType,
              routedAt: unixOrNull(p.routingCreatedAt),
              review: p.reviewReason,
            })),
          }
        : null,
      /** Pharmacy orders a pharmacy gave back (cancelled, no longer the fulfillment's active one). */
      earlierPharmacyOrders: f.pharmacyOrders.map((po) => ({
        uid: po.id,
        name: po.name,
        status: po.status,
        routing: po.routing,
        pharmacy: { uid: po.pharmacy.id, displayName: po.pharmacy.displayName },
        createdAt: unix(po.createdAt),
        history: presentHistory(order, po.id),
      })),
      /** An admin may route it to a pharmacy by hand now (handRoutingRefusal). */
      routable: order.routable.has(f.id),
    })),
    prescriptions: order.prescriptions.map((p) => ({
      uid: p.id,
      status: p.status,
      source: p.source,
      doctor: p.doctor?.displayName ?? null,
      signedAt: unixOrNull(p.signedAt),
      createdAt: unix(p.createdAt),
      hasFile: Boolean(p.signedFileKey || p.renderedFileKey),
    })),
  };
}

/** A pharmacy order's history entries as the order page lists them. */
function presentHistory(order: AdminOrderDetail, pharmacyOrderId: string) {
  return (order.histories.get(pharmacyOrderId) ?? []).map((h) => ({
    uid: h.id,
    fromStatus: h.fromStatus,
    toStatus: h.toStatus,
    isStatusChange: (PHARMACY_ORDER_STATUSES as readonly string[]).includes(h.toStatus),
    comment: h.comment,
    /** Who, as the pharmacy portal's history gives it: the page words it ("von … (API-Schlüssel)"). */
    actor: h.actor.type === "SYSTEM" ? { type: "SYSTEM" as const, displayName: null } : { type: h.actor.type, displayName: h.actor.displayName },
    createdAt: unix(h.createdAt),
  }));
}

export type AdminOrderDetailView = ReturnType<typeof presentOrderDetail>;
export type AdminOrderRow = ReturnType<typeof presentOrderRow>;
