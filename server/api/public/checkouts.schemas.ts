import { z } from "zod";
import { amount, countryCode, freeFormObject, int4, text, uid } from "@/server/wire/schemas";
import { GENDERS, type CheckoutAddress, type CheckoutInput } from "@/server/domain/checkouts/checkout-request";
import { CHECKOUT_TYPES } from "@/server/domain/checkouts/connector";
import type { PrescriptionCheckoutInput } from "@/server/domain/checkouts/create-prescription-checkout";
import type { TreatmentCheckoutInput } from "@/server/domain/checkouts/create-treatment-checkout";

/** The bodies of the two checkouts (G26 field by field; docs/decisions/intake.md#checkouts). */

/** 1900-01-01: older dates of birth are mistakes. */
const EARLIEST_BIRTH = -2_208_988_800;

const addressSchema = z.object({
  first_name: text(),
  last_name: text(),
  address1: text(),
  city: text(),
  province: z.string().trim().max(255).nullable().optional(),
  country_code: countryCode(),
  zip: text(20),
});

const lineSchema = z.object({ sku_uid: uid(), quantity: int4({ min: 1, max: 10_000 }), prescription_id: text().optional() });

const commonFields = {
  reserved_draft_order_id: text(20).optional(),
  shop_customer_id: text().optional(),
  patient_data: z.object({
    first_name: text(),
    last_name: text(),
    date_of_birth: z
      .number()
      .int()
      .min(EARLIEST_BIRTH)
      .refine((s) => s * 1000 <= Date.now(), "The date of birth cannot be in the future."),
    gender: z.enum(GENDERS),
  }),
  buyerIdentity: z
    .object({
      email: z.email().max(254).optional(),
      phone: text(30).optional(),
      countryCode: countryCode().optional(),
      customerAccessToken: text(500).optional(),
    })
    .optional(),
  checkout_type: z.enum(CHECKOUT_TYPES).default("draft_order"),
  prepaid: z.boolean().default(false),
  external_order_id: text().optional(),
  delivery: z.object({ delivery_type: text(100), delivery_price: amount() }).optional(),
  transaction: z.object({ transaction_id: text(), transaction_amount: amount() }).optional(),
  billing_address: addressSchema.optional(),
  shipping_address: addressSchema.optional(),
};

type Common = z.output<z.ZodObject<typeof commonFields>>;

/** checkCommon's address rule as the documents show it. */
const NEEDS_AN_ADDRESS = {
  anyOf: [{ required: ["shipping_address"] }, { required: ["billing_address"] }],
  description: "shipping_address or billing_address is required: the order is delivered there.",
};

/** Rules across fields of both bodies. */
function checkCommon(body: Common & { lines: unknown[] }, ctx: z.RefinementCtx) {
  if (body.checkout_type === "draft_order_without_checkout_request" && !body.buyerIdentity) {
    ctx.addIssue({ code: "custom", path: ["buyerIdentity"], message: "Required for checkout_type draft_order_without_checkout_request." });
  }
  // The order made from the checkout needs a delivery address; the hosted page does not ask for one.
  if (!body.shipping_address && !body.billing_address) {
    ctx.addIssue({ code: "custom", path: ["shipping_address"], message: "Send shipping_address (or billing_address): the order is delivered there." });
  }
}

export const prescriptionCheckoutSchema = z
  .object({
    ...commonFields,
    prescriptions: z.array(z.object({ id: text(), pdf_base64: z.string().min(1) })).max(20).default([]),
    lines: z.array(lineSchema).min(1).max(100),
  })
  .meta(NEEDS_AN_ADDRESS)
  .superRefine((body, ctx) => {
    checkCommon(body, ctx);
    const ids = body.prescriptions.map((p) => p.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: ["prescriptions", i, "id"], message: "Duplicate prescription id in this checkout." });
    });
    body.lines.forEach((line, i) => {
      if (line.prescription_id && !ids.includes(line.prescription_id)) {
        ctx.addIssue({ code: "custom", path: ["lines", i, "prescription_id"], message: "No prescription with this id in the checkout's prescriptions." });
      }
    });
  });

export const treatmentCheckoutSchema = z
  .object({
    ...commonFields,
    questionnaire_uid: uid(),
    answers: freeFormObject(),
    intent: text(100).optional(),
    lines: z.array(lineSchema.omit({ prescription_id: true }).strict()).min(1).max(100),
  })
  .meta(NEEDS_AN_ADDRESS)
  .superRefine(checkCommon);

const toAddress = (a: z.output<typeof addressSchema> | undefined): CheckoutAddress | null =>
  a
    ? { firstName: a.first_name, lastName: a.last_name, address1: a.address1, city: a.city, province: a.province ?? null, countryCode: a.country_code, zip: a.zip }
    : null;

function toCheckoutInput(shopIdentifier: string, body: Common & { lines: { sku_uid: string; quantity: number; prescription_id?: string }[] }): CheckoutInput {
  const buyer = body.buyerIdentity;
  return {
    shopIdentifier,
    reservedDraftOrderId: body.reserved_draft_order_id,
    shopCustomerId: body.shop_customer_id,
    checkoutType: body.checkout_type,
    prepaid: body.prepaid,
    externalOrderId: body.external_order_id ?? null,
    patientData: {
      firstName: body.patient_data.first_name,
      lastName: body.patient_data.last_name,
      dateOfBirth: body.patient_data.date_of_birth,
      gender: body.patient_data.gender,
    },
    // customerAccessToken is accepted and dropped: a platform secret the built-in connector has no use for.
    buyerIdentity: buyer ? { email: buyer.email, phone: buyer.phone, countryCode: buyer.countryCode } : null,
    delivery: body.delivery ? { deliveryType: body.delivery.delivery_type, deliveryPrice: body.delivery.delivery_price } : null,
    transaction: body.transaction
      ? { transactionId: body.transaction.transaction_id, transactionAmount: body.transaction.transaction_amount }
      : null,
    billingAddress: toAddress(body.billing_address),
    shippingAddress: toAddress(body.shipping_address),
    lines: body.lines.map((l) => ({ skuUid: l.sku_uid, quantity: l.quantity, prescriptionId: l.prescription_id })),
  };
}

export function toPrescriptionCheckoutInput(shopIdentifier: string, body: z.output<typeof prescriptionCheckoutSchema>): PrescriptionCheckoutInput {
  return { ...toCheckoutInput(shopIdentifier, body), prescriptions: body.prescriptions.map((p) => ({ id: p.id, pdfBase64: p.pdf_base64 })) };
}

export function toTreatmentCheckoutInput(shopIdentifier: string, body: z.output<typeof treatmentCheckoutSchema>): TreatmentCheckoutInput {
  return { ...toCheckoutInput(shopIdentifier, body), questionnaireUid: body.questionnaire_uid, answers: body.answers, intent: body.intent ?? null };
}
