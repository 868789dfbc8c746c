/**
 * The admin tool, Patients: find patients by e-mail (the Management API's match), one patient with
 * their profile, intents, wallet passes and orders, and "Revoke pass" (the Management API's DELETE:
 * the same command, audited, its devices told). Always the admin's organisation: another
 * organisation's patient or pass is NOT_FOUND.
 */
import { getPatientDetailForAdmin, listPatientOrders } from "@/server/domain/patients/patient-detail";
import { findPatientsByEmail } from "@/server/domain/patients/queries";
import { revokeWalletPass } from "@/server/domain/wallet-passes/revoke-pass";
import { adminProcedure, router } from "@/server/trpc/init";
import { presentOrderRow } from "./admin-orders.presenters";
import { presentPatientDetail, presentPatientSummary } from "./admin-patients.presenters";
import { patientInput, patientOrdersInput, revokeWalletPassInput, searchPatientsInput } from "./admin-patients.schemas";

export const adminPatientsRouter = router({
  search: adminProcedure.input(searchPatientsInput).query(async ({ ctx, input }) => ({
    items: (await findPatientsByEmail(ctx.scope.organisationId, input.email)).map(presentPatientSummary),
  })),

  get: adminProcedure.input(patientInput).query(async ({ ctx, input }) => presentPatientDetail(await getPatientDetailForAdmin(ctx.scope.organisationId, input.uid))),

  orders: adminProcedure.input(patientOrdersInput).query(async ({ ctx, input }) => {
    const { items, total } = await listPatientOrders(ctx.scope.organisationId, input.uid, { page: input.page, limit: input.limit });
    return { items: items.map(presentOrderRow), total, page: input.page, totalPages: Math.ceil(total / input.limit) };
  }),

  revokeWalletPass: adminProcedure.input(revokeWalletPassInput).mutation(async ({ ctx, input }) => {
    await revokeWalletPass(ctx.scope.organisationId, input.passUid, { type: "USER", userId: ctx.user.id });
    return { revoked: true };
  }),
});
