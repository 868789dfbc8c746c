import { createOrResolvePatient } from "@/server/domain/patients/create-patient";
import { findPatientByEmail, getPatientProfile } from "@/server/domain/patients/queries";
import { patientIntentReturnCode } from "@/server/domain/patients/submissions";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { patientCreatedSchema, patientIntentSchema, patientProfileSchema, presentPatientProfile } from "./patient.presenters";
import { createPatientSchema, patientByEmailQuery } from "./patients.schemas";

export const patientRoutes = [
  route({
    method: "POST",
    path: "/patients",
    examples: {
      body: { shop_uid: "5b2e4c1d-7a3f-4e8b-9c0d-1e2f3a4b5c6d", shop_customer_id: "customer-42", email: "erika@example.com", fields: [{ field: "phone", value: "+49 30 1234567" }] },
    },
    responses: { 200: patientCreatedSchema, 201: patientCreatedSchema },
    summary: "Create or resolve the patient of a shop's customer (201 new, 200 existing); a given email and fields replace the stored ones",
    permission: "patient:write",
    body: createPatientSchema,
    async handle({ principal, body }) {
      const { patientId, created } = await createOrResolvePatient(principal.organisationId, {
        shopId: body.shop_uid,
        shopCustomerId: body.shop_customer_id,
        email: body.email,
        fields: body.fields,
      });
      return reply(created ? 201 : 200, { patient_profile_uid: patientId });
    },
  }),
  route({
    method: "GET",
    path: "/patients",
    responses: { 200: patientProfileSchema },
    summary: "The most recently created patient whose profile, shop customer or order e-mail is this one (case-insensitive)",
    permission: "patient:read",
    query: patientByEmailQuery,
    async handle({ principal, query }) {
      return reply(200, presentPatientProfile(await findPatientByEmail(principal.organisationId, query.email)));
    },
  }),
  route({
    method: "GET",
    path: "/patients/:patient_uid",
    responses: { 200: patientProfileSchema },
    summary: "A patient profile with its shop links and profile fields",
    permission: "patient:read",
    async handle({ principal, params }) {
      return reply(200, presentPatientProfile(await getPatientProfile(principal.organisationId, params.patient_uid)));
    },
  }),
  route({
    method: "GET",
    path: "/patients/:patient_uid/intent/:intent",
    responses: { 200: patientIntentSchema },
    summary: "Whether the patient has a signed submission for the intent: VALID (signed within 12 months), EXPIRED or NOT_FOUND",
    permission: "patient:read",
    async handle({ principal, params }) {
      return reply(200, { return_code: await patientIntentReturnCode(principal.organisationId, params.patient_uid, params.intent) });
    },
  }),
];
