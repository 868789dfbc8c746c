import type { LiveStockEntry } from "@/server/domain/storefront/live-stock";
import type { PrescriptionOrderStatus } from "@/server/domain/storefront/order-status";
import type { StorefrontProduct, StorefrontSku } from "@/server/domain/storefront/products";
import type { Reservation } from "@/server/domain/storefront/reserve";
import { unix, unixOrNull } from "@/server/wire/format";

/** Prices are the shop SKUs' prices, in euro cents. */
const CURRENCY = "EUR";

/** The SKU's descriptive fields that are set (G26's attributes); an empty object when none are. */
function skuAttributes(sku: StorefrontSku) {
  const attributes = {
    pzn: sku.pzn,
    dosage: sku.dosage,
    pcs: sku.pcs,
    weight: sku.weight,
    therapy_duration: sku.therapyDuration,
  };
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== null));
}

/** G26's product entry. telemedicine_provider_data is null: no SKU carries provider data here. */
export function presentStorefrontProduct(product: StorefrontProduct) {
  return {
    uid: product.id,
    display_name: product.displayName,
    attributes: { prescription_required: product.prescriptionRequired },
    skus: product.skus.map((sku) => ({
      uid: sku.id,
      display_name: sku.displayName,
      attributes: skuAttributes(sku),
      availability: sku.availability,
      telemedicine_provider_data: null,
      price: sku.price,
      currency: CURRENCY,
      unit: sku.unit,
      standard_selling_unit: sku.standardSellingUnit,
    })),
  };
}

export function presentLiveStock(entry: LiveStockEntry) {
  return { sku_uid: entry.skuId, quantity: entry.quantity, available_quantity: entry.available, can_be_served: entry.canBeServed };
}

/** draft_order_id is the legacy (numeric) id, as a string: integrators pass it back as reserved_draft_order_id (G26). */
export function presentReservation(reservation: Reservation) {
  return {
    draft_order_id: reservation.legacyId.toString(),
    status: reservation.status,
    expires_at: unix(reservation.holdExpiresAt),
    line_items: reservation.lines.map((line) => ({
      sku_uid: line.skuId,
      quantity: line.quantity,
      price: line.unitPrice,
      currency: CURRENCY,
    })),
  };
}

/** G26's order status entry, with Unix seconds for created_at and fulfilled_at (the spec's convention, C9). */
export function presentPrescriptionOrderStatus(status: PrescriptionOrderStatus) {
  return {
    prescription_uid: status.prescriptionId,
    order_status: status.orderStatus,
    fulfillment_status: status.fulfillmentStatus,
    tracking_number: status.trackingNumber,
    tracking_url: status.trackingUrl,
    created_at: unix(status.createdAt),
    fulfilled_at: unixOrNull(status.fulfilledAt),
    line_items: status.lineItems.map((item) => ({ sku_uid: item.skuId, display_name: item.displayName, quantity: item.quantity })),
  };
}
