import { externalPharmacyApi } from "@/server/api/external-pharmacy";
import { routeHandlers } from "@/server/rest/kit";

// Every path and method of the family goes to its route table (server/api/external-pharmacy).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(externalPharmacyApi);
