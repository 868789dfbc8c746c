import { randomUUID } from "node:crypto";
import { isUniqueViolation, type Db, type Tx } from "@/server/db/client";
import type { Shop } from "@/server/db/generated/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { ConflictError, FieldErrorCollector, NON_FIELD_ERRORS, UnprocessableError } from "@/server/domain/errors";
import { createPharmacyOrder } from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { resolveSkipValidation } from "@/server/domain/prescriptions/skip-validation";
import { PRESCRIPTION_STATUS, SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "@/server/domain/prescriptions/statuses";
import { findOrCreateShopCustomer } from "./customers";
import { recordInlinePrescription, validateInlinePrescriptions, type ValidatedPdf } from "./inline-prescriptions";
import { ORDER_STATUS, type FulfillmentIntake, type OrderIntake } from "./intake";
import { routeFulfillmentToPharmacy } from "./route-fulfillment";

/** What an item of the intake resolved to in the organisation's catalogue and records. */
type ResolvedItem = {
  skuId: string;
  shopSkuId: string;
  skipForPharmacyOrders: boolean;
  prescriptionId: string | null;
  anamnesisId: string | null;
  /** The skip-validation flag resolved over item, fulfillment and order (spec "Management API: prescriptions"). */
  skipValidation: boolean;
  /** Reviewed by a doctor first: an anamnesis, or a prescription-only product without a path under skip validation. */
  needsDoctor: boolean;
};

type Resolved = {
  items: ResolvedItem[][]; // per fulfillment, per item
  doctorId: string | null;
  orderPharmacyId: string | null;
  fulfillmentPharmacyIds: (string | null)[];
};

export function orderAlreadyExists(orderId: string): ConflictError {
  return new ConflictError("Order already exists", { code: "order_already_exists", order_uid: orderId });
}

/**
 * Order intake: strictly once per external_id, all or nothing. Every reference is checked before
 * anything is written; the writes then run in one transaction whose first conflicting statement
 * is the order row itself, so concurrent duplicates wait on its unique index and all but one end
 * as 409 order_already_exists. A fulfillment no pharmacy can serve rolls everything back (422).
 */
export async function createOrder(db: Db, organisationId: string, intake: OrderIntake, actor: Actor): Promise<string> {
  const shop = await db.shop.findFirst({ where: { organisationId, identifier: intake.shopIdentifier } });
  if (!shop) {
    const errors = new FieldErrorCollector();
    errors.add(["shop_identifier"], "No shop with this identifier in the organisation.");
    errors.throwIfAny();
  }
  const existing = await db.order.findUnique({
    where: { organisationId_externalId: { organisationId, externalId: intake.externalId } },
    select: { id: true },
  });
  if (existing) throw orderAlreadyExists(existing.id);

  const resolved = await resolveReferences(db, organisationId, shop!, intake.fulfillments, {
    customer: intake.customer,
    pharmacyUid: intake.pharmacyUid,
    doctorUid: intake.doctorUid,
    additionalDetails: intake.additionalDetails,
    fieldPrefix: (f) => ["fulfillments", f],
  });
  const inline = await validateInlinePrescriptions(db, organisationId, intake.fulfillments, (f) => ["fulfillments", f]);

  try {
    return await db.$transaction((tx) => writeOrder(tx, organisationId, shop!, intake, resolved, inline, actor), {
      timeout: 30_000,
      maxWait: 30_000,
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await db.order.findUnique({
        where: { organisationId_externalId: { organisationId, externalId: intake.externalId } },
        select: { id: true },
      });
      if (winner) throw orderAlreadyExists(winner.id);
    }
    throw error;
  }
}

export type ReferenceContext = {
  customer: { id: string };
  pharmacyUid?: string;
  doctorUid?: string;
  /** The order's additional details (skip-validation flags at order level). */
  additionalDetails?: unknown;
  /** Where a fulfillment sits in the request body, for error paths. */
  fieldPrefix: (fulfillmentIndex: number) => (string | number)[];
};

/** Checks every reference of the fulfillments before anything is written; all problems at once, as field errors. */
export async function resolveReferences(
  db: Db,
  organisationId: string,
  shop: Shop,
  fulfillments: FulfillmentIntake[],
  intake: ReferenceContext,
): Promise<Resolved> {
  const errors = new FieldErrorCollector();
  const allItems = fulfillments.flatMap((f) => f.items);

  const references = [...new Set(allItems.map((i) => i.skuReference))];
  const shopSkus = await db.shopSku.findMany({
    where: {
      shopId: shop.id,
      deletedAt: null,
      skuId: { not: null },
      OR: [{ shopVariationId: { in: references } }, { shopSku: { in: references } }],
    },
    select: {
      id: true,
      shopSku: true,
      shopVariationId: true,
      shopProduct: { select: { externalId: true } },
      sku: { select: { id: true, deletedAt: true, skipForPharmacyOrders: true, product: { select: { prescriptionRequired: true } } } },
    },
  });

  const prescriptionUids = [...new Set(allItems.flatMap((i) => (i.prescriptionUid ? [i.prescriptionUid] : [])))];
  const signedPrescriptions = new Set(
    (
      await db.prescription.findMany({
        where: { id: { in: prescriptionUids }, organisationId, deletedAt: null, status: { in: storedSpellings(SIGNED_PRESCRIPTION_STATUSES) } },
        select: { id: true },
      })
    ).map((p) => p.id),
  );

  // An anamnesis must be a completed questionnaire response of this very customer.
  const customer = await db.shopCustomer.findUnique({
    where: { shopId_shopCustomerId: { shopId: shop.id, shopCustomerId: intake.customer.id } },
    select: { patientId: true },
  });
  const anamnesisUids = [...new Set(allItems.flatMap((i) => (i.anamnesisUid ? [i.anamnesisUid] : [])))];
  const customersAnamneses = new Set(
    customer
      ? (
          await db.questionnaireResponse.findMany({
            where: {
              id: { in: anamnesisUids },
              status: "COMPLETED",
              patientId: customer.patientId,
              questionnaire: { organisationId },
            },
            select: { id: true },
          })
        ).map((a) => a.id)
      : [],
  );

  const items = fulfillments.map((fulfillment, f) =>
    fulfillment.items.map((item, i): ResolvedItem => {
      const at = (field: string) => [...intake.fieldPrefix(f), "items", i, field];
      const matches = shopSkus.filter(
        (s) =>
          (s.shopVariationId === item.skuReference || s.shopSku === item.skuReference) &&
          (!item.productReference || s.shopProduct.externalId === item.productReference) &&
          s.sku &&
          !s.sku.deletedAt,
      );
      const skuIds = new Set(matches.map((m) => m.sku!.id));
      if (matches.length === 0) {
        errors.add(at(item.productReference ? "product_reference" : "sku_reference"), "No SKU with this reference in the shop.");
      } else if (skuIds.size > 1) {
        errors.add(at("product_reference"), "sku_reference matches more than one product: send product_reference.");
      }
      const match = matches[0];
      const noPath = !item.prescriptionUid && !item.prescriptionReference && !item.anamnesisUid;
      const skipValidation = resolveSkipValidation({ ...item.skipValidationLevels, order: intake.additionalDetails });
      const prescriptionRequired = Boolean(match?.sku!.product.prescriptionRequired);
      if (match && noPath && prescriptionRequired && !skipValidation) {
        errors.add(
          at(NON_FIELD_ERRORS),
          "This product requires a prescription: set prescription_uid, prescription_reference or anamnesis_uid (or _skip_validation to have a doctor issue one).",
        );
      }
      if (item.prescriptionUid && !signedPrescriptions.has(item.prescriptionUid)) {
        errors.add(at("prescription_uid"), "No signed prescription with this uid in the organisation.");
      }
      if (item.anamnesisUid && !customersAnamneses.has(item.anamnesisUid)) {
        errors.add(at("anamnesis_uid"), "No completed questionnaire response with this uid for this customer.");
      }
      return {
        skuId: match?.sku?.id ?? "",
        shopSkuId: match?.id ?? "",
        skipForPharmacyOrders: match?.sku?.skipForPharmacyOrders ?? false,
        prescriptionId: item.prescriptionUid ?? null,
        anamnesisId: item.anamnesisUid ?? null,
        skipValidation,
        needsDoctor: Boolean(item.anamnesisUid) || (noPath && prescriptionRequired && skipValidation),
      };
    }),
  );

  const pharmacyOf = async (where: { id?: string; locationId?: string }, path: (string | number)[], message: string) => {
    const pharmacy = await db.pharmacy.findFirst({ where: { organisationId, ...where }, select: { id: true } });
    if (!pharmacy) errors.add(path, message);
    return pharmacy?.id ?? null;
  };
  const orderPharmacyId = intake.pharmacyUid
    ? await pharmacyOf({ id: intake.pharmacyUid }, ["pharmacy_uid"], "No pharmacy with this uid in the organisation.")
    : null;
  const fulfillmentPharmacyIds = await Promise.all(
    fulfillments.map((f, index) =>
      f.destinationPharmacyUid
        ? pharmacyOf({ id: f.destinationPharmacyUid }, [...intake.fieldPrefix(index), "destination_pharmacy_uid"], "No pharmacy with this uid in the organisation.")
        : f.locationId
          ? pharmacyOf({ locationId: f.locationId }, [...intake.fieldPrefix(index), "location_id"], "No pharmacy at this location in the organisation.")
          : Promise.resolve(null),
    ),
  );
  let doctorId: string | null = null;
  if (intake.doctorUid) {
    const doctor = await db.doctor.findFirst({ where: { id: intake.doctorUid, organisationId }, select: { id: true } });
    if (!doctor) errors.add(["doctor_uid"], "No doctor with this uid in the organisation.");
    doctorId = doctor?.id ?? null;
  }

  errors.throwIfAny();
  return { items, doctorId, orderPharmacyId, fulfillmentPharmacyIds };
}

async function writeOrder(
  tx: Tx,
  organisationId: string,
  shop: Shop,
  intake: OrderIntake,
  resolved: Resolved,
  inline: Map<string, ValidatedPdf>[],
  actor: Actor,
): Promise<string> {
  const patient = await findOrCreateShopCustomer(tx, organisationId, shop.id, intake.customer, intake.deliveryAddress);
  const waitsForDoctor = resolved.items.some((items) => items.some((i) => i.needsDoctor));
  const onHold = intake.onHold ?? false;
  const orderId = randomUUID();
  const name = intake.name ?? intake.externalId;

  // The order row first: a concurrent duplicate blocks here on the unique index, before any other work.
  await tx.order.create({
    data: {
      id: orderId,
      organisationId,
      externalId: intake.externalId,
      name,
      status: onHold ? ORDER_STATUS.paused : waitsForDoctor ? ORDER_STATUS.waitingForDoctor : ORDER_STATUS.started,
      patientId: patient.id,
      customerEmail: intake.customer.email ?? null,
      deliveryAddress: intake.deliveryAddress,
      invoiceAddress: intake.invoiceAddress ?? intake.deliveryAddress,
      shippingCostAmount: intake.shippingCost?.amount ?? null,
      shippingCostCurrency: intake.shippingCost?.currency ?? null,
      priority: intake.priority ?? 0,
      onHold,
      holdComment: onHold ? (intake.holdComment ?? null) : null,
      doctorId: resolved.doctorId,
      pharmacyId: resolved.orderPharmacyId,
      pharmacyEmail: intake.pharmacyEmail ?? null,
      referralScanUid: intake.referralScanUid ?? null,
      additionalDetails: (intake.additionalDetails as object | undefined) ?? undefined,
    },
  });
  const shopOrder = await tx.shopOrder.create({ data: { orderId, shopId: shop.id, externalId: intake.externalId, name } });
  const labels = [...new Set(intake.shippingMethods ?? [])];
  if (labels.length > 0) {
    await tx.shopShippingMethod.createMany({
      data: labels.map((label) => ({ shopId: shop.id, externalId: label, displayName: label })),
      skipDuplicates: true,
    });
    const methods = await tx.shopShippingMethod.findMany({ where: { shopId: shop.id, externalId: { in: labels } }, select: { id: true } });
    await tx.shopOrderShippingMethod.createMany({
      data: methods.map((m) => ({ shopOrderId: shopOrder.id, shopShippingMethodId: m.id })),
    });
  }

  let shippingAssigned = false;
  let routedAny = false;
  for (const [f, fulfillment] of intake.fulfillments.entries()) {
    const routed = await addFulfillment(tx, {
      organisationId,
      orderId,
      fulfillment,
      resolvedItems: resolved.items[f],
      inlinePrescriptions: inline[f],
      explicitPharmacyId: resolved.fulfillmentPharmacyIds[f] ?? resolved.orderPharmacyId,
      doctorId: resolved.doctorId,
      patientId: patient.id,
      patientName: patient.displayName,
      shopOrderName: name,
      route: !onHold,
      shippingCost: shippingAssigned ? null : (intake.shippingCost ?? null),
      actor,
    });
    if (routed) {
      shippingAssigned = true;
      routedAny = true;
    }
  }
  if (routedAny && !onHold && !waitsForDoctor) {
    await tx.order.update({ where: { id: orderId }, data: { status: ORDER_STATUS.waitingForPharmacy } });
  }
  return orderId;
}

export type NewFulfillment = {
  organisationId: string;
  orderId: string;
  fulfillment: FulfillmentIntake;
  resolvedItems: ResolvedItem[];
  /** The fulfillment's validated inline PDFs (path (d)) by id. */
  inlinePrescriptions: Map<string, ValidatedPdf>;
  explicitPharmacyId: string | null;
  doctorId: string | null;
  patientId: string;
  patientName: string;
  shopOrderName: string;
  /** False while the order is on hold: nothing goes to a doctor or pharmacy. */
  route: boolean;
  shippingCost: { amount: number; currency: string } | null;
  actor: Actor;
};

/**
 * Writes one fulfillment with its items. Inline PDFs (path (d)) become prescriptions signed outside
 * the service. Items a doctor must review first (an anamnesis, or skip validation without a path)
 * get a prescription request that waits for a doctor, and the fulfillment waits with it: its
 * pharmacy order is created once the prescription is signed (prescriptions/send-to-pharmacy.ts).
 * Otherwise, unless the order is on hold, the items that go to pharmacies (SKUs without
 * skip_for_pharmacy_orders) become one pharmacy order. Returns whether a pharmacy order was created.
 */
export async function addFulfillment(tx: Tx, input: NewFulfillment): Promise<boolean> {
  const { fulfillment, resolvedItems } = input;
  const created = await tx.fulfillment.create({
    data: {
      orderId: input.orderId,
      externalId: fulfillment.externalId,
      destinationPharmacyId: fulfillment.destinationPharmacyUid ?? null,
      locationId: fulfillment.locationId ?? null,
    },
  });
  const items = fulfillment.items.map((item, i) => ({
    id: randomUUID(),
    orderId: input.orderId,
    fulfillmentId: created.id,
    externalId: item.externalId,
    skuId: resolvedItems[i].skuId,
    shopSkuId: resolvedItems[i].shopSkuId,
    quantity: item.quantity,
    totalPaidAmount: item.totalPaid.amount,
    totalPaidCurrency: item.totalPaid.currency,
    prescriptionId: resolvedItems[i].prescriptionId,
    prescriptionReference: item.prescriptionReference ?? null,
    anamnesisId: resolvedItems[i].anamnesisId,
    fulfillmentMethod: item.fulfillmentMethod ?? null,
    skipValidation: resolvedItems[i].skipValidation,
  }));

  // Prescriptions first (items refer to them), then the items, then the prescriptions' lines.
  const lines: { prescriptionId: string; orderItemId: string; skuId: string; quantity: number; anamnesisId: string | null }[] = [];
  for (const [reference, validated] of input.inlinePrescriptions) {
    const prescriptionId = await recordInlinePrescription(tx, {
      organisationId: input.organisationId,
      orderId: input.orderId,
      patientId: input.patientId,
      validated,
      actor: input.actor,
    });
    for (const item of items.filter((i) => i.prescriptionReference === reference)) item.prescriptionId = prescriptionId;
  }
  const doctorItems = items.filter((_, i) => resolvedItems[i].needsDoctor);
  if (doctorItems.length > 0) {
    const prescriptionId = randomUUID();
    await tx.prescription.create({
      data: {
        id: prescriptionId,
        organisationId: input.organisationId,
        orderId: input.orderId,
        patientId: input.patientId,
        doctorId: input.doctorId,
        status: PRESCRIPTION_STATUS.waitingForDoctor,
        source: "DOCTOR",
        history: { create: { fromStatus: null, toStatus: PRESCRIPTION_STATUS.waitingForDoctor, ...actorColumns(input.actor) } },
      },
    });
    for (const item of doctorItems) item.prescriptionId = prescriptionId;
  }
  await tx.orderItem.createMany({ data: items });
  for (const item of items) {
    const fromRequest = item.prescriptionReference !== null || doctorItems.includes(item);
    if (fromRequest && item.prescriptionId) {
      lines.push({ prescriptionId: item.prescriptionId, orderItemId: item.id, skuId: item.skuId, quantity: item.quantity, anamnesisId: item.anamnesisId });
    }
  }
  if (lines.length > 0) await tx.prescriptionLine.createMany({ data: lines });
  // The doctor reviews the whole fulfillment first; its pharmacy order comes once the prescription is signed.
  if (doctorItems.length > 0 || !input.route) return false;

  const toPharmacy = items.filter((_, i) => !resolvedItems[i].skipForPharmacyOrders);
  if (toPharmacy.length === 0) return false;
  const routed = await routeFulfillmentToPharmacy(
    tx,
    input.organisationId,
    toPharmacy.map((i) => ({ skuId: i.skuId, quantity: i.quantity })),
    input.explicitPharmacyId,
  );
  if (!routed) {
    throw new UnprocessableError(
      `No pharmacy can fulfil fulfillment "${fulfillment.externalId}": none carries every item with enough stock.`,
    );
  }
  const prescribed = toPharmacy.filter((i) => i.prescriptionId);
  await createPharmacyOrder(
    tx,
    {
      organisationId: input.organisationId,
      orderId: input.orderId,
      fulfillmentId: created.id,
      pharmacyId: routed.pharmacyId,
      prescriptionId: prescribed[0]?.prescriptionId ?? null,
      prepaid: prescribed.reduce((sum, i) => sum + i.totalPaidAmount, 0),
      shippingCostsAmount: input.shippingCost?.amount ?? null,
      shippingCostsCurrency: input.shippingCost?.currency ?? null,
      items: toPharmacy.map((i) => ({
        orderItemId: i.id,
        pharmacySkuId: routed.pharmacySkuBySku.get(i.skuId) ?? null,
        amount: i.quantity,
        totalPaidAmount: i.totalPaidAmount,
      })),
      search: { shopOrderName: input.shopOrderName, patientName: input.patientName },
    },
    input.actor,
  );
  return true;
}
