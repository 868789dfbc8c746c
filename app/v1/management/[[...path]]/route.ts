import { managementApi } from "@/server/api/management";
import { routeHandlers } from "@/server/rest/kit";

// Every path and method of the family goes to its route table (server/api/management).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(managementApi);
