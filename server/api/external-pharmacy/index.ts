import { healthRoute } from "@/server/api/health";
import { EXTERNAL_PHARMACY } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { pharmacyOrderRoutes } from "./pharmacy-orders.routes";
import { pharmacySkuRoutes } from "./pharmacy-skus.routes";
import { webhookRoutes } from "./webhooks.routes";

export const externalPharmacyApi = createRestApi(EXTERNAL_PHARMACY, [healthRoute, ...pharmacyOrderRoutes, ...pharmacySkuRoutes, ...webhookRoutes]);
