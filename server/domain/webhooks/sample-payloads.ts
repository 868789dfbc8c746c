import { PAYLOAD_VERSION, type EventType } from "./event-types";

/**
 * Static sample deliveries for test sends, shaped like the real payloads (server/api/webhooks/payloads.ts):
 * the same envelope, and `data` with the fields and types of each event's real data. Values are
 * fictitious and fixed, so receivers can recognise a sample; only the envelope timestamp is current.
 * Pharmacy-scoped samples are of an over-the-counter order (no doctor, prescription_file null);
 * organisation-level samples add the shop's ids and the fulfillment and omit prescription_file.
 */
export type SampleScope = "PHARMACY" | "ORGANISATION";

const CREATED_AT = 1_763_800_000; // 2025-11-22
const UPDATED_AT = CREATED_AT + 600;

const address = {
  first_name: "Erika",
  last_name: "Mustermann",
  street: "Hauptstr.",
  house_number: "5",
  zip_code: "10115",
  city: "Berlin",
  country: "Germany",
  additional_address: null,
  province: null,
};

const pharmacy = { uid: "00000000-0000-4000-8000-00000000a001", display_name: "Sample Apotheke" };
const sku = { uid: "00000000-0000-4000-8000-00000000b001", display_name: "Ibuprofen 400 mg, 20 tablets", pzn: "01234567" };
const shopIds = { shop_variation_id: "variant-1001", shop_product_external_id: "product-1001" };

function pharmacyOrder(eventType: EventType, scope: SampleScope) {
  const updated = eventType === "pharmacy_order_updated";
  const orderItem = { uid: "00000000-0000-4000-8000-00000000c001", amount: 2, sku, total_paid_amount: 798 };
  const data = {
    uid: "00000000-0000-4000-8000-00000000d001",
    status: updated ? "in-progress" : "waiting for pharmacy",
    name: "PO-SAMP-LE00-0001",
    shop_order_name: "#1001",
    external_status: "OPEN",
    pharmacy,
    order: {
      uid: "00000000-0000-4000-8000-00000000e001",
      delivery_address: address,
      invoice_address: address,
      priority: 0,
      shipping_costs_amount: 495,
      shipping_costs_currency: "EUR",
    },
    order_items: [scope === "ORGANISATION" ? { ...orderItem, sku: { ...sku, ...shopIds } } : orderItem],
    shop_shipping_methods: [
      {
        uid: "00000000-0000-4000-8000-00000000f001",
        display_name: "Standard Shipping",
        external_id: "standard",
        pharmacy_mapping: { pharmacy_uid: pharmacy.uid, shipping_method_identifier_for_pharmacy: "DHL_STANDARD" },
      },
    ],
    shipping_costs_amount: 495,
    shipping_costs_currency: "EUR",
    created_at: CREATED_AT,
    updated_at: updated ? UPDATED_AT : CREATED_AT,
    patient_data: {
      uid: "00000000-0000-4000-8000-00000000a101",
      display_name: "Erika Mustermann",
      email: "erika@example.com",
      date_of_birth: "1980-04-01",
    },
    doctor_data: null,
    prepaid: 0,
    shipments: updated
      ? [
          {
            uid: "00000000-0000-4000-8000-00000000a201",
            sequence_number: 1,
            tracking_url: "https://tracking.example/00340434161094042557",
            tracking_number: "00340434161094042557",
            carrier_name: "DHL",
            is_test: false,
            return_tracking_number: null,
            return_label_expiry: null,
          },
        ]
      : [],
    payouts: [],
  };
  if (scope === "PHARMACY") return { ...data, prescription_file: null };
  return {
    ...data,
    fulfillment: {
      uid: "00000000-0000-4000-8000-00000000a301",
      external_id: "f-1",
      status: "OPEN",
      items: [{ uid: orderItem.uid, order_item_uid: orderItem.uid, status: "OPEN", amount: 2, sku: { ...sku, ...shopIds } }],
    },
  };
}

function pharmacySkuStock(scope: SampleScope) {
  const data = {
    uid: "00000000-0000-4000-8000-00000000a401",
    external_id: "PMS-1",
    price: 399,
    stock: 42,
    pharmacy: pharmacy.uid,
    sku: {
      ...sku,
      product_uid: "00000000-0000-4000-8000-00000000a501",
      product_display_name: "Ibuprofen",
      standard_selling_unit: 1,
      unit: "tablets",
      product_handle: "ibuprofen",
      digital: false,
    },
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
    deleted_at: null,
  };
  if (scope === "PHARMACY") return data;
  return { ...data, sku: { ...data.sku, ...shopIds }, shop_identifier: "shop.example" };
}

const appointmentReminder = {
  appointment_uid: "00000000-0000-4000-8000-00000000a601",
  starts_at: UPDATED_AT + 86_400,
  ends_at: UPDATED_AT + 86_400 + 1_800,
  doctor: { uid: "00000000-0000-4000-8000-00000000a701", display_name: "Dr. Max Beispiel" },
  patient: { uid: "00000000-0000-4000-8000-00000000a101", display_name: "Erika Mustermann" },
  recipient_role: "patient",
  rebook_allowed: true,
  cancel_allowed: true,
};

const meetingUpdated = {
  meeting_uid: "00000000-0000-4000-8000-00000000a801",
  change: "confirmed",
  status: "confirmed",
  starts_at: UPDATED_AT + 86_400,
  doctor: { uid: "00000000-0000-4000-8000-00000000a701", display_name: "Dr. Max Beispiel" },
  patient: { uid: "00000000-0000-4000-8000-00000000a101", display_name: "Erika Mustermann" },
};

export function sampleData(eventType: EventType, scope: SampleScope): object {
  switch (eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated":
      return pharmacyOrder(eventType, scope);
    case "pharmacy_sku_stock_updated":
      return pharmacySkuStock(scope);
    case "appointment_reminder_due":
      return appointmentReminder;
    case "patient_doctor_meeting_updated":
      return meetingUpdated;
  }
}

/** The envelope of a sample delivery, serialised once: the exact bytes sent are the bytes signed. */
export function sampleBody(eventType: EventType, scope: SampleScope, now = new Date()): string {
  return JSON.stringify({
    event_type: eventType,
    timestamp: Math.floor(now.getTime() / 1000),
    payload_version: PAYLOAD_VERSION,
    data: sampleData(eventType, scope),
  });
}
