import { errorText } from "@/i18n/error-text";
import { database, type Db, type Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { createHash } from "node:crypto";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { recordPrescriptionUpdated } from "@/server/domain/events/prescription-events";
import { atSigningKey, prescriptionStorage, signedKey } from "@/server/storage/prescription-files";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { assertCompleteForSigning } from "./completeness";
import { prescriberSelect, prescriptionDocumentProps, prescriptionDocumentSelect, type Prescriber, type PrescriptionDocumentRow, type SignatureStatement } from "./document";
import { doctorMaySee } from "./doctor-reach";
import { claimedByAnother, lockPrescription, type LockedPrescription } from "./lock";
import { progressOrderAfterPrescription } from "./order-progress";
import { renderPrescriptionDocument } from "./render-pdf";
import { copyRenderedToSigned, renderedPdfOf, storeSignedPdf, type SignedCopy } from "./signed-copy";
import { qesSignerFor, type QesSigner, type SigningAuthorisation } from "./signer";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUS, type PrescriptionStatus } from "./statuses";
import { prescriptionStatusText } from "./status-text";

/**
 * A doctor's decisions on a prescription request (gaps-reference G7):
 *
 *   waiting for doctor ─approve─▶ approved ─sign─▶ signed | NON_QES_SIGNED ─▶ sent to the pharmacy
 *   waiting for doctor | ON_HOLD | approved ─decline─▶ declined (its fulfillment is cancelled)
 *   waiting for doctor | approved ─hold (note)─▶ ON_HOLD ─approve─▶ approved
 *
 * Each decision is one transaction under the prescription's row lock (its order's first) and writes
 * a history entry naming the actor. No decision is taken while the order is on hold (the spec: an
 * order created on hold "does not proceed to a doctor"): every one is a conflict until the hold is
 * released, declining too, since it cancels what the organisation paused to look at. Repeating the decision that made the current status changes
 * nothing (no history): retries are safe. Any other move is a conflict (409).
 */
export type Decision = {
  actor: Actor;
  /** The deciding doctor; assigned to the prescription. Omitted: the doctor already assigned. */
  doctorId?: string | null;
  /** Recorded with the history entry (required to put a prescription on hold). */
  note?: string | null;
  /**
   * The doctors' workspace: the deciding doctor (doctorId) may decide only on requests of the doctor
   * queue (source DOCTOR) they may see (doctor-reach.ts: assigned to them, or unassigned and offered
   * to them by "sees all" or an assigned questionnaire); any other is not found.
   */
  ownRequestsOnly?: boolean;
  /**
   * Signing outside the sandbox: the deciding doctor's own factor for this signature at the trust
   * service (the one-time password or PIN they typed; signer.ts). Used once, never stored or logged.
   */
  authorisation?: SigningAuthorisation;
};

export type DecisionResult = { id: string; status: PrescriptionStatus; changed: boolean };

export type Doctor = { id: string; displayName: string; canSignQes: boolean };

const statusOf = (p: LockedPrescription): PrescriptionStatus | string => normalisePrescriptionStatus(p.status) ?? p.status;

/** A decision the prescription's status does not allow, by the messages' name of the decision. */
function refuse(decision: "approve" | "signApproved" | "sign" | "decline" | "hold", status: string): ConflictError {
  return new ConflictError(errorText(`prescriptions.cannot.${decision}`, { status: prescriptionStatusText(status) }));
}

/** The deciding doctor: the one named (a doctor of the organisation), else the one assigned; none is a conflict. */
export async function decidingDoctor(tx: Tx, p: LockedPrescription, doctorId: string | null | undefined): Promise<Doctor> {
  const id = doctorId ?? p.doctorId;
  if (!id) throw new ConflictError(errorText("prescriptions.noDoctorAssigned"));
  const doctor = await tx.doctor.findFirst({
    where: { id, organisationId: p.organisationId },
    select: { id: true, displayName: true, canSignQes: true, deactivatedAt: true },
  });
  if (!doctor) throw ValidationError.field("doctor_uid", errorText("fields.unknownDoctor"));
  // A deactivated doctor decides nothing (docs/decisions/admin-tool.md#the-doctors-section).
  if (doctor.deactivatedAt) throw new ConflictError(errorText("doctors.deactivated", { doctor: doctor.displayName }), { code: "doctor_deactivated" });
  return doctor;
}

