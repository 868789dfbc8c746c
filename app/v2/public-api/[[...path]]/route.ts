import { publicApi } from "@/server/api/public";
import { routeHandlers } from "@/server/rest/kit";

// Every path and method of the family goes to its route table (server/api/public).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(publicApi);
