import { externallySignPrescription } from "@/server/domain/prescriptions/external-sign";
import { getPrescription, prescriptionStatistics } from "@/server/domain/prescriptions/queries";
import { requestPrescriptionRender } from "@/server/domain/prescriptions/request-render";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { conflictErrorSchema } from "@/server/rest/error-schemas";
import {
  prescriptionExternalSignSchema,
  prescriptionRenderSchema,
  prescriptionSchema,
  prescriptionStatisticsSchema,
  presentPrescription,
  presentPrescriptionStatistics,
} from "./prescription.presenters";


export const prescriptionRoutes = [
  // A static segment: the REST kit matches it before /prescriptions/:prescription_uid.
  route({
    method: "GET",
    path: "/prescriptions/statistics",
    responses: { 200: prescriptionStatisticsSchema },
    summary: "How many of the organisation's prescriptions are in each status now (no date filter)",
    permission: "prescription:read",
    async handle({ principal }) {
      return reply(200, presentPrescriptionStatistics(await prescriptionStatistics(principal.organisationId)));
    },
  }),
  route({
    method: "GET",
    path: "/prescriptions/:prescription_uid",
    responses: { 200: prescriptionSchema },
    summary: "One prescription",
    permission: "prescription:read",
    async handle({ principal, params }) {
      return reply(200, presentPrescription(await getPrescription(principal.organisationId, params.prescription_uid)));
    },
  }),
  route({
    method: "POST",
    path: "/prescriptions/:prescription_uid/render",
    responses: { 202: prescriptionRenderSchema, 409: conflictErrorSchema },
    summary: "Render the prescription PDF asynchronously; poll the prescription until rendered is true",
    permission: "prescription:external_sign",
    successStatus: 202,
    async handle({ principal, actor, params }) {
      const { uid } = await requestPrescriptionRender(params.prescription_uid, principal.organisationId, actor);
      return reply(202, {
        uid,
        message: "Rendering started. Poll GET /v1/management/prescriptions/{uid} until rendered is true.",
      });
    },
  }),
  route({
    method: "POST",
    path: "/prescriptions/:prescription_uid/external-sign",
    responses: { 200: prescriptionExternalSignSchema, 409: conflictErrorSchema },
    summary: "Record a signature made outside the service (waiting for doctor, no anamnesis, rendered PDF)",
    permission: "prescription:external_sign",
    successStatus: 200,
    async handle(ctx) {
      const signed = await externallySignPrescription(ctx.principal.organisationId, ctx.params.prescription_uid, ctx.actor);
      return reply(200, { uid: signed.id, status: signed.status });
    },
  }),
];
