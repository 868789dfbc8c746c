import { NON_FIELD_ERRORS } from "@/server/domain/errors";
import { validatePrescriptionUploads } from "@/server/domain/orders/inline-prescriptions";
import type { CheckoutInput } from "./checkout-request";
import { openCheckout, type OpenedCheckoutResult } from "./open-checkout";

export type PrescriptionCheckoutInput = CheckoutInput & { prescriptions: { id: string; pdfBase64: string }[] };

/**
 * POST /v2/public-api/prescriptions/{shop_identifier} (G26). The inline prescriptions are checked
 * with order intake's QES validation (path (d): same rules, same messages, 400 for malformed
 * Base64, 422 for a PDF that is not validly signed), after the shop and the lines and before
 * anything is written, and kept for the
 * order. A line of a prescription-only product must name one of them (prescription_id), as intake's
 * path (d) requires a prescription_reference; other lines may name one too.
 */
export async function createPrescriptionCheckout(organisationId: string, input: PrescriptionCheckoutInput): Promise<OpenedCheckoutResult> {
  return openCheckout(organisationId, input, {
    kind: "PRESCRIPTION_CHECKOUT",
    async validatePrescriptions(db) {
      const validated = await validatePrescriptionUploads(
        db,
        organisationId,
        input.prescriptions.map((p, i) => ({ pdfBase64: p.pdfBase64, field: ["prescriptions", i, "pdf_base64"], name: `Prescription "${p.id}"` })),
      );
      return new Map(input.prescriptions.map((p, i) => [p.id, validated[i]]));
    },
    checkLine(line, resolved, i, errors) {
      if (resolved.prescriptionRequired && !line.prescriptionId) {
        errors.add(["lines", i, NON_FIELD_ERRORS], "This product requires a prescription: set prescription_id to one of the checkout's prescriptions.");
      }
    },
  });
}
