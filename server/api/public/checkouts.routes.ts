import { createPrescriptionCheckout } from "@/server/domain/checkouts/create-prescription-checkout";
import { createTreatmentCheckout } from "@/server/domain/checkouts/create-treatment-checkout";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { presentCheckout } from "./checkout.presenters";
import { prescriptionCheckoutSchema, toPrescriptionCheckoutInput, toTreatmentCheckoutInput, treatmentCheckoutSchema } from "./checkouts.schemas";

export const checkoutRoutes = [
  route({
    method: "POST",
    path: "/prescriptions/:shop_identifier",
    summary: "Create a prescription checkout (inline prescriptions validated for a QES; consumes a reservation when named)",
    permission: "create_prescription_checkout",
    body: prescriptionCheckoutSchema,
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
    async handle({ principal, params, body }) {
      const checkout = await createTreatmentCheckout(principal.organisationId, toTreatmentCheckoutInput(params.shop_identifier, body));
      return reply(201, presentCheckout(checkout));
    },
  }),
];
