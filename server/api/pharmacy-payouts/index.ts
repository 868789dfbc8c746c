import { healthRoute } from "@/server/api/health";
import { PHARMACY_PAYOUTS } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { payoutRoutes } from "./payouts.routes";

/** /v1/external-pharmacy-api-v1: the payouts endpoint, with the External Pharmacy API's keys and error shapes. */
export const pharmacyPayoutsApi = createRestApi(PHARMACY_PAYOUTS, [healthRoute, ...payoutRoutes]);
