import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { isSignedStatus } from "./statuses";

/**
 * POST …/prescriptions/{uid}/render: publishes the internal event prescription.render (a background
 * task committed with this request) for an unsigned prescription of the organisation; the PDF is
 * produced asynchronously and `rendered` becomes true. A signed prescription is never rendered again.
 * The request is recorded in the audit log for `actor` (the key or the admin; the status does not
 * change, so the prescription's history has nothing to say).
 */
export async function requestPrescriptionRender(prescriptionId: string, organisationId: string, actor?: Actor): Promise<{ uid: string }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const prescription = await tx.prescription.findFirst({
      where: { id: prescriptionId, organisationId, deletedAt: null },
      select: { id: true, status: true },
    });
    if (!prescription) throw new NotFoundError();
    if (isSignedStatus(prescription.status)) {
      throw new ConflictError(errorText("prescriptions.signedNoRender"));
    }
    await enqueueTask(tx, "prescription.render", { prescriptionId: prescription.id });
    if (actor) {
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "prescription",
        entityId: prescription.id,
        action: "render_requested",
        values: {},
        summary: "Prescription PDF rendering requested",
      });
    }
    return { uid: prescription.id };
  });
}
