import { externalPharmacyApi } from "@/server/api/external-pharmacy";
import { patientDataApi } from "@/server/api/patient-data";
import { managementApi } from "@/server/api/management";
import { pharmacyPayoutsApi } from "@/server/api/pharmacy-payouts";
import { publicApi } from "@/server/api/public";
import type { RestApi } from "@/server/rest/kit";

/** Every REST family, as served by the catch-all route files under app/. */
export const restApis: RestApi[] = [managementApi, publicApi, externalPharmacyApi, pharmacyPayoutsApi, patientDataApi];

/** The family whose base path a path is under, if any. */
export function restApiFor(pathname: string): RestApi | undefined {
  return restApis.find(({ family }) => pathname === family.basePath || pathname.startsWith(`${family.basePath}/`));
}
