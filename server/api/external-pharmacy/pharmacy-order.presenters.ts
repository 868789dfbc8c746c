import { z } from "zod";
import { payoutRowSchema, presentPayoutRow } from "@/server/api/pharmacy-payouts/payout.presenters";
import { isoDateField, isoDateOrNull, minorUnitsField, statusField, unix, unixField } from "@/server/wire/format";
import { PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { fieldErrorsSchema, standardErrorSchema } from "@/server/rest/error-schemas";
import { countryName } from "@/server/domain/countries";
import type { Address } from "@/server/domain/orders/intake";
import type { PharmacyOrderDetail, PharmacyOrderView } from "@/server/domain/pharmacy-orders/queries";

const addressSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  street: z.string(),
  house_number: z.string(),
  zip_code: z.string(),
  city: z.string(),
  country: z.string().describe("The country's name"),
  additional_address: z.string().nullable(),
  province: z.string().nullable(),
});

export const pharmacyOrderSchema = z.object({
  uid: z.string(),
  status: statusField(PHARMACY_ORDER_STATUSES),
  name: z.string(),
  shop_order_name: z.string().nullable(),
  external_status: z.string(),
  pharmacy: z.object({ uid: z.string(), display_name: z.string() }),
  order: z.object({ uid: z.string(), delivery_address: addressSchema, invoice_address: addressSchema, priority: z.number().int() }),
  order_items: z.array(
    z.object({
      uid: z.string(),
      amount: z.number().int(),
      sku: z.object({ uid: z.string(), display_name: z.string(), pzn: z.string().nullable() }),
      total_paid_amount: minorUnitsField(),
    }),
  ),
  shop_shipping_methods: z.array(
    z.object({
      uid: z.string(),
      display_name: z.string(),
      external_id: z.string(),
      pharmacy_mapping: z.object({ pharmacy_uid: z.string(), shipping_method_identifier_for_pharmacy: z.string() }).nullable(),
    }),
  ),
  shipping_costs_amount: minorUnitsField().nullable(),
  shipping_costs_currency: z.string().nullable(),
  created_at: unixField(),
  updated_at: unixField(),
});

/** The detail's item: the list's, with the SKU's product and the pharmacy's own SKU the line was routed to (G34). */
const detailItemSchema = pharmacyOrderSchema.shape.order_items.element.extend({
  sku: pharmacyOrderSchema.shape.order_items.element.shape.sku.extend({
    product_uid: z.string(),
    product_display_name: z.string(),
    product_handle: z.string().nullable(),
  }),
  pharmacy_sku: z
    .object({ uid: z.string(), external_id: z.string().describe("The pharmacy's own id of the SKU"), price: minorUnitsField(), stock: z.number().int() })
    .nullable()
    .describe("The pharmacy's SKU the line was routed to; null when it has none"),
});

export const pharmacyOrderDetailSchema = pharmacyOrderSchema.extend({
  data: z.object({}).describe("Custom data attached to the order for the pharmacy: always {} (order intake has no such field)"),
  deleted_at: unixField().nullable().describe("Always null: pharmacy orders are not deleted"),
  order_items: z.array(detailItemSchema),
  delivery_type: z.object({ uid: z.string().describe("The delivery type's identifier (a fixed vocabulary)"), identifier: z.string(), display_name: z.string() }),
  patient_data: z.object({ uid: z.string(), display_name: z.string().nullable(), email: z.string().nullable(), date_of_birth: isoDateField().nullable() }),
  doctor_data: z.object({ uid: z.string(), display_name: z.string() }).nullable(),
  prescription_file: z.object({ filename: z.string(), content_base64: z.string() }).nullable(),
  prepaid: minorUnitsField(),
  shipments: z.array(
    z.object({
      uid: z.string(),
      sequence_number: z.number().int(),
      tracking_url: z.string().nullable(),
      tracking_number: z.string().nullable(),
      carrier_name: z.string().nullable(),
      is_test: z.boolean(),
      return_tracking_number: z.string().nullable(),
      return_label_expiry: isoDateField().nullable(),
    }),
  ),
  payouts: z.array(payoutRowSchema),
});

/** complete_order's own 400 shapes (spec): invalid JSON, field errors with the pharmacy, a refusal's message. */
export const completeOrderErrorSchema = z.union([
  standardErrorSchema,
  z.object({ error: z.array(z.string()) }),
  z.object({ error: fieldErrorsSchema, pharmacy: z.object({ uid: z.string(), display_name: z.string() }).nullable() }),
]);

