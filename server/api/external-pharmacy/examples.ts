import { samplePharmacyOrder, samplePharmacySku } from "@/server/api/webhooks/samples";
import { paginated } from "@/server/wire/format";
import { presentPharmacyOrder, presentPharmacyOrderDetail } from "./pharmacy-order.presenters";
import { presentPharmacySku } from "./pharmacy-sku.presenters";

/** Response examples for the API explorer: the presenters over the webhook samples' fixed data (server/api/webhooks/samples.ts). */
const page = { page: 0, limit: 50 };

export const pharmacyExamples = {
  pharmacyOrders: paginated([presentPharmacyOrder(samplePharmacyOrder(false))], 1, page),
  pharmacyOrderDetail: presentPharmacyOrderDetail(samplePharmacyOrder(true)),
  pharmacyOrder: presentPharmacyOrder(samplePharmacyOrder(true)),
  pharmacySku: presentPharmacySku(samplePharmacySku),
  pharmacySkus: paginated([presentPharmacySku(samplePharmacySku)], 1, page),
};
