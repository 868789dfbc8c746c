import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NotFoundError, ValidationError } from "@/server/domain/errors";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { inDocumentOrder, medicineName } from "./document";
import { DOSAGE_INSTRUCTIONS_MAX } from "./dosage-limits";
import { doctorMaySee } from "./doctor-reach";
import { claimedByAnother, lockPrescription } from "./lock";
import { prescriptionStatusText } from "./status-text";
import { AWAITING_DOCTOR_STATUSES, normalisePrescriptionStatus } from "./statuses";

export type DosageEdit = { lineId: string; dosage: string };

export type DosageEditor = {
  actor: Actor;
  /** The editing doctor. */
  doctorId: string | null;
  /** The doctors' workspace: only requests of the doctor queue, unassigned or the doctor's own (decisions.ts); any other is not found. */
  ownRequestsOnly?: boolean;
};

/**
 * The doctor confirms or edits the dosage instructions of a prescription's lines before signing
 * (AMVV § 2 (1) 7: the document names them; completeness.ts refuses to sign without). Allowed
 * while the prescription is unsigned (waiting for a doctor, ON_HOLD, approved) and its order is
 * not on hold, under the prescription's row lock, so a signing that runs at the same time signs
 * either the old or the new instructions, never half of them. A line of another prescription is a
 * field error; changed lines are audited and the draft PDF is rendered again (prescription.render).
 * Saving the same instructions again changes nothing.
 */
export async function setDosageInstructions(
  organisationId: string,
  prescriptionId: string,
  editor: DosageEditor,
  edits: readonly DosageEdit[],
): Promise<{ id: string; changed: number; lines: { id: string; dosage: string | null }[] }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const p = await lockPrescription(tx, organisationId, prescriptionId);
    const row = await tx.prescription.findUniqueOrThrow({
      where: { id: p.id },
      select: { source: true, lines: { select: { id: true, dosage: true, sku: { select: { displayName: true, prescriptionName: true, pzn: true } } } } },
    });
    if (editor.ownRequestsOnly && (!editor.doctorId || !(await doctorMaySee(tx, organisationId, editor.doctorId, p.id)))) {
      throw new NotFoundError();
    }
    if (p.orderOnHold) throw new ConflictError(errorText("prescriptions.orderOnHold"), { code: "order_on_hold" });
    const status = normalisePrescriptionStatus(p.status);
    if (!status || !AWAITING_DOCTOR_STATUSES.includes(status)) {
      throw new ConflictError(errorText("prescriptions.dosage.notEditable", { status: prescriptionStatusText(p.status) }));
    }
    // A batch signing it renders what it reads now: the signed document must say what is stored.
    if (claimedByAnother(p)) throw new ConflictError(errorText("prescriptions.dosage.beingSigned"), { code: "being_signed" });

    const lines = inDocumentOrder(row.lines);
    const byId = new Map(lines.map((line) => [line.id, line]));
    const errors = new FieldErrorCollector();
    edits.forEach((edit, index) => {
      if (!byId.has(edit.lineId)) errors.add(["lines", index, "line_uid"], errorText("prescriptions.dosage.unknownLine"));
      const dosage = edit.dosage.trim();
      if (!dosage) errors.add(["lines", index, "dosage"], errorText("prescriptions.dosage.required"));
      if (dosage.length > DOSAGE_INSTRUCTIONS_MAX) errors.add(["lines", index, "dosage"], errorText("fields.atMostCharacters", { max: String(DOSAGE_INSTRUCTIONS_MAX) }));
    });
    if (!errors.empty) throw new ValidationError(errors.fields);

    const wanted = new Map(edits.map((edit) => [edit.lineId, edit.dosage.trim()]));
    const changes = lines.flatMap((line, index) => {
      const to = wanted.get(line.id);
      return to !== undefined && to !== line.dosage ? [{ line, position: index + 1, from: line.dosage, to }] : [];
    });
    for (const change of changes) await tx.prescriptionLine.update({ where: { id: change.line.id }, data: { dosage: change.to } });
    if (changes.length > 0) {
      await recordAuditEvent(tx, organisationId, editor.actor, {
        entity: "prescription",
        entityId: p.id,
        action: "dosage_instructions_changed",
        values: { changes: changes.map((c) => `item ${c.position} (${medicineName(c.line.sku)}) "${c.to}"`).join("; ") },
        summary: `Dosage instructions changed: ${changes.map((c) => `item ${c.position} (${medicineName(c.line.sku)}) "${c.to}"`).join("; ")}`,
        details: { lines: changes.map((c) => ({ line_uid: c.line.id, from: c.from, to: c.to })) },
      });
      // The draft PDF shows the new instructions (the render task skips a signed prescription).
      await enqueueTask(tx, "prescription.render", { prescriptionId: p.id });
    }
    return { id: p.id, changed: changes.length, lines: lines.map((line) => ({ id: line.id, dosage: wanted.get(line.id) ?? line.dosage })) };
  });
}
