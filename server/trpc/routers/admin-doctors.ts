/**
 * The admin tool's doctors: a doctor's prescriber details (what each prescription names of them),
 * read and changed by the organisation's admins. Always the admin's organisation; another
 * organisation's doctor is not found.
 */
import { changePrescriberDetails, getAdminDoctor, PRESCRIBER_DETAIL_FIELDS, type AdminDoctor } from "@/server/domain/doctors/prescriber-details";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { changePrescriberDetailsInput, doctorUidInput } from "./admin-doctors.schemas";

const presentDoctor = (doctor: AdminDoctor) => ({
  uid: doctor.id,
  name: doctor.displayName,
  email: doctor.email,
  canSignQes: doctor.canSignQes,
  createdAt: unix(doctor.createdAt),
  user: doctor.user ? { uid: doctor.user.id, email: doctor.user.email, active: doctor.user.deactivatedAt === null } : null,
  prescriber: Object.fromEntries(PRESCRIBER_DETAIL_FIELDS.map((field) => [field, doctor[field]])) as Pick<AdminDoctor, (typeof PRESCRIBER_DETAIL_FIELDS)[number]>,
});

export const adminDoctorsRouter = router({
  get: adminProcedure.input(doctorUidInput).query(async ({ ctx, input }) => presentDoctor(await getAdminDoctor(ctx.scope.organisationId, input.doctorUid))),

  changePrescriberDetails: adminProcedure
    .input(changePrescriberDetailsInput)
    .mutation(async ({ ctx, input: { doctorUid, ...details } }) => presentDoctor(await changePrescriberDetails(ctx.scope.organisationId, ctx.user.id, doctorUid, details))),
});
