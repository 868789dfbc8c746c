import { findPharmacySku, findShopOfSku } from "@/server/domain/catalogue/pharmacy-skus";
import { NotFoundError } from "@/server/domain/errors";
import { getPharmacyOrderDetail, getPharmacyOrderFulfillment, type PharmacyOrderDetail } from "@/server/domain/pharmacy-orders/queries";
import type { WebhookDataBuilder } from "@/server/domain/webhooks/deliver-attempt";
import { presentPharmacyOrderPayload, presentPharmacySkuPayload } from "./payload.presenters";

/**
 * The `data` of a webhook delivery, built from current state at each attempt with the same
 * presenters as the GET endpoints. Pharmacy-scoped subscriptions get the pharmacy's view (with
 * prescription_file); organisation-level ones get it without prescription_file, with skus enriched
 * by the shop's ids and the fulfillment added. Returns null when the subject no longer exists.
 * The sample deliveries of test sends run the same presenters (./payload.presenters.ts) over fixed
 * data (./samples.ts).
 */
export const buildWebhookData: WebhookDataBuilder = async (event, scope) => {
  switch (event.eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated": {
      if (!event.pharmacyId) return null;
      let detail: PharmacyOrderDetail;
      try {
        detail = await getPharmacyOrderDetail(event.pharmacyId, event.subjectId);
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
      const fulfillment = scope === "ORGANISATION" ? await getPharmacyOrderFulfillment(event.subjectId) : null;
      return presentPharmacyOrderPayload(detail, fulfillment);
    }
    case "pharmacy_sku_stock_updated": {
      const row = await findPharmacySku(event.subjectId);
      if (!row) return null;
      return presentPharmacySkuPayload(row, scope === "ORGANISATION" ? await findShopOfSku(row.skuId) : null);
    }
    default:
      // Organisation-only events carry the data captured when they occurred.
      return (event.data as Record<string, unknown> | null) ?? {};
  }
};
