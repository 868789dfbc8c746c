/** Inputs of the admin tool's patient procedures (the patients page's forms use the same schemas). */
import { z } from "zod";
import { emailAddress, uid } from "@/server/wire/schemas";

export const PATIENT_ORDERS_PAGE_LIMIT = 100;

/** The whole address, as the Management API's e-mail search takes it (docs/decisions/patients.md#patients-and-wallet-passes-in-the-portals). */
export const searchPatientsInput = z.object({ email: emailAddress() });

export const patientInput = z.object({ uid: uid() });

export const patientOrdersInput = z.object({
  uid: uid(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(PATIENT_ORDERS_PAGE_LIMIT).default(10),
});

export const revokeWalletPassInput = z.object({ passUid: uid() });