async function decide(
  organisationId: string,
  prescriptionId: string,
  decision: Decision,
  work: (tx: Tx, p: LockedPrescription, status: string) => Promise<DecisionResult>,
): Promise<DecisionResult> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const p = await lockPrescription(tx, organisationId, prescriptionId);
    if (decision.ownRequestsOnly) await checkOwnRequest(tx, p, decision.doctorId);
    if (p.orderOnHold) throw new ConflictError(errorText("prescriptions.orderOnHold"), { code: "order_on_hold" });
    return work(tx, p, statusOf(p));
  }, { timeout: 30_000, maxWait: 30_000 });
}

/** Under the lock: a request of the doctor queue the deciding doctor may see (doctor-reach.ts: theirs, or unassigned and offered to them); else not found. */
async function checkOwnRequest(tx: Tx, p: LockedPrescription, doctorId: string | null | undefined): Promise<void> {
  if (!doctorId || (p.doctorId && p.doctorId !== doctorId)) throw new NotFoundError();
  if (!(await doctorMaySee(tx, p.organisationId, doctorId, p.id))) throw new NotFoundError();
}

async function recordHistory(tx: Tx, p: LockedPrescription, toStatus: string, decision: Decision): Promise<void> {
  await tx.prescriptionHistory.create({
    data: { prescriptionId: p.id, fromStatus: p.status, toStatus, note: decision.note?.trim() || null, ...actorColumns(decision.actor) },
  });
  // Every decision records its history here, after writing the prescription: its webhook event too.
  await recordPrescriptionUpdated(tx, p, toStatus, { reason: decision.note });
}

const unchanged = (p: LockedPrescription, status: PrescriptionStatus): DecisionResult => ({ id: p.id, status, changed: false });

/**
 * waiting for doctor or ON_HOLD → approved: the doctor agrees; a signature comes next. The PDF is
 * rendered again (prescription.render) so that the copy the doctor signs names them.
 */
export function approvePrescription(organisationId: string, prescriptionId: string, decision: Decision): Promise<DecisionResult> {
  return decide(organisationId, prescriptionId, decision, async (tx, p, status) => {
    if (status === PRESCRIPTION_STATUS.approved) {
      if (!decision.doctorId || decision.doctorId === p.doctorId) return unchanged(p, PRESCRIPTION_STATUS.approved);
      throw new ConflictError(errorText("prescriptions.approvedByAnother"));
    }
    if (status !== PRESCRIPTION_STATUS.waitingForDoctor && status !== PRESCRIPTION_STATUS.onHold) {
      throw refuse("approve", status);
    }
    const doctor = await decidingDoctor(tx, p, decision.doctorId);
    await tx.prescription.update({ where: { id: p.id }, data: { status: PRESCRIPTION_STATUS.approved, doctorId: doctor.id } });
    await recordHistory(tx, p, PRESCRIPTION_STATUS.approved, decision);
    // The PDF the doctor signs names the deciding doctor: render it again now.
    await enqueueTask(tx, "prescription.render", { prescriptionId: p.id });
    return { id: p.id, status: PRESCRIPTION_STATUS.approved, changed: true };
  });
}

/**
 * approved → signed (the doctor can sign with a qualified electronic signature) or NON_QES_SIGNED
 * (the doctor cannot, and a telemedicine provider of the organisation allows prescriptions without
 * one); otherwise a conflict. A prescription that lacks an element the document must name is
 * refused (422, completeness.ts). The document is rendered again at signing, with its signature
 * statement (the signer's identity, the signing time: the issue date), and a QES signature is made
 * on it with the doctor's own signer (signer.ts: their sandbox certificate, or their credential
 * at the organisation's trust service, authorised by what the doctor typed; none: 422) and the
 * signed PDF is stored; without a QES the rendered PDF is stored as it is. The prescription is then
 * queued to be sent to its pharmacy.
 */
