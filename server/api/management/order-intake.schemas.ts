import { z } from "zod";
import { countryCode, freeFormObject, int4, INT4_MAX, money, text, uid } from "@/server/wire/schemas";
import { ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN, type FulfillmentIntake, type OrderIntake } from "@/server/domain/orders/intake";
import { SKIP_VALIDATION_FLAGS } from "@/server/domain/prescriptions/skip-validation";

/** The skip-validation flags, kept as sent (item, fulfillment = line item group); resolved in the domain. */
const skipValidationFlags = Object.fromEntries(SKIP_VALIDATION_FLAGS.map((name) => [name, z.unknown().optional()])) as Record<
  (typeof SKIP_VALIDATION_FLAGS)[number],
  z.ZodOptional<z.ZodUnknown>
>;
const pickFlags = (raw: Record<string, unknown>) =>
  Object.fromEntries(SKIP_VALIDATION_FLAGS.filter((name) => raw[name] !== undefined).map((name) => [name, raw[name]]));

const optionalText = (max = 255) => z.string().trim().max(max).nullable().optional();

const addressSchema = z.object({
  first_name: text(),
  last_name: text(),
  street: text(),
  house_number: text(50),
  zip_code: text(20),
  city: text(),
  country: countryCode(),
  additional_address: optionalText(),
  province: optionalText(),
});

const itemSchema = z
  .object({
    external_id: text(),
    sku_reference: text(),
    product_reference: text().optional(),
    quantity: int4({ min: 1 }),
    total_paid: money(),
    prescription_uid: uid().optional(),
    prescription_reference: text().optional(),
    anamnesis_uid: uid().optional(),
    fulfillment_method: text(100).optional(),
    ...skipValidationFlags,
  })
  .superRefine((item, ctx) => {
    const paths = [item.prescription_uid, item.prescription_reference, item.anamnesis_uid].filter(Boolean);
    if (paths.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["non_field_errors"],
        message: "Use one prescription path per item: prescription_uid, prescription_reference or anamnesis_uid.",
      });
    }
  });

export const fulfillmentSchema = z
  .object({
    external_id: text(),
    items: z.array(itemSchema).min(1),
    destination_pharmacy_uid: uid().optional(),
    location_id: text().optional(),
    prescriptions: z.array(z.object({ id: text(), pdf_base64: z.string().min(1) })).max(20).optional(),
    ...skipValidationFlags,
  })
  .superRefine((fulfillment, ctx) => {
    // A pharmacy order records what its items were paid in one Int column (prepaid).
    if (fulfillment.items.reduce((sum, item) => sum + item.total_paid.amount, 0) > INT4_MAX) {
      ctx.addIssue({ code: "custom", path: ["items"], message: `The items of a fulfillment may total at most ${INT4_MAX} in minor units.` });
    }
    const ids = (fulfillment.prescriptions ?? []).map((p) => p.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: ["prescriptions", i, "id"], message: "Duplicate prescription id in this fulfillment." });
    });
    fulfillment.items.forEach((item, i) => {
      if (item.prescription_reference && !ids.includes(item.prescription_reference)) {
        ctx.addIssue({
          code: "custom",
          path: ["items", i, "prescription_reference"],
          message: "No prescription with this id in the fulfillment's prescriptions.",
        });
      }
    });
  });

export const createOrderSchema = z
  .object({
    shop_identifier: text(),
    external_id: text(),
    name: text().optional(),
    customer: z.object({ id: text(), email: z.email().max(254).optional() }),
    delivery_address: addressSchema,
    invoice_address: addressSchema.optional(),
    shipping_cost: money().optional(),
    shipping_methods: z.array(text()).max(20).optional(),
    priority: z.number().int().min(ORDER_PRIORITY_MIN).max(ORDER_PRIORITY_MAX).optional(),
    on_hold: z.boolean().optional(),
    hold_comment: z.string().max(5000).optional(),
    doctor_uid: uid().optional(),
    pharmacy_uid: uid().optional(),
    pharmacy_email: z.email().max(254).optional(),
    referral_scan_uid: text().optional(),
    additional_details: freeFormObject().optional(),
    fulfillments: z.array(fulfillmentSchema).min(1).max(100),
  })
  .superRefine((order, ctx) => {
    const fulfillmentIds = order.fulfillments.map((f) => f.external_id);
    const seenItems = new Set<string>();
    order.fulfillments.forEach((fulfillment, f) => {
      if (fulfillmentIds.indexOf(fulfillment.external_id) !== f) {
        ctx.addIssue({ code: "custom", path: ["fulfillments", f, "external_id"], message: "Duplicate fulfillment external_id in this order." });
      }
      fulfillment.items.forEach((item, i) => {
        if (seenItems.has(item.external_id)) {
          ctx.addIssue({
            code: "custom",
            path: ["fulfillments", f, "items", i, "external_id"],
            message: "Item external_id values must be unique across the whole order.",
          });
        }
        seenItems.add(item.external_id);
      });
    });
  });

export function toFulfillmentIntake(f: z.output<typeof fulfillmentSchema>): FulfillmentIntake {
  return {
    externalId: f.external_id,
    destinationPharmacyUid: f.destination_pharmacy_uid,
    locationId: f.location_id,
    prescriptions: f.prescriptions?.map((p) => ({ id: p.id, pdfBase64: p.pdf_base64 })),
    items: f.items.map((i) => ({
      externalId: i.external_id,
      skuReference: i.sku_reference,
      productReference: i.product_reference,
      quantity: i.quantity,
      totalPaid: i.total_paid,
      prescriptionUid: i.prescription_uid,
      prescriptionReference: i.prescription_reference,
      anamnesisUid: i.anamnesis_uid,
      fulfillmentMethod: i.fulfillment_method,
      skipValidationLevels: { item: pickFlags(i), group: pickFlags(f) },
    })),
  };
}

export function toOrderIntake(body: z.output<typeof createOrderSchema>): OrderIntake {
  return {
    shopIdentifier: body.shop_identifier,
    externalId: body.external_id,
    name: body.name,
    customer: body.customer,
    deliveryAddress: body.delivery_address,
    invoiceAddress: body.invoice_address,
    shippingCost: body.shipping_cost,
    shippingMethods: body.shipping_methods,
    priority: body.priority,
    onHold: body.on_hold,
    holdComment: body.hold_comment,
    doctorUid: body.doctor_uid,
    pharmacyUid: body.pharmacy_uid,
    pharmacyEmail: body.pharmacy_email,
    referralScanUid: body.referral_scan_uid,
    additionalDetails: body.additional_details,
    fulfillments: body.fulfillments.map(toFulfillmentIntake),
  };
}

/** PATCH /orders/{external_id}: the item-free fields, named as at intake. A body with an `items` key is refused. */
export const updateOrderSchema = z.preprocess(
  (raw, ctx) => {
    if (raw !== null && typeof raw === "object" && "items" in raw) {
      ctx.addIssue({
        code: "custom",
        path: ["items"],
        message: "Items cannot be changed: cancel the fulfillment and add a new one.",
        input: raw,
      });
    }
    return raw;
  },
  z.object({
    delivery_address: addressSchema.optional(),
    invoice_address: addressSchema.optional(),
    priority: z.number().int().min(ORDER_PRIORITY_MIN).max(ORDER_PRIORITY_MAX).optional(),
    customer: z.object({ email: z.email().max(254).nullable().optional() }).optional(),
    shipping_cost: money().nullable().optional(),
  }),
);
