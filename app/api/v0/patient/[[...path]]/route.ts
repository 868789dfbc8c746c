import { patientDataApi } from "@/server/api/patient-data";
import { routeHandlers } from "@/server/rest/kit";

// Every path and method of the family goes to its route table (server/api/patient-data).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(patientDataApi);
