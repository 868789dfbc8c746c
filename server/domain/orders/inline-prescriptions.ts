import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { FieldErrorCollector, UnprocessableError, type FieldErrors } from "@/server/domain/errors";
import { trustAnchorsFor } from "@/server/domain/prescriptions/trust-anchors";
import { validateQesPdf, type QesSigner } from "@/server/pki/validate-qes-pdf";
import { PRESCRIPTION_STATUS, PRESCRIPTION_SYSTEM_NOTE } from "@/server/domain/prescriptions/statuses";
import { storeSignedPdf } from "@/server/domain/prescriptions/signed-copy";
import { doctorOfSigner, signerNameOf } from "@/server/domain/prescriptions/signer-doctor";
import type { FulfillmentIntake } from "./intake";
import { recordPrescriptionCreated } from "@/server/domain/events/prescription-events";

/** An inline prescription PDF (path (d)) that passed QES validation during the request. */
export type ValidatedPdf = { pdf: Buffer; signer: QesSigner; signingTime: Date | null };

/** Per fulfillment (by index): the validated PDFs by their `id`. */
export type InlinePrescriptions = Map<string, ValidatedPdf>[];

/**
 * Strict Base64 (standard alphabet, padded): a truncated or mangled upload is a field error, not a
 * guess. Checked without a repeated group: a regular expression like ^(?:[…]{4})*…$ backtracks per
 * block and throws RangeError on megabytes of input.
 */
function isStrictBase64(text: string): boolean {
  if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) return false;
  const padding = text.indexOf("=");
  return padding === -1 || (padding >= text.length - 2 && /^={1,2}$/.test(text.slice(padding)));
}

/**
 * Path (d): every inline PDF of every fulfillment is decoded and validated for a qualified
 * electronic signature before anything is written (spec: intake rules 3 and 5). Malformed Base64 is
 * a 400 on the field; a PDF that is corrupt, unsigned, tampered, untrusted or not qualified rejects
 * the whole order with 422, naming each failing prescription id. The sandbox organisation also
 * trusts the sandbox CA.
 */
export async function validateInlinePrescriptions(
  db: Db,
  organisationId: string,
  fulfillments: FulfillmentIntake[],
  fieldPrefix: (fulfillmentIndex: number) => (string | number)[],
): Promise<InlinePrescriptions> {
  const uploads = fulfillments.flatMap((fulfillment, f) =>
    (fulfillment.prescriptions ?? []).map((prescription, p) => ({
      f,
      id: prescription.id,
      pdfBase64: prescription.pdfBase64,
      field: [...fieldPrefix(f), "prescriptions", p, "pdf_base64"],
      name: `Prescription "${prescription.id}" of fulfillment "${fulfillment.externalId}"`,
    })),
  );
  const validated = await validatePrescriptionUploads(db, organisationId, uploads);
  const result: InlinePrescriptions = fulfillments.map(() => new Map());
  uploads.forEach((upload, i) => result[upload.f].set(upload.id, validated[i]));
  return result;
}

/** A prescription PDF sent inline: where it sits in the request body and how messages name it. */
export type PrescriptionUpload = { pdfBase64: string; field: (string | number)[]; name: string };

/**
 * The QES validation of inline PDFs, for order intake and checkouts alike (same rules, same
 * messages): all uploads decoded first (malformed Base64: 400 on the field), then each validated
 * (any failure: 422 naming each failing one). Returns the validated PDFs in the uploads' order.
 */
export async function validatePrescriptionUploads(db: Db, organisationId: string, uploads: PrescriptionUpload[]): Promise<ValidatedPdf[]> {
  if (uploads.length === 0) return [];
  const malformed = new FieldErrorCollector();
  const decoded = uploads.map((upload) => {
    const text = upload.pdfBase64.replace(/\s+/g, "");
    if (isStrictBase64(text)) return Buffer.from(text, "base64");
    malformed.add(upload.field, "Enter the PDF as standard, padded Base64.");
    return null;
  });
  malformed.throwIfAny();

  const organisation = await db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { sandbox: true } });
  const trustAnchors = await trustAnchorsFor(organisation);
  const failures = new FieldErrorCollector();
  const messages: string[] = [];
  const result: ValidatedPdf[] = [];
  for (const [i, pdf] of decoded.entries()) {
    const validation = await validateQesPdf(pdf!, { trustAnchors });
    if (validation.valid) {
      result.push({ pdf: pdf!, signer: validation.signer, signingTime: validation.signingTime });
    } else {
      const message = `${uploads[i].name}: ${validation.message}`;
      messages.push(message);
      failures.add(uploads[i].field, message);
    }
  }
  if (!failures.empty) throw new UnprocessableError(messages.join(" "), failures.fields as FieldErrors);
  return result;
}

/**
 * Records a validated inline PDF as a prescription signed outside the service: the PDF is stored
 * write-once with its checksum, the status is EXTERNALLY_SIGNED, the signer becomes the
 * prescription's doctor (found by name in the organisation, or created). The caller adds its lines
 * once the items exist. Runs in the order's transaction; a rolled-back order leaves at most an
 * orphaned file that no row refers to.
 */
export async function recordInlinePrescription(
  tx: Tx,
  input: {
    organisationId: string;
    orderId: string;
    patientId: string;
    validated: ValidatedPdf;
    actor: Actor;
    /** Its uid, when the intake chose it already (redeemPrescriptions' plan). */
    id?: string;
  },
): Promise<string> {
  const id = input.id ?? randomUUID();
  const stored = await storeSignedPdf(id, input.validated.pdf);
  const signerName = signerNameOf(input.validated.signer);
  const doctor = await doctorOfSigner(tx, input.organisationId, signerName);
  await tx.prescription.create({
    data: {
      id,
      organisationId: input.organisationId,
      orderId: input.orderId,
      patientId: input.patientId,
      doctorId: doctor.id,
      status: PRESCRIPTION_STATUS.externallySigned,
      source: "INLINE_PDF",
      signedFileKey: stored.key,
      signedFileSha256: stored.sha256,
      signedAt: input.validated.signingTime ?? new Date(),
      history: {
        create: {
          fromStatus: null,
          toStatus: PRESCRIPTION_STATUS.externallySigned,
          note: PRESCRIPTION_SYSTEM_NOTE.inlineSigned(signerName),
          ...actorColumns(input.actor),
        },
      },
    },
  });
  await recordPrescriptionCreated(tx, { organisationId: input.organisationId, id });
  return id;
}
