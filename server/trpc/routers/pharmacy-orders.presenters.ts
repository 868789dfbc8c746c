/** The portal's shapes of pharmacy orders: camelCase, uids, dates as Unix seconds (numbers), money in minor units. */
import type { Address } from "@/server/domain/orders/intake";
import type { PharmacyOrderHistoryEntry, PharmacyOrderPortalDetail, PharmacyOrderQueueRow } from "@/server/domain/pharmacy-orders/queries";
import { canCompleteFrom, PHARMACY_ORDER_STATUSES, statusChangesFrom } from "@/server/domain/pharmacy-orders/statuses";
import { isoDateOrNull, unix, unixOrNull } from "@/server/wire/format";

/** A queue row as the page shows it. */
export function presentQueueEntry(row: PharmacyOrderQueueRow) {
  return {
    uid: row.id,
    name: row.name,
    status: row.status,
    shopOrderName: row.shopOrderName,
    pharmacy: { uid: row.pharmacy.id, displayName: row.pharmacy.displayName },
    customerName: `${row.customer.firstName} ${row.customer.lastName}`.trim(),
    city: `${row.customer.zipCode} ${row.customer.city}`.trim(),
    priority: row.priority,
    deliveryType: row.deliveryType,
    itemCount: row.items.reduce((sum, item) => sum + item.amount, 0),
    items: row.items.map((item) => `${item.amount} × ${item.displayName}`),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    unreadAnswer: row.unreadAnswer,
  };
}

export const presentAddress = (address: Address) => ({
  firstName: address.first_name,
  lastName: address.last_name,
  street: address.street,
  houseNumber: address.house_number,
  zipCode: address.zip_code,
  city: address.city,
  /** The ISO code: the portals name it in the reader's language (formatCountry). */
  country: address.country,
  additionalAddress: address.additional_address ?? null,
  province: address.province ?? null,
});

function presentHistoryEntry(entry: PharmacyOrderHistoryEntry) {
  return {
    uid: entry.id,
    fromStatus: entry.fromStatus,
    toStatus: entry.toStatus,
    /** A status (the first entry has no from-status); otherwise toStatus names another change ("shipment added", …). */
    isStatusChange: (PHARMACY_ORDER_STATUSES as readonly string[]).includes(entry.toStatus),
    comment: entry.comment,
    actor: entry.actor.type === "SYSTEM" ? { type: "SYSTEM" as const, displayName: null } : { type: entry.actor.type, displayName: entry.actor.displayName },
    createdAt: unix(entry.createdAt),
  };
}

export function presentPortalDetail(detail: PharmacyOrderPortalDetail) {
  return {
    uid: detail.id,
    name: detail.name,
    status: detail.status,
    externalStatus: detail.externalStatus,
    /** What the status select offers now (statuses.ts), and whether "Complete order" applies. */
    statusChanges: statusChangesFrom(detail.status),
    canComplete: canCompleteFrom(detail.status),
    /** When the latest admin answer not read yet came (Unix seconds), or null: the page marks it read (markAnswerRead). */
    unreadAnswerAt: unixOrNull(detail.unreadAnswerAt),
    /** A completion took stock that was not given back: cancelling asks whether the goods came back. */
    holdsStock: detail.holdsStock,
    deliveryType: detail.deliveryType,
    prepaid: detail.prepaid,
    priority: detail.order.priority,
    shopOrderName: detail.shopOrderName,
    pharmacy: { uid: detail.pharmacy.id, displayName: detail.pharmacy.displayName },
    orderUid: detail.order.id,
    deliveryAddress: presentAddress(detail.order.deliveryAddress),
    invoiceAddress: presentAddress(detail.order.invoiceAddress),
    patient: {
      uid: detail.patient.id,
      displayName: detail.patient.displayName,
      email: detail.patient.email,
      dateOfBirth: isoDateOrNull(detail.patient.dateOfBirth),
    },
    doctor: detail.doctor ? { uid: detail.doctor.id, displayName: detail.doctor.displayName } : null,
    items: detail.items.map((item) => ({
      uid: item.uid,
      quantity: item.amount,
      totalPaidAmount: item.totalPaidAmount,
      sku: { uid: item.sku.uid, displayName: item.sku.displayName, pzn: item.sku.pzn },
    })),
    shippingMethods: detail.shippingMethods.map((m) => ({
      uid: m.uid,
      displayName: m.displayName,
      externalId: m.externalId,
      identifierForPharmacy: m.identifierForPharmacy,
    })),
    shippingCosts: detail.shippingCostsAmount === null ? null : { amount: detail.shippingCostsAmount, currency: detail.shippingCostsCurrency ?? "EUR" },
    prescriptionFilename: detail.prescriptionFilename,
    shipments: detail.shipments.map((s) => ({
      uid: s.id,
      sequenceNumber: s.sequenceNumber,
      trackingUrl: s.trackingUrl,
      trackingNumber: s.trackingNumber,
      carrierName: s.carrierName,
      isTest: s.isTest,
    })),
    payouts: detail.payouts.map((p) => ({
      status: p.status === "ROUTED" ? "routed" : "projected",
      amount: p.amount,
      currency: p.currency,
      componentType: p.componentType,
      routingDescription: p.routingDescription,
      routedAt: p.status === "ROUTED" ? unixOrNull(p.routingCreatedAt) : null,
      /** Why the row needs review (cancelled after completion), or null. */
      review: p.reviewFlaggedAt ? (p.reviewReason ?? "Flagged for review") : null,
    })),
    history: detail.history.map(presentHistoryEntry),
    createdAt: unix(detail.createdAt),
    updatedAt: unix(detail.updatedAt),
  };
}

export type PortalOrderDetail = ReturnType<typeof presentPortalDetail>;
