import { findPharmacySku, findShopOfSku } from "@/server/domain/catalogue/pharmacy-skus";
import { NotFoundError } from "@/server/domain/errors";
import type { OrderStatusChange } from "@/server/domain/events/order-events";
import type { PrescriptionChange } from "@/server/domain/events/prescription-events";
import { getOrder } from "@/server/domain/orders/queries";
import { getPharmacyOrderDetail, getPharmacyOrderFulfillment, type PharmacyOrderDetail } from "@/server/domain/pharmacy-orders/queries";
import { getPrescription } from "@/server/domain/prescriptions/queries";
import type { WebhookDataBuilder } from "@/server/domain/webhooks/deliver-attempt";
import { presentOrderPayload, presentPharmacyOrderPayload, presentPharmacySkuPayload, presentPrescriptionPayload } from "./payload.presenters";

/** The subject read by `read`, or null when it no longer exists (the delivery then ends as subject_gone). */
async function unlessGone<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The `data` of a webhook delivery, built from current state at each attempt with the same
 * presenters as the GET endpoints. Pharmacy-scoped subscriptions get the pharmacy's view (with
 * prescription_file); organisation-level ones get it without prescription_file, with skus enriched
 * by the shop's ids and the fulfillment added. The order and prescription events (organisation
 * subscriptions only) are the Management GET of their subject; their updates add the change recorded
 * when it happened. Returns null when the subject no longer exists.
 * The sample deliveries of test sends run the same presenters (./payload.presenters.ts) over fixed
 * data (./samples.ts).
 */
export const buildWebhookData: WebhookDataBuilder = async (event, scope) => {
  switch (event.eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated": {
      const pharmacyId = event.pharmacyId;
      if (!pharmacyId) return null;
      const detail: PharmacyOrderDetail | null = await unlessGone(() => getPharmacyOrderDetail(pharmacyId, event.subjectId));
      if (!detail) return null;
      const fulfillment = scope === "ORGANISATION" ? await getPharmacyOrderFulfillment(event.subjectId) : null;
      return presentPharmacyOrderPayload(detail, fulfillment);
    }
    case "pharmacy_sku_stock_updated": {
      const row = await findPharmacySku(event.subjectId);
      if (!row) return null;
      return presentPharmacySkuPayload(row, scope === "ORGANISATION" ? await findShopOfSku(row.skuId) : null);
    }
    case "order_created":
    case "order_updated": {
      const order = await unlessGone(() => getOrder(event.organisationId, event.subjectId));
      if (!order) return null;
      return presentOrderPayload(order, event.eventType === "order_updated" ? (event.data as OrderStatusChange) : null);
    }
    case "prescription_created":
    case "prescription_updated": {
      const prescription = await unlessGone(() => getPrescription(event.organisationId, event.subjectId));
      if (!prescription) return null;
      return presentPrescriptionPayload(prescription, event.eventType === "prescription_updated" ? (event.data as PrescriptionChange) : null);
    }
    default:
      // Organisation-only events carry the data captured when they occurred.
      return (event.data as Record<string, unknown> | null) ?? {};
  }
};
