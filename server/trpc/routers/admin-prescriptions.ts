/**
 * The admin tool, Prescriptions: the organisation's prescriptions and statistics, one prescription
 * with its PDF, and the Management API's two commands on it (render, external sign) through the
 * same domain functions, as the signed-in admin.
 */
import { UnprocessableError } from "@/server/domain/errors";
import { externallySignPrescription } from "@/server/domain/prescriptions/external-sign";
import { getPrescriptionOverview, listPrescriptions, readPrescriptionPdf } from "@/server/domain/prescriptions/overview";
import { prescriptionStatistics } from "@/server/domain/prescriptions/queries";
import { requestPrescriptionRender } from "@/server/domain/prescriptions/request-render";
import type { PrescriptionStatus } from "@/server/domain/prescriptions/statuses";
import { adminProcedure, router } from "@/server/trpc/init";
import { presentPrescriptionListEntry, presentPrescriptionOverview } from "./admin-prescriptions.presenters";
import { externalSignInput, listPrescriptionsInput, prescriptionInput } from "./admin-prescriptions.schemas";

export const adminPrescriptionsRouter = router({
  list: adminProcedure.input(listPrescriptionsInput).query(async ({ ctx, input }) => {
    const page = { page: input.page, limit: input.limit };
    const { items, total } = await listPrescriptions(ctx.scope.organisationId, { status: input.status as PrescriptionStatus | undefined, search: input.search }, page);
    return { items: items.map(presentPrescriptionListEntry), total, page: input.page, limit: input.limit, totalPages: Math.ceil(total / input.limit) };
  }),

  /** The Management API's statistics: how many live prescriptions are in each status now. */
  statistics: adminProcedure.query(({ ctx }) => prescriptionStatistics(ctx.scope.organisationId)),

  get: adminProcedure.input(prescriptionInput).query(async ({ ctx, input }) =>
    presentPrescriptionOverview(await getPrescriptionOverview(ctx.scope.organisationId, input.uid)),
  ),

  /** The signed PDF once signed, else the rendered one (base64); null when neither exists yet. */
  pdf: adminProcedure.input(prescriptionInput).query(async ({ ctx, input }) => {
    const file = await readPrescriptionPdf(ctx.scope.organisationId, input.uid);
    return file ? { kind: file.kind, filename: file.filename, contentBase64: file.content.toString("base64") } : null;
  }),

  render: adminProcedure.input(prescriptionInput).mutation(async ({ ctx, input }) => {
    const { uid } = await requestPrescriptionRender(input.uid, ctx.scope.organisationId, { type: "USER", userId: ctx.user.id });
    return { uid };
  }),

  /** Records the uploaded PDF, signed outside the service, as the prescription's signed copy. */
  externalSign: adminProcedure.input(externalSignInput).mutation(async ({ ctx, input }) => {
    try {
      const signed = await externallySignPrescription(
        ctx.scope.organisationId,
        input.uid,
        { type: "USER", userId: ctx.user.id },
        Buffer.from(input.signedPdfBase64, "base64"),
      );
      return { uid: signed.id, status: signed.status };
    } catch (error) {
      // The domain names the file `signed_pdf` (the REST field); this input carries it as signedPdfBase64.
      if (error instanceof UnprocessableError && error.fieldMessages?.signed_pdf) {
        throw new UnprocessableError(error.text ?? error.message, { signedPdfBase64: error.fieldMessages.signed_pdf });
      }
      throw error;
    }
  }),
});
