import { PATIENT_DATA } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { patientDataRoutes } from "./patient-data.routes";

export const patientDataApi = createRestApi(PATIENT_DATA, patientDataRoutes);