export function signPrescription(organisationId: string, prescriptionId: string, decision: Decision): Promise<DecisionResult> {
  return decide(organisationId, prescriptionId, decision, async (tx, p, status) => {
    if (status === PRESCRIPTION_STATUS.signed || status === PRESCRIPTION_STATUS.nonQesSigned) return unchanged(p, status);
    if (status !== PRESCRIPTION_STATUS.approved) throw refuse("signApproved", status);
    return signLocked(tx, p, decision);
  });
}

async function signLocked(tx: Tx, p: LockedPrescription, decision: Decision): Promise<DecisionResult> {
  const doctor = await decidingDoctor(tx, p, decision.doctorId);
  // Before anything is rendered or the trust service asked: a live Sign centre batch signs it.
  assertSignable(p, doctor.id);
  const to = doctor.canSignQes ? PRESCRIPTION_STATUS.signed : await nonQesSignature(tx, p.organisationId, doctor);
  const signedAt = new Date();
  // The doctor's signer is made once the document is known to be complete (renderLocked asks for the
  // statement after its check): the statement rendered into the document names the signer's identity.
  const made: { signer?: QesSigner } = {};
  const statement = async (): Promise<SignatureStatement> => {
    if (to !== PRESCRIPTION_STATUS.signed) return { kind: "nonQes", signedAt };
    made.signer = await doctorSigner(tx, p, doctor, decision.authorisation);
    return { kind: "qes", ...made.signer.identity, signedAt };
  };
  const renderedFileKey = await renderLocked(tx, p.id, { doctorId: doctor.id, statement });
  p = { ...p, renderedFileKey };
  const signer = made.signer;
  return finaliseSignature(tx, p, decision, {
    to,
    doctorId: doctor.id,
    signedAt,
    renderedFileKey,
    copy: signer
      ? () => signedCopyOnce(p.id, async () => signer.sign(await renderedPdfOf(p), { signingTime: signedAt, reason: `Prescription ${p.id}` }))
      : () => copyRenderedToSigned(p),
  });
}

/** A signature made for an approved prescription, to be stored by finaliseSignature. */
export type MadeSignature = {
  to: PrescriptionStatus;
  doctorId: string;
  /** The signing time the document's statement names. */
  signedAt: Date;
  /** The PDF rendered for this signature (atSigningKey). */
  renderedFileKey: string;
  /** Stores the signed copy (write-once) and returns it; called only once the rule allows. */
  copy: () => Promise<SignedCopy>;
  /** The Sign centre batch signing it (sign-approved.ts); none for a single signature. */
  claimId?: string;
};

/**
 * Whether a signature may be stored now, under the prescription's lock: it is still approved, for
 * the signing doctor, and no live batch other than `claimId` claims it. Otherwise a conflict.
 */
export function assertSignable(p: LockedPrescription, doctorId: string, claimId?: string): void {
  const status = statusOf(p);
  if (status !== PRESCRIPTION_STATUS.approved) throw refuse("signApproved", status);
  if (p.doctorId && p.doctorId !== doctorId) throw new ConflictError(errorText("prescriptions.approvedByAnother"));
  if (claimedByAnother(p, claimId)) throw new ConflictError(errorText("prescriptions.beingSigned"), { code: "being_signed" });
}

/**
 * The one place a signature is stored, for the single path (signLocked) and the Sign centre's
 * batch: under the lock, if assertSignable allows, the signed copy, the status, history (with its
 * prescription_updated event), the claim released, and sending to the pharmacy queued.
 */
export async function finaliseSignature(tx: Tx, p: LockedPrescription, decision: Decision, made: MadeSignature): Promise<DecisionResult> {
  assertSignable(p, made.doctorId, made.claimId);
  const copy = await made.copy();
  await tx.prescription.update({
    where: { id: p.id },
    data: {
      status: made.to,
      doctorId: made.doctorId,
      renderedFileKey: made.renderedFileKey,
      signedFileKey: copy.key,
      signedFileSha256: copy.sha256,
      signedAt: made.signedAt,
      signingClaimId: null,
      signingClaimedUntil: null,
    },
  });
  await recordHistory(tx, p, made.to, decision);
  await enqueueTask(tx, "pharmacy_manager.send_prescription", { prescriptionId: p.id, organisationId: p.organisationId });
  return { id: p.id, status: made.to, changed: true };
}

