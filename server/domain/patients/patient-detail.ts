import { database } from "@/server/db/client";
import { listOrders } from "@/server/domain/orders/queries";
import type { Page } from "@/server/domain/paging";
import { listPatientWalletPasses } from "@/server/domain/wallet-passes/queries";
import { getPatientProfile, requirePatientOfOrganisation } from "./queries";
import { patientIntentReturnCodes } from "./submissions";

/**
 * A patient as the admin tool's patient page shows them: what the Management API shows an admin
 * (the profile with its shop links and fields, the intents' return codes, the wallet passes; the
 * orders page by page: listPatientOrders). Another organisation's patient is not found.
 * docs/decisions/patients.md#patients-and-wallet-passes-in-the-portals
 */
export async function getPatientDetailForAdmin(organisationId: string, patientId: string) {
  const profile = await getPatientProfile(organisationId, patientId);
  const [intents, walletPasses] = await Promise.all([
    patientIntentReturnCodes(organisationId, patientId),
    listPatientWalletPasses(organisationId, patientId),
  ]);
  return { profile, intents, walletPasses };
}

/** The patient's orders, newest first, as the order list shows them; another organisation's patient is not found. */
export async function listPatientOrders(organisationId: string, patientId: string, page: Page) {
  await requirePatientOfOrganisation(await database(), organisationId, patientId);
  return listOrders(organisationId, { patientId }, page);
}
