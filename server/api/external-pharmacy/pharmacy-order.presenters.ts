import { presentPayoutRow } from "@/server/api/pharmacy-payouts/payout.presenters";
import { isoDateOrNull, unix } from "@/server/wire/format";
import { countryName } from "@/server/domain/countries";
import type { Address } from "@/server/domain/orders/intake";
import type { PharmacyOrderDetail, PharmacyOrderView } from "@/server/domain/pharmacy-orders/queries";

/** Pharmacy order responses carry the country as its name (intake takes the ISO code). */
function presentAddress(address: Address) {
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
export function presentPharmacyOrder(view: PharmacyOrderView) {
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

export function presentPharmacyOrderDetail(detail: PharmacyOrderDetail) {
  return {
    ...presentPharmacyOrder(detail),
    delivery_type: { identifier: detail.deliveryType, display_name: DELIVERY_TYPE_NAMES[detail.deliveryType] ?? detail.deliveryType },
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
