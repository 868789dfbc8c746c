import { errorText, type Message } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { ConflictError, UnprocessableError } from "@/server/domain/errors";
import { recordPrescriptionUpdated } from "@/server/domain/events/prescription-events";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { doctorOfSigner, signerNameOf } from "./signer-doctor";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";
import { lockPrescription } from "./lock";
import { copyRenderedToSigned, renderedPdfOf, storeSignedPdf } from "./signed-copy";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUS } from "./statuses";
import { prescriptionStatusText } from "./status-text";
import { trustAnchorsFor } from "./trust-anchors";

/** The largest signed PDF the admin tool takes: a prescription is a page or two, and portal calls are at most 1 MiB. */
export const SIGNED_PDF_MAX_BYTES = 700 * 1024;

/**
 * A signed PDF uploaded in the admin tool, checked before anything is locked: a PDF whose
 * signatures are qualified and trusted, as order intake checks inline prescriptions (the one rule
 * for PDFs signed outside the service). A failure is a 422 on the `signed_pdf` field.
 */
async function validateUploadedPdf(organisationId: string, pdf: Buffer): Promise<string> {
  const refuse = (message: Message) => new UnprocessableError(message, { signed_pdf: [message] });
  if (pdf.length === 0) throw refuse(errorText("prescriptions.upload.empty"));
  if (pdf.length > SIGNED_PDF_MAX_BYTES) throw refuse(errorText("prescriptions.upload.tooLarge"));
  if (!pdf.subarray(0, 1024).includes("%PDF-")) throw refuse(errorText("prescriptions.upload.notPdf"));
  const db = await database();
  const organisation = await db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { sandbox: true } });
  const validation = await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor(organisation) });
  if (!validation.valid) throw refuse(validation.message);
  return signerNameOf(validation.signer);
}

/**
 * Records that a prescription was signed outside the service (spec: POST …/external-sign). Only a
 * prescription waiting for a doctor (any spelling) whose items all lack an anamnesis, and whose
 * rendered PDF exists, can be; otherwise 409. The rendered PDF is copied to signed storage with its
 * checksum, the status becomes EXTERNALLY_SIGNED, the history names the calling key, and the
 * prescription is queued to be sent to its pharmacy — all in one transaction under the row lock.
 *
 * `signedPdf` (the admin tool): the file as it was signed outside, stored as the signed copy instead
 * of the rendered PDF, after the same conditions; it must carry valid qualified signatures, and its
 * signer becomes the doctor of a prescription that has none. Without one (the API), the rendered
 * PDF names the prescription's doctor, if any: nobody else is known, so doctor_data may stay null.
 */
export async function externallySignPrescription(
  organisationId: string,
  prescriptionId: string,
  actor: Actor,
  signedPdf?: Buffer,
): Promise<{ id: string; status: typeof PRESCRIPTION_STATUS.externallySigned }> {
  const signerName = signedPdf ? await validateUploadedPdf(organisationId, signedPdf) : null;
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const p = await lockPrescription(tx, organisationId, prescriptionId);
      if (normalisePrescriptionStatus(p.status) !== PRESCRIPTION_STATUS.waitingForDoctor) {
        throw new ConflictError(errorText("prescriptions.externalSign.notWaiting", { status: prescriptionStatusText(p.status) }));
      }
      const withAnamnesis =
        (await tx.prescriptionLine.count({ where: { prescriptionId: p.id, anamnesisId: { not: null } } })) +
        (await tx.orderItem.count({ where: { prescriptionId: p.id, anamnesisId: { not: null } } }));
      if (withAnamnesis > 0) {
        throw new ConflictError(errorText("prescriptions.externalSign.hasAnamnesis"));
      }
      // The spec's third condition holds for an upload too: what is signed outside is the rendered PDF.
      const copy = signedPdf ? (await renderedPdfOf(p), await storeSignedPdf(p.id, signedPdf)) : await copyRenderedToSigned(p);
      await tx.prescription.update({
        where: { id: p.id },
        data: {
          status: PRESCRIPTION_STATUS.externallySigned,
          signedFileKey: copy.key,
          signedFileSha256: copy.sha256,
          signedAt: new Date(),
          // No doctor yet: the upload's signer is who signed it (doctor_data names them, as for inline PDFs).
          ...(p.doctorId === null && signerName ? { doctorId: (await doctorOfSigner(tx, organisationId, signerName)).id } : {}),
        },
      });
      await tx.prescriptionHistory.create({
        data: { prescriptionId: p.id, fromStatus: p.status, toStatus: PRESCRIPTION_STATUS.externallySigned, ...actorColumns(actor) },
      });
      await recordPrescriptionUpdated(tx, p, PRESCRIPTION_STATUS.externallySigned);
      await enqueueTask(tx, "pharmacy_manager.send_prescription", { prescriptionId: p.id, organisationId: p.organisationId });
      return { id: p.id, status: PRESCRIPTION_STATUS.externallySigned };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
