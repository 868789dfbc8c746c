import { pharmacyPayoutsApi } from "@/server/api/pharmacy-payouts";
import { routeHandlers } from "@/server/rest/kit";

// Every path and method of the family goes to its route table (server/api/pharmacy-payouts).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(pharmacyPayoutsApi);
