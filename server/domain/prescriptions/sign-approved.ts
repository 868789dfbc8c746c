import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { errorText, type Message } from "@/i18n/error-text";
import { database, type Db } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { ConflictError, DomainError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { atSigningKey, prescriptionStorage } from "@/server/storage/prescription-files";
import { IncompletePrescriptionError } from "./completeness";
import { documentForSigning, finaliseSignature, nonQesSignature, renderForSigning, signedCopyOnce, type Decision, type DocumentForSigning } from "./decisions";
import { claimedByAnother, lockPrescription } from "./lock";
import { qesSignerFor, type QesSigner, type SigningAuthorisation } from "./signer";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUS, type PrescriptionStatus } from "./statuses";

/**
 * The Sign centre: a doctor signs many approved prescriptions with ONE authorisation at the trust
 * service (CSC API v2: one credentials/authorize with numSignatures = the batch, one
 * signatures/signHash with every hash). Four steps, none holding a lock for long:
 *
 *   1. claim: each prescription in a short transaction under its lock, if still approved, assigned
 *      to this doctor, of the doctor queue and not claimed by another live batch (a lease:
 *      signingClaimId, signingClaimedUntil) — else "skipped";
 *   2. render: each document naming the signer's identity, outside any transaction (what it reads
 *      cannot change meanwhile: dosage edits and single signatures respect the claim); an
 *      incomplete one is left out ("incomplete");
 *   3. sign: one signer.signAll for every rendered PDF; a refusal (a wrong one-time password) leaves
 *      every one "not signed" with the trust service's reason and nothing stored;
 *   4. finalise: each in its own transaction under its lock, by the rule single signatures follow
 *      (decisions.ts finaliseSignature): still approved and the claim still ours, else "skipped".
 *
 * One failure never undoes the others; claims not finalised are released at the end. Progress is
 * kept in this process for the batch's id (signingProgress), for the page to show.
 */
export type BatchDoctor = { id: string; actor: Actor };

export type BatchOutcome =
  | { id: string; outcome: "signed"; status: PrescriptionStatus }
  | { id: string; outcome: "skipped" | "incomplete" | "not signed"; reason: Message };

export type BatchResult = { claimId: string; outcomes: BatchOutcome[] };

export const SIGN_BATCH_MAX = 100;
/** How long a claim keeps others off: longer than a batch of SIGN_BATCH_MAX takes, short enough that a crashed one frees them soon. */
const CLAIM_LEASE_MS = 10 * 60_000;

export type SigningPhase = "claiming" | "rendering" | "signing" | "storing" | "done";
export type SigningProgress = { phase: SigningPhase; total: number; claimed: number; rendered: number; stored: number };

const progress = new Map<string, SigningProgress & { until: number }>();
const progressKey = (organisationId: string, doctorId: string, claimId: string) => `${organisationId}:${doctorId}:${claimId}`;

/** The progress of a batch of this doctor running in this process; null: unknown (not started yet, or long over). */
export function signingProgress(organisationId: string, doctorId: string, claimId: string): SigningProgress | null {
  const entry = progress.get(progressKey(organisationId, doctorId, claimId));
  if (!entry) return null;
  const { until: _until, ...shown } = entry;
  return shown;
}

export async function signApprovedPrescriptions(
  organisationId: string,
  doctor: BatchDoctor,
  prescriptionIds: readonly string[],
  authorisation: SigningAuthorisation | undefined,
  /** onPhase: told as each step begins, awaited (the bench times the steps; a test acts between them). */
  options: { claimId?: string; onPhase?: (phase: SigningPhase) => void | Promise<void> } = {},
): Promise<BatchResult> {
  const ids = [...new Set(prescriptionIds)];
  if (ids.length === 0) throw ValidationError.field("prescription_uids", errorText("prescriptions.batch.noneChosen"));
  if (ids.length > SIGN_BATCH_MAX) throw ValidationError.field("prescription_uids", errorText("prescriptions.batch.tooMany", { max: String(SIGN_BATCH_MAX) }));
  const claimId = options.claimId ?? randomUUID();
  const db = await database();
  const signer = await signerOf(db, organisationId, doctor.id, authorisation);

  const key = progressKey(organisationId, doctor.id, claimId);
  const state = { phase: "claiming" as SigningPhase, total: ids.length, claimed: 0, rendered: 0, stored: 0, until: Date.now() + CLAIM_LEASE_MS };
  sweepProgress();
  progress.set(key, state);
  const enter = async (phase: SigningPhase) => {
    state.phase = phase;
    await options.onPhase?.(phase);
  };
  const outcomes = new Map<string, BatchOutcome>();
  const decided = (outcome: BatchOutcome) => outcomes.set(outcome.id, outcome);
  try {
    // 1. Claim.
    await enter("claiming");
    const claimed: string[] = [];
    const until = new Date(Date.now() + CLAIM_LEASE_MS);
    for (const id of ids) {
      const refusal = await claim(db, organisationId, doctor.id, id, claimId, until);
      if (refusal) decided({ id, outcome: "skipped", reason: refusal });
      else claimed.push(id);
      state.claimed = claimed.length;
    }

    // 2. Render, each naming the signer's identity, at one signing time.
    await enter("rendering");
    const signedAt = new Date();
    const rendered: { id: string; pdf: Buffer }[] = [];
    for (const id of claimed) {
      try {
        const document: DocumentForSigning = await documentForSigning(db, id, doctor.id);
        const statement = signer.qes ? { kind: "qes" as const, ...signer.qes.identity, signedAt } : { kind: "nonQes" as const, signedAt };
        rendered.push({ id, pdf: await renderForSigning(document, statement) });
      } catch (error) {
        if (!(error instanceof IncompletePrescriptionError)) throw error;
        decided({ id, outcome: "incomplete", reason: reasonOf(error) });
      }
      state.rendered += 1;
      // Rendering resolves without giving I/O a turn: without one, nothing else is answered meanwhile
      // (the page's progress polls), and a kept-alive connection the trust service closed looks open.
      await nextTurn();
    }

    // 3. One authorisation and one signHash for all of them.
    await enter("signing");
    let signed: Buffer[];
    try {
      signed = signer.qes && rendered.length > 0 ? await signer.qes.signAll(rendered.map((r) => r.pdf), { signingTime: signedAt, reason: "Prescription" }) : rendered.map((r) => r.pdf);
    } catch (error) {
      // A factor left out is the form's to say (nothing was claimed for good: released below).
      if (error instanceof ValidationError || !(error instanceof DomainError)) throw error;
      for (const r of rendered) decided({ id: r.id, outcome: "not signed", reason: reasonOf(error) });
      return { claimId, outcomes: ids.map((id) => outcomes.get(id)!) };
    }

    // 4. Finalise each on its own.
    await enter("storing");
    const decision: Decision = { actor: doctor.actor, doctorId: doctor.id };
    for (const [i, r] of rendered.entries()) {
      decided(await finalise(db, organisationId, decision, { id: r.id, rendered: r.pdf, signed: signed[i], to: signer.to, signedAt, claimId }));
      state.stored += 1;
    }
    await enter("done");
    return { claimId, outcomes: ids.map((id) => outcomes.get(id)!) };
  } finally {
    state.phase = "done";
    state.until = Date.now() + 60_000;
    await db.prescription.updateMany({ where: { signingClaimId: claimId }, data: { signingClaimId: null, signingClaimedUntil: null } });
  }
}

