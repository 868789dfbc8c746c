import type { PatientTokenScope } from "@/server/auth/patient-tokens";
import { NotFoundError } from "@/server/domain/errors";
import { getPatientProperty, setPatientProperty } from "@/server/domain/patients/properties";
import type { ShopCustomerRef } from "@/server/domain/patients/shop-customers";
import { shopCustomerIntentReturnCode } from "@/server/domain/patients/submissions";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { intentSchema, patientPropertySchema, presentIntent, presentPatientProperty } from "./patient-data.presenters";
import { customerOnlyQuery, intentQuery, propertyForm, propertyQuery } from "./patient-data.schemas";

/** The permission a Public API key needs on every patient-data operation (G31). */
export const PATIENT_DATA_PERMISSION = "patient_data";

/**
 * The customer the query names. A patient token acts for its own customer only: naming another
 * customer or shop is not found, as anything outside a key's scope is (spec, Authentication item 7).
 */
function customerInScope(token: PatientTokenScope | null, query: { shop_identifier: string; shop_customer_id: string }): ShopCustomerRef {
  if (token && (token.shopIdentifier !== query.shop_identifier || token.shopCustomerId !== query.shop_customer_id)) throw new NotFoundError();
  return { shopIdentifier: query.shop_identifier, shopCustomerId: query.shop_customer_id };
}

export const patientDataRoutes = [
  route({
    method: "GET",
    path: "/intent",
    summary: "When the patient last had a signed submission for the intent: signed_within_12_months, signed_more_than_12_months_ago or no_signed_submission",
    permission: PATIENT_DATA_PERMISSION,
    acceptsPatientToken: true,
    query: intentQuery,
    examples: { query: { shop_identifier: "demo-shop.example", shop_customer_id: "customer-42", intent: "consultation" } },
    responses: { 200: intentSchema },
    async handle({ organisationId, patientToken, query }) {
      return reply(200, presentIntent(await shopCustomerIntentReturnCode(organisationId, customerInScope(patientToken, query), query.intent)));
    },
  }),
  route({
    method: "GET",
    path: "/properties",
    summary: "One profile field of the patient, with its value (null while unset)",
    permission: PATIENT_DATA_PERMISSION,
    acceptsPatientToken: true,
    query: propertyQuery,
    examples: { query: { shop_identifier: "demo-shop.example", shop_customer_id: "customer-42", field: "phone" } },
    responses: { 200: patientPropertySchema },
    async handle({ organisationId, patientToken, query }) {
      return reply(200, presentPatientProperty(await getPatientProperty(organisationId, customerInScope(patientToken, query), query.field)));
    },
  }),
  route({
    method: "POST",
    path: "/properties",
    summary: "Set one profile field of the patient (form data: field, value), checked against the field's type; answers the field as GET shows it",
    permission: PATIENT_DATA_PERMISSION,
    acceptsPatientToken: true,
    query: customerOnlyQuery,
    body: propertyForm,
    bodyFormat: "form",
    successStatus: 200,
    examples: { query: { shop_identifier: "demo-shop.example", shop_customer_id: "customer-42" }, body: { field: "phone", value: "+49 30 1234567" } },
    responses: { 200: patientPropertySchema },
    async handle({ organisationId, patientToken, query, body }) {
      return reply(200, presentPatientProperty(await setPatientProperty(organisationId, customerInScope(patientToken, query), body)));
    },
  }),
];
