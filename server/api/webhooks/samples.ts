import { appointmentReminderDueData, patientDoctorMeetingUpdatedData } from "@/server/domain/events/organisation-events";
import type { PharmacyOrderDetail, PharmacyOrderFulfillment } from "@/server/domain/pharmacy-orders/queries";
import { PAYLOAD_VERSION, type EventType } from "@/server/domain/webhooks/event-types";
import type { SampleScope } from "@/server/domain/webhooks/test-delivery";
import type { PharmacySkuWithSku } from "@/server/api/external-pharmacy/pharmacy-sku.presenters";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import type { PrescriptionDetail } from "@/server/domain/prescriptions/queries";
import { presentOrderPayload, presentPharmacyOrderPayload, presentPharmacySkuPayload, presentPrescriptionPayload } from "./payload.presenters";

/**
 * Sample deliveries for test sends: the real payload presenters (./payload.presenters.ts) run over fixed,
 * fictitious data, so a sample has exactly the fields and types of a real delivery and a field
 * added to a presenter appears here too. Receivers can recognise a sample by its values; only the
 * envelope timestamp is current. The pharmacy order is an over-the-counter one (no doctor,
 * prescription_file null); the order and prescription events show a doctor's request, waiting and
 * then signed. The API explorers show the same data as response examples.
 */
const CREATED_AT = new Date(1_763_800_000_000); // 2025-11-22
const UPDATED_AT = new Date(CREATED_AT.getTime() + 600_000);
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

const address = {
  first_name: "Erika",
  last_name: "Mustermann",
  street: "Hauptstr.",
  house_number: "5",
  zip_code: "10115",
  city: "Berlin",
  country: "DE",
  additional_address: null,
  province: null,
};
const pharmacy = { id: "00000000-0000-4000-8000-00000000a001", displayName: "Sample Apotheke" };
const sku = { id: "00000000-0000-4000-8000-00000000b001", displayName: "Ibuprofen 400 mg, 20 tablets", pzn: "01234567" };
const orderItemId = "00000000-0000-4000-8000-00000000c001";
const shopIds = { shopVariationId: "variant-1001", shopProductExternalId: "product-1001" };

export function samplePharmacyOrder(updated: boolean): PharmacyOrderDetail {
  const id = "00000000-0000-4000-8000-00000000d001";
  return {
    id,
    name: "PO-SAMP-LE00-0001",
    status: updated ? "in-progress" : "waiting for pharmacy",
    externalStatus: "OPEN",
    deliveryType: "shipping",
    createdAt: CREATED_AT,
    updatedAt: updated ? UPDATED_AT : CREATED_AT,
    prepaid: 0,
    shippingCostsAmount: 495,
    shippingCostsCurrency: "EUR",
    pharmacy,
    order: { id: "00000000-0000-4000-8000-00000000e001", deliveryAddress: address, invoiceAddress: address, priority: 0 },
    shopOrderName: "#1001",
    items: [
      {
        uid: orderItemId,
        amount: 2,
        totalPaidAmount: 798,
        sku: { uid: sku.id, displayName: sku.displayName, pzn: sku.pzn },
        product: { id: "00000000-0000-4000-8000-00000000b101", displayName: "Ibuprofen 400 mg", handle: "ibuprofen-400" },
        pharmacySku: { id: "00000000-0000-4000-8000-00000000b201", externalId: "APO-IBU-400-20", price: 399, stock: 42 },
      },
    ],
    shippingMethods: [
      { uid: "00000000-0000-4000-8000-00000000f001", displayName: "Standard Shipping", externalId: "standard", identifierForPharmacy: "DHL_STANDARD" },
    ],
    patient: { id: "00000000-0000-4000-8000-00000000a101", displayName: "Erika Mustermann", email: "erika@example.com", dateOfBirth: new Date("1980-04-01") },
    doctor: null,
    prescriptionFile: null,
    shipments: updated
      ? [
          {
            id: "00000000-0000-4000-8000-00000000a201",
            sequenceNumber: 1,
            trackingUrl: "https://tracking.example/00340434161094042557",
            trackingNumber: "00340434161094042557",
            carrierName: "DHL",
            isTest: false,
            returnTrackingNumber: null,
            returnLabelExpiry: null,
          },
        ]
      : [],
    payouts: [],
  };
}

const sampleFulfillment: PharmacyOrderFulfillment = {
  id: "00000000-0000-4000-8000-00000000a301",
  externalId: "f-1",
  status: "OPEN",
  items: [{ id: orderItemId, status: "OPEN", quantity: 2, sku, ...shopIds }],
};

export const samplePharmacySku: PharmacySkuWithSku = {
  id: "00000000-0000-4000-8000-00000000a401",
  externalId: "PMS-1",
  price: 399,
  stock: 42,
  pharmacyId: pharmacy.id,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  deletedAt: null,
  sku: {
    ...sku,
    productId: "00000000-0000-4000-8000-00000000a501",
    standardSellingUnit: 1,
    unit: "tablets",
    digital: false,
    product: { displayName: "Ibuprofen", handle: "ibuprofen" },
  },
};

