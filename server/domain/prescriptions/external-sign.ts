import { database } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { ConflictError } from "@/server/domain/errors";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { lockPrescription } from "./lock";
import { copyRenderedToSigned } from "./signed-copy";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUS } from "./statuses";

/**
 * Records that a prescription was signed outside the service (spec: POST …/external-sign). Only a
 * prescription waiting for a doctor (any spelling) whose items all lack an anamnesis, and whose
 * rendered PDF exists, can be; otherwise 409. The rendered PDF is copied to signed storage with its
 * checksum, the status becomes EXTERNALLY_SIGNED, the history names the calling key, and the
 * prescription is queued to be sent to its pharmacy — all in one transaction under the row lock.
 */
export async function externallySignPrescription(
  organisationId: string,
  prescriptionId: string,
  actor: Actor,
): Promise<{ id: string; status: typeof PRESCRIPTION_STATUS.externallySigned }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const p = await lockPrescription(tx, organisationId, prescriptionId);
      if (normalisePrescriptionStatus(p.status) !== PRESCRIPTION_STATUS.waitingForDoctor) {
        throw new ConflictError(`Only a prescription waiting for a doctor can be signed externally; this one is "${normalisePrescriptionStatus(p.status) ?? p.status}".`);
      }
      const withAnamnesis =
        (await tx.prescriptionLine.count({ where: { prescriptionId: p.id, anamnesisId: { not: null } } })) +
        (await tx.orderItem.count({ where: { prescriptionId: p.id, anamnesisId: { not: null } } }));
      if (withAnamnesis > 0) {
        throw new ConflictError("A prescription with an anamnesis must be reviewed by a doctor of the service; it cannot be signed externally.");
      }
      const copy = await copyRenderedToSigned(p);
      await tx.prescription.update({
        where: { id: p.id },
        data: { status: PRESCRIPTION_STATUS.externallySigned, signedFileKey: copy.key, signedFileSha256: copy.sha256, signedAt: new Date() },
      });
      await tx.prescriptionHistory.create({
        data: { prescriptionId: p.id, fromStatus: p.status, toStatus: PRESCRIPTION_STATUS.externallySigned, ...actorColumns(actor) },
      });
      await enqueueTask(tx, "pharmacy_manager.send_prescription", { prescriptionId: p.id, organisationId: p.organisationId });
      return { id: p.id, status: PRESCRIPTION_STATUS.externallySigned };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
