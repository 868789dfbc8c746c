/**
 * The admin tool's doctors (the Doctors section, docs/decisions/admin-tool.md#the-doctors-section): the
 * list with each doctor's pending requests, a doctor's settings, rights, assigned questionnaires and
 * prescriber details (what each prescription names of them), requeueing their pending requests,
 * deactivating them. Always the admin's organisation; another organisation's doctor is not found.
 */
import {
  changeDoctorSettings,
  DOCTOR_LIST_LIMIT,
  listAdminDoctors,
  pendingOfDoctor,
  setDoctorActive,
} from "@/server/domain/doctors/doctor-settings";
import { changePrescriberDetails, getAdminDoctor, PRESCRIBER_DETAIL_FIELDS, type AdminDoctor } from "@/server/domain/doctors/prescriber-details";
import { requeuePendingPrescriptions, requeueTargets } from "@/server/domain/doctors/requeue";
import { listQuestionnaires } from "@/server/domain/questionnaires/queries";
import { doctorSigningStatus } from "@/server/domain/trust-service/doctor-credential";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { changeDoctorSettingsInput, changePrescriberDetailsInput, doctorUidInput, requeueInput, setDoctorActiveInput } from "./admin-doctors.schemas";

const presentDoctor = (doctor: AdminDoctor) => ({
  uid: doctor.id,
  name: doctor.displayName,
  email: doctor.email,
  canSignQes: doctor.canSignQes,
  canSeeAllPrescriptions: doctor.canSeeAllPrescriptions,
  minutesToRespond: doctor.minutesToRespond,
  questionnaireUids: doctor.questionnaires.map((q) => q.questionnaireId),
  active: doctor.deactivatedAt === null,
  deactivatedAt: doctor.deactivatedAt ? unix(doctor.deactivatedAt) : null,
  createdAt: unix(doctor.createdAt),
  user: doctor.user ? { uid: doctor.user.id, email: doctor.user.email, active: doctor.user.deactivatedAt === null } : null,
  prescriber: Object.fromEntries(PRESCRIBER_DETAIL_FIELDS.map((field) => [field, doctor[field]])) as Pick<AdminDoctor, (typeof PRESCRIBER_DETAIL_FIELDS)[number]>,
});

export const adminDoctorsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => {
    const { items, total } = await listAdminDoctors(ctx.scope.organisationId);
    return {
      total,
      limit: DOCTOR_LIST_LIMIT,
      items: items.map((d) => ({
        uid: d.id,
        name: d.displayName,
        email: d.email,
        minutesToRespond: d.minutesToRespond,
        canSignQes: d.canSignQes,
        canSeeAllPrescriptions: d.canSeeAllPrescriptions,
        active: d.deactivatedAt === null,
        pending: d.pending,
        overdue: d.overdue,
      })),
    };
  }),

  get: adminProcedure.input(doctorUidInput).query(async ({ ctx, input }) => presentDoctor(await getAdminDoctor(ctx.scope.organisationId, input.doctorUid))),

  /** What the detail page shows beside the doctor: the signing credential, pending requests, the questionnaires and colleagues to choose from. */
  context: adminProcedure.input(doctorUidInput).query(async ({ ctx, input }) => {
    const organisationId = ctx.scope.organisationId;
    const doctor = await getAdminDoctor(organisationId, input.doctorUid);
    const [signing, pending, questionnaires, colleagues] = await Promise.all([
      doctorSigningStatus(organisationId, doctor.id),
      pendingOfDoctor(organisationId, doctor.id),
      listQuestionnaires(organisationId),
      requeueTargets(organisationId, doctor.id),
    ]);
    const credential = signing.credential;
    return {
      sandbox: signing.sandbox,
      trustService: signing.trustService?.displayName ?? null,
      credential: credential
        ? { subjectName: credential.subjectName, subject: credential.subject, issuerName: credential.issuerName, validFrom: unix(credential.validFrom), validTo: unix(credential.validTo) }
        : null,
      pending,
      questionnaires: questionnaires.map((q) => ({ uid: q.id, name: q.displayName })).sort((a, b) => a.name.localeCompare(b.name)),
      colleagues: colleagues.map((c) => ({ uid: c.id, name: c.displayName })),
    };
  }),

  changeSettings: adminProcedure.input(changeDoctorSettingsInput).mutation(async ({ ctx, input }) => {
    const { doctorUid, name, questionnaireUids, ...rest } = input;
    await changeDoctorSettings(ctx.scope.organisationId, ctx.user.id, doctorUid, { ...rest, displayName: name, questionnaireIds: questionnaireUids });
    return presentDoctor(await getAdminDoctor(ctx.scope.organisationId, doctorUid));
  }),

  changePrescriberDetails: adminProcedure
    .input(changePrescriberDetailsInput)
    .mutation(async ({ ctx, input: { doctorUid, ...details } }) => presentDoctor(await changePrescriberDetails(ctx.scope.organisationId, ctx.user.id, doctorUid, details))),

  requeue: adminProcedure.input(requeueInput).mutation(async ({ ctx, input }) => {
    const target = input.toDoctorUid ? { kind: "doctor" as const, doctorId: input.toDoctorUid } : { kind: "pool" as const };
    const { moved } = await requeuePendingPrescriptions(ctx.scope.organisationId, ctx.user.id, input.doctorUid, target);
    return { moved: moved.length };
  }),

  setActive: adminProcedure.input(setDoctorActiveInput).mutation(async ({ ctx, input }) => {
    await setDoctorActive(ctx.scope.organisationId, ctx.user.id, input.doctorUid, input.active);
    return presentDoctor(await getAdminDoctor(ctx.scope.organisationId, input.doctorUid));
  }),
});
