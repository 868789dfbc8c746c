/**
 * The doctors' workspace (users with the DOCTOR role, bound to a Doctor of their organisation): the
 * queue of prescription requests, deciding on one (sign, decline, hold) as that doctor, the waiting
 * room and their own statistics. The same domain functions as the Management API; a request
 * assigned to another doctor is not found, like another organisation's.
 */
import { wordIn } from "@/i18n/error-text";
import type { Actor } from "@/server/domain/actor";
import { getDoctorStatistics } from "@/server/domain/doctors/queries";
import { changeRequestNoticeSetting, requestNoticeSetting } from "@/server/domain/doctors/request-notice-setting";
import { completeConsultation } from "@/server/domain/meetings/complete-consultation";
import { getDoctorWaitingRoom } from "@/server/domain/meetings/doctor-waiting-room";
import { takeNextPatient } from "@/server/domain/meetings/take-next-patient";
import { approveAndSignPrescription, approvePrescription, declinePrescription, holdPrescription, type Decision } from "@/server/domain/prescriptions/decisions";
import { IncompletePrescriptionError } from "@/server/domain/prescriptions/completeness";
import { getDoctorRequest, getDoctorRequestPdf, listDoctorQueue, missingForSigningBy } from "@/server/domain/prescriptions/doctor-queue";
import { setDosageInstructions } from "@/server/domain/prescriptions/dosage-instructions";
import { countAwaitingSignature, listSignCentre } from "@/server/domain/prescriptions/sign-centre";
import { signApprovedPrescriptions, signingProgress } from "@/server/domain/prescriptions/sign-approved";
import { presentedStatus } from "@/server/domain/prescriptions/statuses";
import { doctorSigningStatus, linkDoctorCredential, listCredentialChoices, unlinkDoctorCredential } from "@/server/domain/trust-service/doctor-credential";
import { doctorProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { presentBatch, presentCredentialChoice, presentQueue, presentSignCentre, presentRequest, presentSigningStatus, presentStatistics, presentWaitingRoom } from "./doctor.presenters";
import {
  completeConsultationInput,
  declineInput,
  batchProgressInput,
  findCredentialsInput,
  holdInput,
  linkCredentialInput,
  requestInput,
  requestNoticesInput,
  setDosageInput,
  signBatchInput,
  signInput,
  statisticsInput,
} from "./doctor.schemas";

/** A decision of the signed-in doctor, on the doctor queue's requests only. */
const asDoctor = (ctx: { user: { id: string }; scope: { doctorId: string } }, note?: string): Decision => ({
  actor: { type: "USER", userId: ctx.user.id } satisfies Actor,
  doctorId: ctx.scope.doctorId,
  note,
  ownRequestsOnly: true,
});

const presentDecision = (r: { id: string; status: string; changed: boolean }) => ({ uid: r.id, status: presentedStatus(r.status), changed: r.changed });

export const doctorRequestsRouter = router({
  queue: doctorProcedure.query(async ({ ctx }) => presentQueue(await listDoctorQueue(ctx.scope.organisationId, ctx.scope.doctorId), ctx.scope.doctorId)),

  get: doctorProcedure.input(requestInput).query(async ({ ctx, input }) => {
    const [request, missing] = await Promise.all([
      getDoctorRequest(ctx.scope.organisationId, ctx.scope.doctorId, input.prescriptionUid),
      missingForSigningBy(ctx.scope.organisationId, ctx.scope.doctorId, input.prescriptionUid),
    ]);
    return {
      ...presentRequest(request, ctx.scope.doctorId),
      /** Why signing would be refused now, as signing words it (null: nothing missing). */
      cannotSign: missing.length > 0 ? wordIn(ctx.locale)(new IncompletePrescriptionError(missing).text!) : null,
    };
  }),

  /** The dosage instructions of the request's lines, confirmed or edited before signing (unsigned requests only). */
  setDosage: doctorProcedure.input(setDosageInput).mutation(async ({ ctx, input }) => {
    const result = await setDosageInstructions(
      ctx.scope.organisationId,
      input.prescriptionUid,
      { actor: { type: "USER", userId: ctx.user.id }, doctorId: ctx.scope.doctorId, ownRequestsOnly: true },
      input.lines.map((line) => ({ lineId: line.lineUid, dosage: line.dosage })),
    );
    return { uid: result.id, changed: result.changed, lines: result.lines.map((line) => ({ uid: line.id, dosage: line.dosage })) };
  }),

  /** The signed PDF once signed, else a preview of the PDF signing will produce (base64). */
  pdf: doctorProcedure.input(requestInput).query(async ({ ctx, input }) => {
    const file = await getDoctorRequestPdf(ctx.scope.organisationId, ctx.scope.doctorId, input.prescriptionUid);
    return { filename: file.filename, signed: file.signed, contentBase64: file.content.toString("base64") };
  }),

  /** Approve only (the dosage instructions as saved): a decision, signed later in the Sign centre. */
  approve: doctorProcedure.input(requestInput).mutation(async ({ ctx, input }) =>
    presentDecision(await approvePrescription(ctx.scope.organisationId, input.prescriptionUid, asDoctor(ctx))),
  ),

  /**
   * Approve (unless approved) and sign with the doctor's own qualified signer (outside the sandbox
   * authorised by the one-time password or PIN given here, used once), or without QES where the
   * domain allows it.
   */
  sign: doctorProcedure.input(signInput).mutation(async ({ ctx, input }) =>
    presentDecision(
      await approveAndSignPrescription(ctx.scope.organisationId, input.prescriptionUid, { ...asDoctor(ctx), authorisation: { otp: input.otp, pin: input.pin } }),
    ),
  ),

  decline: doctorProcedure.input(declineInput).mutation(async ({ ctx, input }) =>
    presentDecision(await declinePrescription(ctx.scope.organisationId, input.prescriptionUid, asDoctor(ctx, input.reason))),
  ),

  hold: doctorProcedure.input(holdInput).mutation(async ({ ctx, input }) =>
    presentDecision(await holdPrescription(ctx.scope.organisationId, input.prescriptionUid, asDoctor(ctx, input.note))),
  ),
});

/** The Sign centre: the doctor's approved prescriptions, signed in batches with one authorisation (sign-approved.ts). */
export const doctorSignCentreRouter = router({
  list: doctorProcedure.query(async ({ ctx }) => presentSignCentre(await listSignCentre(ctx.scope.organisationId, ctx.scope.doctorId), ctx.locale)),

  count: doctorProcedure.query(async ({ ctx }) => ({ count: await countAwaitingSignature(ctx.scope.organisationId, ctx.scope.doctorId) })),

  sign: doctorProcedure.input(signBatchInput).mutation(async ({ ctx, input }) =>
    presentBatch(
      await signApprovedPrescriptions(
        ctx.scope.organisationId,
        { id: ctx.scope.doctorId, actor: user(ctx) },
        input.prescriptionUids,
        { otp: input.otp, pin: input.pin },
        { claimId: input.batchUid },
      ),
      ctx.locale,
    ),
  ),

  /** A running batch's progress (null: not known to this server yet, or long over). */
  progress: doctorProcedure.input(batchProgressInput).query(({ ctx, input }) => signingProgress(ctx.scope.organisationId, ctx.scope.doctorId, input.batchUid)),
});

export const doctorWaitingRoomRouter = router({
  get: doctorProcedure.query(async ({ ctx }) => presentWaitingRoom(await getDoctorWaitingRoom(ctx.scope.organisationId, ctx.scope.doctorId))),

  /** null: nobody is waiting for this doctor. */
  takeNext: doctorProcedure.mutation(async ({ ctx }) => {
    const allocation = await takeNextPatient(ctx.scope.organisationId, ctx.scope.doctorId);
    return allocation
      ? { queueUid: allocation.queueUid, meetingUid: allocation.meetingId, videoRoomId: allocation.videoRoomId, allocatedAt: unix(allocation.allocatedAt) }
      : null;
  }),

  complete: doctorProcedure.input(completeConsultationInput).mutation(async ({ ctx, input }) => {
    const result = await completeConsultation(ctx.scope.organisationId, ctx.scope.doctorId, input.queueUid);
    return { queueUid: result.queueUid, changed: result.changed };
  }),
});

export const doctorStatisticsRouter = router({
  get: doctorProcedure.input(statisticsInput).query(async ({ ctx, input }) =>
    presentStatistics(
      await getDoctorStatistics(ctx.scope.organisationId, ctx.scope.doctorId, { from: new Date(input.from * 1000), to: new Date(input.to * 1000 + 999) }),
    ),
  ),
});

/** The doctor's own signing credential at the organisation's trust service (docs/decisions/prescriptions.md#remote-qualified-signatures). */
export const doctorSigningRouter = router({
  status: doctorProcedure.query(async ({ ctx }) => presentSigningStatus(await doctorSigningStatus(ctx.scope.organisationId, ctx.scope.doctorId))),

  /** The credentials the trust service holds for the doctor's user id there (asked on request, not cached). */
  findCredentials: doctorProcedure.input(findCredentialsInput).mutation(async ({ ctx, input }) =>
    (await listCredentialChoices(ctx.scope.organisationId, ctx.scope.doctorId, input.userId ?? "")).map((c) => presentCredentialChoice(c, ctx.locale)),
  ),

  link: doctorProcedure.input(linkCredentialInput).mutation(async ({ ctx, input }) => {
    await linkDoctorCredential(ctx.scope.organisationId, { id: ctx.scope.doctorId }, user(ctx), input.credentialId ?? "");
    return presentSigningStatus(await doctorSigningStatus(ctx.scope.organisationId, ctx.scope.doctorId));
  }),

  unlink: doctorProcedure.mutation(async ({ ctx }) => {
    await unlinkDoctorCredential(ctx.scope.organisationId, { id: ctx.scope.doctorId }, user(ctx));
    return presentSigningStatus(await doctorSigningStatus(ctx.scope.organisationId, ctx.scope.doctorId));
  }),
});

/** The doctor's own e-mails about new waiting requests (off by default; audited when changed). */
export const doctorNoticesRouter = router({
  get: doctorProcedure.query(async ({ ctx }) => requestNoticeSetting(ctx.scope.organisationId, ctx.scope.doctorId)),

  set: doctorProcedure.input(requestNoticesInput).mutation(async ({ ctx, input }) => {
    await changeRequestNoticeSetting(ctx.scope.organisationId, ctx.scope.doctorId, ctx.user.id, input.enabled);
    return requestNoticeSetting(ctx.scope.organisationId, ctx.scope.doctorId);
  }),
});

const user = (ctx: { user: { id: string } }): Actor => ({ type: "USER", userId: ctx.user.id });
