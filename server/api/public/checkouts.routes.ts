import { z } from "zod";
import { createPrescriptionCheckout } from "@/server/domain/checkouts/create-prescription-checkout";
import { createTreatmentCheckout } from "@/server/domain/checkouts/create-treatment-checkout";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { conflictErrorSchema, standardErrorSchema, unprocessableErrorSchema, upstreamErrorSchema } from "@/server/rest/error-schemas";
import { checkoutSchema, presentCheckout } from "./checkout.presenters";
import { prescriptionCheckoutSchema, toPrescriptionCheckoutInput, toTreatmentCheckoutInput, treatmentCheckoutSchema } from "./checkouts.schemas";

/** A Shopify shop's checkout is a Shopify draft order: refused by Shopify (502) or Shopify unreachable (503). */
const SHOP_PLATFORM_ERRORS = { 502: upstreamErrorSchema, 503: z.union([upstreamErrorSchema, standardErrorSchema]) };

const COMMON_EXAMPLE = {
  shop_customer_id: "customer-42",
  patient_data: { first_name: "Erika", last_name: "Mustermann", date_of_birth: 315532800, gender: "female" },
  checkout_type: "checkout_link",
  shipping_address: { first_name: "Erika", last_name: "Mustermann", address1: "Hauptstraße 5", city: "Berlin", country_code: "DE", zip: "10115" },
  delivery: { delivery_type: "shipping", delivery_price: 495 },
};

export const checkoutRoutes = [
  route({
    method: "POST",
    path: "/prescriptions/:shop_identifier",
    summary: "Create a prescription checkout (inline prescriptions validated for a QES; consumes a reservation when named)",
    permission: "create_prescription_checkout",
    body: prescriptionCheckoutSchema,
    examples: {
      body: {
        ...COMMON_EXAMPLE,
        prescriptions: [{ id: "rx-1", pdf_base64: "JVBERi0xLjcKJeLjz9MK" }],
        lines: [{ sku_uid: "3c1e5a2b-7d4f-4e8a-9b6c-1d2e3f4a5b6c", quantity: 1, prescription_id: "rx-1" }],
      },
    },
    responses: { 201: checkoutSchema, 409: conflictErrorSchema, 422: unprocessableErrorSchema, ...SHOP_PLATFORM_ERRORS },
    async handle({ principal, params, body }) {
      const checkout = await createPrescriptionCheckout(principal.organisationId, toPrescriptionCheckoutInput(params.shop_identifier, body));
      return reply(201, presentCheckout(checkout));
    },
  }),
  route({
    method: "POST",
    path: "/treatments/:shop_identifier",
    summary: "Create a treatment checkout (questionnaire answers as the anamnesis; the order waits for a doctor)",
    permission: "create_treatment_checkout",
    body: treatmentCheckoutSchema,
    examples: {
      body: {
        ...COMMON_EXAMPLE,
        questionnaire_uid: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
        answers: { allergies: "no", consent: true },
        intent: "consultation",
        lines: [{ sku_uid: "3c1e5a2b-7d4f-4e8a-9b6c-1d2e3f4a5b6c", quantity: 1 }],
      },
    },
    responses: { 201: checkoutSchema, 409: conflictErrorSchema, ...SHOP_PLATFORM_ERRORS },
    async handle({ principal, params, body }) {
      const checkout = await createTreatmentCheckout(principal.organisationId, toTreatmentCheckoutInput(params.shop_identifier, body));
      return reply(201, presentCheckout(checkout));
    },
  }),
];