/**
 * The signed copy, stored write-once. A signed copy already in storage for a prescription that is
 * still approved was left by an attempt whose transaction rolled back after storing it (only
 * signing writes it before the status changes): it is kept, as a signed copy is never replaced.
 */
export async function signedCopyOnce(prescriptionId: string, sign: () => Promise<Buffer>): Promise<SignedCopy> {
  const storage = prescriptionStorage();
  const key = signedKey(prescriptionId);
  if (await storage.exists(key)) {
    const leftover = await storage.get(key);
    return { key, sha256: createHash("sha256").update(leftover).digest("hex") };
  }
  return storeSignedPdf(prescriptionId, await sign());
}

/** The prescribing doctor's own signer (signer.ts), read inside the transaction. */
async function doctorSigner(tx: Tx, p: LockedPrescription, doctor: Doctor, authorisation?: SigningAuthorisation): Promise<QesSigner> {
  const organisation = await tx.organisation.findUniqueOrThrow({ where: { id: p.organisationId }, select: { id: true, sandbox: true } });
  return qesSignerFor(tx, organisation, doctor, authorisation);
}

/**
 * The doctors' workspace's "Sign prescription": approve (when waiting for a doctor or on hold) and
 * sign (which renders the PDF again, naming the deciding doctor), in one transaction under the
 * prescription's lock, through the same steps as approvePrescription and signPrescription (each
 * status change its own history entry). An already signed prescription changes nothing, so a
 * repeated click is harmless.
 */
export function approveAndSignPrescription(organisationId: string, prescriptionId: string, decision: Decision): Promise<DecisionResult> {
  return decide(organisationId, prescriptionId, decision, async (tx, p, status) => {
    if (status === PRESCRIPTION_STATUS.signed || status === PRESCRIPTION_STATUS.nonQesSigned) return unchanged(p, status);
    if (status === PRESCRIPTION_STATUS.approved) {
      if (decision.doctorId && p.doctorId && decision.doctorId !== p.doctorId) throw new ConflictError(errorText("prescriptions.approvedByAnother"));
    } else if (status === PRESCRIPTION_STATUS.waitingForDoctor || status === PRESCRIPTION_STATUS.onHold) {
      const doctor = await decidingDoctor(tx, p, decision.doctorId);
      await tx.prescription.update({ where: { id: p.id }, data: { status: PRESCRIPTION_STATUS.approved, doctorId: doctor.id } });
      await recordHistory(tx, p, PRESCRIPTION_STATUS.approved, { ...decision, note: null });
      p = { ...p, status: PRESCRIPTION_STATUS.approved, doctorId: doctor.id };
    } else {
      throw refuse("sign", status);
    }
    return signLocked(tx, p, decision);
  });
}

/**
 * Renders the prescription's PDF for signing, under its lock, and stores it; returns its key. The
 * document names the signing doctor, is refused unless complete (completeness.ts: before the
 * signer is asked for its identity), carries the signature statement, and is stored beside the
 * draft (atSigningKey), so that a signing that rolls back leaves the draft as it was.
 */
async function renderLocked(tx: Tx, prescriptionId: string, signing: { doctorId: string; statement: () => Promise<SignatureStatement> }): Promise<string> {
  const document = await documentForSigning(tx, prescriptionId, signing.doctorId);
  const pdf = await renderForSigning(document, await signing.statement());
  const stored = await prescriptionStorage().put(atSigningKey(prescriptionId), pdf);
  await tx.prescription.update({ where: { id: prescriptionId }, data: { renderedFileKey: stored.key } });
  return stored.key;
}

export type DocumentForSigning = { prescription: PrescriptionDocumentRow; prescriber: Prescriber };

/** What the signed document shows, naming the signing doctor; refused unless complete (completeness.ts). */
export async function documentForSigning(db: Db | Tx, prescriptionId: string, doctorId: string): Promise<DocumentForSigning> {
  const prescription = await db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, select: prescriptionDocumentSelect });
  const prescriber =
    prescription.doctor?.id === doctorId ? prescription.doctor : await db.doctor.findUniqueOrThrow({ where: { id: doctorId }, select: prescriberSelect });
  assertCompleteForSigning(prescription, prescriber);
  return { prescription, prescriber };
}