type BatchSigner = { to: PrescriptionStatus; qes: QesSigner | null };

/** The doctor's signer, made once for the batch (before anything is claimed: no credential is a 422 for the whole batch). */
async function signerOf(db: Db, organisationId: string, doctorId: string, authorisation: SigningAuthorisation | undefined): Promise<BatchSigner> {
  const [organisation, doctor] = await Promise.all([
    db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { id: true, sandbox: true } }),
    db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: { id: true, displayName: true, canSignQes: true } }),
  ]);
  if (!doctor) throw new NotFoundError();
  if (!doctor.canSignQes) return { to: await nonQesSignature(db, organisationId, doctor), qes: null };
  return { to: PRESCRIPTION_STATUS.signed, qes: await qesSignerFor(db, organisation, doctor, authorisation) };
}

/** Claims one prescription for the batch, under its lock; the reason it is skipped, or null when claimed. */
async function claim(db: Db, organisationId: string, doctorId: string, id: string, claimId: string, until: Date): Promise<Message | null> {
  return db.$transaction(async (tx) => {
    const p = await lockPrescription(tx, organisationId, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!p || p.doctorId !== doctorId) return errorText("prescriptions.batch.notYours");
    const row = await tx.prescription.findUniqueOrThrow({ where: { id }, select: { source: true } });
    if (row.source !== "DOCTOR") return errorText("prescriptions.batch.notYours");
    if (p.orderOnHold) return errorText("prescriptions.orderOnHold");
    const status = normalisePrescriptionStatus(p.status) ?? p.status;
    if (status !== PRESCRIPTION_STATUS.approved) return errorText("prescriptions.batch.notApproved");
    if (claimedByAnother(p, claimId)) return errorText("prescriptions.beingSigned");
    await tx.prescription.update({ where: { id }, data: { signingClaimId: claimId, signingClaimedUntil: until } });
    return null;
  });
}

/** Stores one signed prescription in its own transaction, by finaliseSignature's rule; a refusal skips it, a failure leaves it unsigned. */
async function finalise(
  db: Db,
  organisationId: string,
  decision: Decision,
  made: { id: string; rendered: Buffer; signed: Buffer; to: PrescriptionStatus; signedAt: Date; claimId: string },
): Promise<BatchOutcome> {
  try {
    const result = await db.$transaction(async (tx) => {
      const p = await lockPrescription(tx, organisationId, made.id);
      if (p.orderOnHold) throw new ConflictError(errorText("prescriptions.orderOnHold"));
      return finaliseSignature(tx, p, decision, {
        to: made.to,
        doctorId: decision.doctorId!,
        signedAt: made.signedAt,
        renderedFileKey: atSigningKey(made.id),
        claimId: made.claimId,
        // The document as signed is kept beside the draft, as a single signature keeps it.
        copy: async () => {
          await prescriptionStorage().put(atSigningKey(made.id), made.rendered);
          return signedCopyOnce(made.id, async () => made.signed);
        },
      });
    });
    return { id: made.id, outcome: "signed", status: result.status };
  } catch (error) {
    if (error instanceof ConflictError || error instanceof NotFoundError) return { id: made.id, outcome: "skipped", reason: reasonOf(error) };
    console.error(`Sign centre: prescription ${made.id} could not be stored`, error);
    return { id: made.id, outcome: "not signed", reason: error instanceof DomainError ? reasonOf(error) : errorText("prescriptions.batch.failed") };
  }
}

const reasonOf = (error: DomainError): Message => error.text ?? error.message;

function sweepProgress(now = Date.now()) {
  for (const [key, entry] of progress) if (entry.until < now) progress.delete(key);
}