const doctor = { id: "00000000-0000-4000-8000-00000000a901", displayName: "Dr. Anna Schmidt" };
const prescriptionId = "00000000-0000-4000-8000-00000000a701";
const rxSku = { id: "00000000-0000-4000-8000-00000000b002", displayName: "Finasteride 1 mg, 28 tablets", pzn: "07654321" };

/** An order waiting for a doctor (order events): one prescription-only item, its prescription, no pharmacy order yet. */
export function sampleOrder(updated: boolean): OrderWithGraph {
  const itemId = "00000000-0000-4000-8000-00000000c002";
  return {
    id: "00000000-0000-4000-8000-00000000e002",
    name: "#1002",
    externalId: "1002",
    status: updated ? "waiting for pharmacy" : "waiting for doctor",
    onHold: false,
    customerEmail: "erika@example.com",
    createdAt: CREATED_AT,
    updatedAt: updated ? UPDATED_AT : CREATED_AT,
    shopOrder: { id: "00000000-0000-4000-8000-00000000e102", externalId: "1002", shop: { id: "00000000-0000-4000-8000-00000000e202", identifier: "shop.example" } },
    items: [{ id: itemId, skuId: rxSku.id, quantity: 1, prescriptionId, sku: { displayName: rxSku.displayName, pzn: rxSku.pzn } }],
    fulfillments: [
      {
        id: "00000000-0000-4000-8000-00000000a302",
        status: "OPEN",
        externalId: "f-1",
        items: [{ id: itemId, status: "OPEN", quantity: 1 }],
        pharmacyOrder: updated ? { status: "waiting for pharmacy", updatedAt: UPDATED_AT } : null,
      },
    ],
    prescriptions: [{ id: prescriptionId, status: updated ? "signed" : "waiting for doctor", doctor: updated ? doctor : null }],
  };
}

/** A doctor's prescription request (prescription events): waiting for a doctor, or signed by one. */
export function samplePrescription(updated: boolean): PrescriptionDetail {
  return {
    id: prescriptionId,
    status: updated ? "signed" : "waiting for doctor",
    orderId: "00000000-0000-4000-8000-00000000e002",
    renderedFileKey: updated ? `rendered/${prescriptionId}.pdf` : null,
    signedAt: updated ? UPDATED_AT : null,
    createdAt: CREATED_AT,
    updatedAt: updated ? UPDATED_AT : CREATED_AT,
    doctor: updated ? doctor : null,
    lines: [
      {
        id: "00000000-0000-4000-8000-00000000a702",
        skuId: rxSku.id,
        quantity: 1,
        dosage: "1 tablet daily",
        anamnesisId: "00000000-0000-4000-8000-00000000a703",
        orderItem: { anamnesisId: "00000000-0000-4000-8000-00000000a703" },
        sku: { displayName: rxSku.displayName, pzn: rxSku.pzn, dosage: null },
        // Its own order redeems it (docs/decisions/prescriptions.md#prescription-redemption).
        redeemed: 1,
        remaining: 0,
      },
    ],
  };
}

function sampleData(eventType: EventType, scope: SampleScope): object {
  const organisation = scope === "ORGANISATION";
  switch (eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated":
      return presentPharmacyOrderPayload(samplePharmacyOrder(eventType === "pharmacy_order_updated"), organisation ? sampleFulfillment : null);
    case "pharmacy_sku_stock_updated":
      return presentPharmacySkuPayload(samplePharmacySku, organisation ? { ...shopIds, shopIdentifier: "shop.example" } : null);
    case "appointment_reminder_due":
      return appointmentReminderDueData.parse({
        appointment_uid: "00000000-0000-4000-8000-00000000a601",
        recipient_role: "patient",
        rebook_allowed: true,
        cancel_allowed: true,
        starts_at: unixSeconds(UPDATED_AT) + 86_400,
      });
    case "patient_doctor_meeting_updated":
      return patientDoctorMeetingUpdatedData.parse({ meeting_uid: "00000000-0000-4000-8000-00000000a801", change: "confirmed", status: "confirmed" });
    case "order_created":
      return presentOrderPayload(sampleOrder(false), null);
    case "order_updated":
      return presentOrderPayload(sampleOrder(true), { from_status: "waiting for doctor", to_status: "waiting for pharmacy" });
    case "prescription_created":
      return presentPrescriptionPayload(samplePrescription(false), null);
    case "prescription_updated":
      return presentPrescriptionPayload(samplePrescription(true), {
        from_status: "approved",
        to_status: "signed",
        reason: null,
        from_doctor_uid: doctor.id,
        to_doctor_uid: doctor.id,
        doctor_assignment_reason: null,
      });
  }
}

/** The envelope of a sample delivery, serialised once: the exact bytes sent are the bytes signed. */
export function sampleBody(eventType: EventType, scope: SampleScope, now = new Date()): string {
  return JSON.stringify({ event_type: eventType, timestamp: unixSeconds(now), payload_version: PAYLOAD_VERSION, data: sampleData(eventType, scope) });
}