/** The PDF to sign: the document with its signature statement. */
export function renderForSigning(document: DocumentForSigning, signature: SignatureStatement): Promise<Buffer> {
  return renderPrescriptionDocument(prescriptionDocumentProps(document.prescription, { prescriber: document.prescriber, signature }));
}

/**
 * A prescription carries no telemedicine provider of its own: the organisation is the platform, so
 * any of its providers that allows prescriptions without a QES allows it.
 */
export async function nonQesSignature(tx: Tx, organisationId: string, doctor: Doctor): Promise<PrescriptionStatus> {
  const provider = await tx.telemedicineProvider.findFirst({
    where: { organisationId, allowNonQesSignedPrescriptions: true },
    select: { id: true },
  });
  if (!provider) {
    throw new ConflictError(errorText("prescriptions.noQesAllowed", { doctor: doctor.displayName }));
  }
  return PRESCRIPTION_STATUS.nonQesSigned;
}

/**
 * waiting for doctor, ON_HOLD or approved → declined. Nothing of it may reach a pharmacy: each open
 * fulfillment waiting on it (no pharmacy order yet) is cancelled with all its items, as "Cancel a
 * fulfillment" does, and the order moves on ("prescription declined" when nothing of it is left).
 */
export function declinePrescription(organisationId: string, prescriptionId: string, decision: Decision): Promise<DecisionResult> {
  return decide(organisationId, prescriptionId, decision, async (tx, p, status) => {
    if (status === PRESCRIPTION_STATUS.declined) return unchanged(p, PRESCRIPTION_STATUS.declined);
    if (status !== PRESCRIPTION_STATUS.waitingForDoctor && status !== PRESCRIPTION_STATUS.onHold && status !== PRESCRIPTION_STATUS.approved) {
      throw refuse("decline", status);
    }
    const doctor = await decidingDoctor(tx, p, decision.doctorId);
    await tx.prescription.update({ where: { id: p.id }, data: { status: PRESCRIPTION_STATUS.declined, doctorId: doctor.id } });
    await recordHistory(tx, p, PRESCRIPTION_STATUS.declined, decision);

    const waiting = await tx.fulfillment.findMany({
      where: { status: { not: "CANCELLED" }, pharmacyOrder: null, items: { some: { prescriptionId: p.id } } },
      select: { id: true },
    });
    if (waiting.length > 0) {
      const ids = waiting.map((f) => f.id);
      await tx.fulfillment.updateMany({ where: { id: { in: ids } }, data: { status: "CANCELLED", cancelledAt: new Date() } });
      await tx.orderItem.updateMany({ where: { fulfillmentId: { in: ids } }, data: { status: "CANCELLED" } });
    }
    if (p.orderId) await progressOrderAfterPrescription(tx, p.orderId);
    return { id: p.id, status: PRESCRIPTION_STATUS.declined, changed: true };
  });
}

/**
 * waiting for doctor or approved → ON_HOLD, with a note saying what is needed (required). Putting a
 * held prescription on hold again changes nothing. No doctor is needed: the support team may hold
 * a request; a named doctor is assigned.
 */
export function holdPrescription(organisationId: string, prescriptionId: string, decision: Decision): Promise<DecisionResult> {
  if (!decision.note?.trim()) return Promise.reject(ValidationError.field("note", errorText("prescriptions.holdNoteRequired")));
  return decide(organisationId, prescriptionId, decision, async (tx, p, status) => {
    if (status === PRESCRIPTION_STATUS.onHold) return unchanged(p, PRESCRIPTION_STATUS.onHold);
    if (status !== PRESCRIPTION_STATUS.waitingForDoctor && status !== PRESCRIPTION_STATUS.approved) {
      throw refuse("hold", status);
    }
    const doctorId = decision.doctorId ? (await decidingDoctor(tx, p, decision.doctorId)).id : p.doctorId;
    await tx.prescription.update({ where: { id: p.id }, data: { status: PRESCRIPTION_STATUS.onHold, doctorId } });
    await recordHistory(tx, p, PRESCRIPTION_STATUS.onHold, decision);
    return { id: p.id, status: PRESCRIPTION_STATUS.onHold, changed: true };
  });
}
