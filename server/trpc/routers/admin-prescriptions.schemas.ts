/** Inputs of the admin tool's prescription procedures, shared by the router and the pages. */
import { z } from "zod";
import { PRESCRIPTION_STATUSES } from "@/server/domain/prescriptions/statuses";
import { searchTerm, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const PRESCRIPTION_PAGE_LIMIT = 100;

export const listPrescriptionsInput = z.object({
  status: z.enum(PRESCRIPTION_STATUSES as [string, ...string[]]).optional(),
  search: searchTerm(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(PRESCRIPTION_PAGE_LIMIT).default(25),
});

export const prescriptionInput = z.object({ uid: uid() });

/** The domain's limit of a signed PDF (SIGNED_PDF_MAX_BYTES of external-sign.ts; not imported: the page loads this module). */
export const SIGNED_PDF_MAX_BYTES = 700 * 1024;
const SIGNED_PDF_MAX_BASE64 = Math.ceil(SIGNED_PDF_MAX_BYTES / 3) * 4;

export const externalSignInput = z.object({
  uid: uid(),
  signedPdfBase64: z
    .string()
    .refine((text) => text.length > 0, ownMessage("prescriptions.upload.choose"))
    .refine((text) => text.length <= SIGNED_PDF_MAX_BASE64, ownMessage("prescriptions.upload.tooLarge"))
    .refine((text) => /^[A-Za-z0-9+/]*={0,2}$/.test(text), ownMessage("prescriptions.upload.unreadable")),
});