/** Pharmacy order responses carry the country as its name (intake takes the ISO code). */
function presentAddress(address: Address): z.infer<typeof addressSchema> {
  return {
    first_name: address.first_name,
    last_name: address.last_name,
    street: address.street,
    house_number: address.house_number,
    zip_code: address.zip_code,
    city: address.city,
    country: countryName(address.country),
    additional_address: address.additional_address ?? null,
    province: address.province ?? null,
  };
}

/**
 * The list entry (and the summary the status commands return). The list itself is built by the
 * database in exactly these bytes (server/domain/pharmacy-orders/queries.ts).
 */
export function presentPharmacyOrder(view: PharmacyOrderView): z.infer<typeof pharmacyOrderSchema> {
  return {
    uid: view.id,
    status: view.status,
    name: view.name,
    shop_order_name: view.shopOrderName,
    external_status: view.externalStatus,
    pharmacy: { uid: view.pharmacy.id, display_name: view.pharmacy.displayName },
    order: {
      uid: view.order.id,
      delivery_address: presentAddress(view.order.deliveryAddress),
      invoice_address: presentAddress(view.order.invoiceAddress),
      priority: view.order.priority,
    },
    order_items: view.items.map((item) => ({
      uid: item.uid,
      amount: item.amount,
      sku: { uid: item.sku.uid, display_name: item.sku.displayName, pzn: item.sku.pzn },
      total_paid_amount: item.totalPaidAmount,
    })),
    shop_shipping_methods: view.shippingMethods.map((method) => ({
      uid: method.uid,
      display_name: method.displayName,
      external_id: method.externalId,
      pharmacy_mapping:
        method.identifierForPharmacy === null
          ? null
          : { pharmacy_uid: view.pharmacy.id, shipping_method_identifier_for_pharmacy: method.identifierForPharmacy },
    })),
    shipping_costs_amount: view.shippingCostsAmount,
    shipping_costs_currency: view.shippingCostsCurrency,
    created_at: unix(view.createdAt),
    updated_at: unix(view.updatedAt),
  };
}

const DELIVERY_TYPE_NAMES: Record<string, string> = { shipping: "Shipping", pickup: "Pharmacy pickup" };

export function presentPharmacyOrderDetail(detail: PharmacyOrderDetail): z.infer<typeof pharmacyOrderDetailSchema> {
  const entry = presentPharmacyOrder(detail);
  return {
    ...entry,
    // Never the order's additional_details (the patient's gender, transaction ids): nothing is attached for the pharmacy.
    data: {},
    deleted_at: null,
    order_items: entry.order_items.map((item, i) => {
      const { product, pharmacySku } = detail.items[i];
      return {
        ...item,
        sku: { ...item.sku, product_uid: product.id, product_display_name: product.displayName, product_handle: product.handle },
        pharmacy_sku: pharmacySku
          ? { uid: pharmacySku.id, external_id: pharmacySku.externalId, price: pharmacySku.price, stock: pharmacySku.stock }
          : null,
      };
    }),
    delivery_type: {
      uid: detail.deliveryType,
      identifier: detail.deliveryType,
      display_name: DELIVERY_TYPE_NAMES[detail.deliveryType] ?? detail.deliveryType,
    },
    patient_data: {
      uid: detail.patient.id,
      display_name: detail.patient.displayName,
      email: detail.patient.email,
      date_of_birth: isoDateOrNull(detail.patient.dateOfBirth),
    },
    doctor_data: detail.doctor ? { uid: detail.doctor.id, display_name: detail.doctor.displayName } : null,
    prescription_file: detail.prescriptionFile
      ? { filename: detail.prescriptionFile.filename, content_base64: detail.prescriptionFile.content.toString("base64") }
      : null,
    prepaid: detail.prepaid,
    shipments: detail.shipments.map((s) => ({
      uid: s.id,
      sequence_number: s.sequenceNumber,
      tracking_url: s.trackingUrl,
      tracking_number: s.trackingNumber,
      carrier_name: s.carrierName,
      is_test: s.isTest,
      return_tracking_number: s.returnTrackingNumber,
      return_label_expiry: isoDateOrNull(s.returnLabelExpiry),
    })),
    payouts: detail.payouts.map(presentPayoutRow),
  };
}
