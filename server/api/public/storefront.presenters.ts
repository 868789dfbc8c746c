import type { LiveStockEntry } from "@/server/domain/storefront/live-stock";
import type { PrescriptionOrderStatus } from "@/server/domain/storefront/order-status";
import type { StorefrontProduct, StorefrontSku } from "@/server/domain/storefront/products";
import type { Reservation } from "@/server/domain/storefront/reserve";
import { z } from "zod";
import { minorUnitsField, statusField, unix, unixField, unixOrNull } from "@/server/wire/format";

/** Prices are the shop SKUs' prices, in euro cents. */
const CURRENCY = "EUR";

const AVAILABILITIES = ["High", "Medium", "Low", "Unavailable"] as const;

export const storefrontSkuSchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  attributes: z.record(z.string(), z.union([z.string(), z.number()])).describe("The SKU's descriptive fields that are set: pzn, dosage, pcs, weight, therapy_duration"),
  availability: z.enum(AVAILABILITIES).describe("High from 50 available, Medium 10–49, Low 1–9, Unavailable 0"),
  telemedicine_provider_data: z.null(),
  price: minorUnitsField(),
  currency: z.literal("EUR"),
  unit: z.string().nullable(),
  standard_selling_unit: z.number().nullable(),
});

export const storefrontProductSchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  attributes: z.object({ prescription_required: z.boolean() }),
  skus: z.array(storefrontSkuSchema),
});

export const liveStockSchema = z.object({
  sku_uid: z.string(),
  quantity: z.number().int(),
  available_quantity: z.number().int(),
  can_be_served: z.boolean(),
});

export const reservationSchema = z.object({
  draft_order_id: z.string().describe("Pass it to the prescription checkout as reserved_draft_order_id; for a shop connected to Shopify, the Shopify draft order's legacy id"),
  status: statusField(["reserved"]),
  expires_at: unixField(),
  line_items: z.array(z.object({ sku_uid: z.string(), quantity: z.number().int(), price: minorUnitsField().nullable(), currency: z.literal("EUR") })),
});

/** 409 of a reservation the stock cannot cover: what each item asked and what is available. */
export const insufficientStockSchema = z.object({
  code: z.literal("insufficient_stock"),
  error: z.string(),
  items: z.array(z.object({ sku_uid: z.string(), quantity: z.number().int(), available_quantity: z.number().int() })),
});

export const prescriptionOrderStatusSchema = z.object({
  prescription_uid: z.string(),
  order_status: z.string(),
  fulfillment_status: statusField(["unfulfilled", "partial", "fulfilled", "cancelled"]),
  tracking_number: z.string().nullable(),
  tracking_url: z.string().nullable(),
  created_at: unixField(),
  fulfilled_at: unixField().nullable(),
  line_items: z.array(z.object({ sku_uid: z.string(), display_name: z.string(), quantity: z.number().int() })),
});

/** The SKU's descriptive fields that are set (G26's attributes); an empty object when none are. */
function skuAttributes(sku: StorefrontSku) {
  const attributes = {
    pzn: sku.pzn,
    dosage: sku.dosage,
    pcs: sku.pcs,
    weight: sku.weight,
    therapy_duration: sku.therapyDuration,
  };
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string | number] => entry[1] !== null));
}

/** G26's product entry. telemedicine_provider_data is null: no SKU carries provider data here. */
export function presentStorefrontProduct(product: StorefrontProduct): z.infer<typeof storefrontProductSchema> {
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

export function presentLiveStock(entry: LiveStockEntry): z.infer<typeof liveStockSchema> {
  return { sku_uid: entry.skuId, quantity: entry.quantity, available_quantity: entry.available, can_be_served: entry.canBeServed };
}

/** draft_order_id is the legacy (numeric) id, as a string: integrators pass it back as reserved_draft_order_id (G26). */
export function presentReservation(reservation: Reservation): z.infer<typeof reservationSchema> {
  return {
    draft_order_id: reservation.draftOrderId,
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
export function presentPrescriptionOrderStatus(status: PrescriptionOrderStatus): z.infer<typeof prescriptionOrderStatusSchema> {
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
