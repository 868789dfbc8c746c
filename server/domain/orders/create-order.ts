import { randomUUID } from "node:crypto";
import { database, Prisma, type Tx, type Db } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { actorColumns, type Actor } from "@/server/domain/actor";
import type { AuditEntity } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NON_FIELD_ERRORS, UnprocessableError } from "@/server/domain/errors";
import { createPharmacyOrder, pharmacyEmailNoticeTo } from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
import { resolveSkipValidation } from "@/server/domain/prescriptions/skip-validation";
import { PRESCRIPTION_STATUS, SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "@/server/domain/prescriptions/statuses";
import { recordInlinePrescription, validateInlinePrescriptions, type ValidatedPdf } from "./inline-prescriptions";
import { type FulfillmentIntake, type OrderIntake } from "./intake";
import { ORDER_STATUS } from "./statuses";
import { routeFulfillmentToPharmacy } from "@/server/domain/pharmacy-orders/route-fulfillment";

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

function orderAlreadyExists(orderId: string): ConflictError {
  return new ConflictError("Order already exists", { code: "order_already_exists", details: { order_uid: orderId } });
}

/**
 * Order intake: strictly once per external_id, all or nothing. Every reference is checked before
 * anything is written; the writes then run in one transaction whose first conflicting statement
 * is the order row itself, so concurrent duplicates wait on its unique index and all but one end
 * as 409 order_already_exists. A fulfillment no pharmacy can serve rolls everything back (422).
 *
 * The common path is written as a few raw statements (several rows each) rather than Prisma model
 * calls: as model calls intake made about 40 statements, each a cost on the server's one thread
 * (the intake row of the orders benchmark); it now makes 13, auth and response included. Rarer
 * paths (prescriptions, shipping methods, explicit pharmacies) keep model calls.
 */
export async function createOrder(
  organisationId: string,
  intake: OrderIntake,
  actor: Actor,
  /** Runs in the order's transaction once the order is written (a checkout marks itself completed); throwing rolls the order back. */
  onWritten?: (tx: Tx, orderId: string) => Promise<void>,
): Promise<string> {
  const db = await database();
  // The shop and an order already under this external_id, in one statement.
  const [{ shopId, existingOrderId }] = await db.$queryRaw<{ shopId: string | null; existingOrderId: string | null }[]>`
    SELECT (SELECT "id" FROM "Shop" WHERE "organisationId" = ${organisationId} AND "identifier" = ${intake.shopIdentifier}) AS "shopId",
           (SELECT "id" FROM "Order" WHERE "organisationId" = ${organisationId} AND "externalId" = ${intake.externalId}) AS "existingOrderId"`;
  if (!shopId) {
    const errors = new FieldErrorCollector();
    errors.add(["shop_identifier"], "No shop with this identifier in the organisation.");
    errors.throwIfAny();
  }
  if (existingOrderId) throw orderAlreadyExists(existingOrderId);
  const shop = { id: shopId! };

  const resolved = await resolveReferences(db, organisationId, shop, intake.fulfillments, {
    customer: intake.customer,
    pharmacyUid: intake.pharmacyUid,
    doctorUid: intake.doctorUid,
    additionalDetails: intake.additionalDetails,
    fieldPrefix: (f) => ["fulfillments", f],
  });
  const inline = await validateInlinePrescriptions(db, organisationId, intake.fulfillments, (f) => ["fulfillments", f]);

  try {
    return await db.$transaction(
      async (tx) => {
        const orderId = await writeOrder(tx, organisationId, shop, intake, resolved, inline, actor);
        await onWritten?.(tx, orderId);
        return orderId;
      },
      {
        timeout: 30_000,
        maxWait: 30_000,
      },
    );
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

/** A shop SKU an item's sku_reference may name, with what the checks need of its SKU and product. */
type ShopSkuMatch = {
  id: string;
  shopSku: string | null;
  shopVariationId: string | null;
  shopProductExternalId: string;
  skuId: string;
  skuDeleted: boolean;
  skipForPharmacyOrders: boolean;
  prescriptionRequired: boolean;
};

/**
 * Checks every reference of the fulfillments before anything is written; all problems at once, as
 * field errors. Each kind of reference is one statement, and only when the intake has one: the
 * common order (catalogue items, no prescriptions) is checked with a single statement.
 */
export async function resolveReferences(
  db: Db,
  organisationId: string,
  shop: { id: string },
  fulfillments: FulfillmentIntake[],
  intake: ReferenceContext,
): Promise<Resolved> {
  const errors = new FieldErrorCollector();
  const allItems = fulfillments.flatMap((f) => f.items);

  const references = [...new Set(allItems.map((i) => i.skuReference))];
  const shopSkus = await db.$queryRaw<ShopSkuMatch[]>`
    SELECT ss."id", ss."shopSku", ss."shopVariationId", sp."externalId" AS "shopProductExternalId",
           s."id" AS "skuId", s."deletedAt" IS NOT NULL AS "skuDeleted", s."skipForPharmacyOrders", p."prescriptionRequired"
      FROM "ShopSku" ss
      JOIN "ShopProduct" sp ON sp."id" = ss."shopProductId"
      JOIN "Sku" s ON s."id" = ss."skuId"
      JOIN "Product" p ON p."id" = s."productId"
     WHERE ss."shopId" = ${shop.id} AND ss."deletedAt" IS NULL
       AND (ss."shopVariationId" = ANY(${references}::text[]) OR ss."shopSku" = ANY(${references}::text[]))`;

  const prescriptionUids = [...new Set(allItems.flatMap((i) => (i.prescriptionUid ? [i.prescriptionUid] : [])))];
  const signedPrescriptions = new Set(
    prescriptionUids.length === 0
      ? []
      : (
          await db.prescription.findMany({
            where: { id: { in: prescriptionUids }, organisationId, deletedAt: null, status: { in: storedSpellings(SIGNED_PRESCRIPTION_STATUSES) } },
            select: { id: true },
          })
        ).map((p) => p.id),
  );

  // An anamnesis must be a completed questionnaire response of this very customer.
  const anamnesisUids = [...new Set(allItems.flatMap((i) => (i.anamnesisUid ? [i.anamnesisUid] : [])))];
  const customer =
    anamnesisUids.length === 0
      ? null
      : await db.shopCustomer.findUnique({
          where: { shopId_shopCustomerId: { shopId: shop.id, shopCustomerId: intake.customer.id } },
          select: { patientId: true },
        });
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
          (!item.productReference || s.shopProductExternalId === item.productReference) &&
          !s.skuDeleted,
      );
      const skuIds = new Set(matches.map((m) => m.skuId));
      if (matches.length === 0) {
        errors.add(at(item.productReference ? "product_reference" : "sku_reference"), "No SKU with this reference in the shop.");
      } else if (skuIds.size > 1) {
        errors.add(at("product_reference"), "sku_reference matches more than one product: send product_reference.");
      }
      const match = matches[0];
      const noPath = !item.prescriptionUid && !item.prescriptionReference && !item.anamnesisUid;
      const skipValidation = resolveSkipValidation({ ...item.skipValidationLevels, order: intake.additionalDetails });
      const prescriptionRequired = Boolean(match?.prescriptionRequired);
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
        skuId: match?.skuId ?? "",
        shopSkuId: match?.id ?? "",
        skipForPharmacyOrders: match?.skipForPharmacyOrders ?? false,
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
  shop: { id: string },
  intake: OrderIntake,
  resolved: Resolved,
  inline: Map<string, ValidatedPdf>[],
  actor: Actor,
): Promise<string> {
  const patient = await findOrCreateShopCustomer(tx, organisationId, shop.id, intake.customer, {
    firstName: intake.deliveryAddress.first_name,
    lastName: intake.deliveryAddress.last_name,
  });
  const waitsForDoctor = resolved.items.some((items) => items.some((i) => i.needsDoctor));
  const onHold = intake.onHold ?? false;
  const orderId = randomUUID();
  const name = intake.name ?? intake.externalId;
  const status = onHold ? ORDER_STATUS.paused : waitsForDoctor ? ORDER_STATUS.waitingForDoctor : ORDER_STATUS.started;

  // The order row first: a concurrent duplicate blocks here on the unique index, before any other
  // work. The order, its shop order and its audit event (one per created order) in one statement:
  // intake is a hot path.
  const shopOrder = { id: randomUUID() };
  const by = actorColumns(actor);
  const summary = `Order ${name} created${onHold ? " on hold" : ""} (${intake.fulfillments.length} fulfillment${intake.fulfillments.length === 1 ? "" : "s"})`;
  await tx.$executeRaw`
    WITH "audit" AS (
      INSERT INTO "AuditEvent" ("id", "organisationId", "entityType", "entityId", "action", "summary", "details",
                                "actorType", "actorApiKeyId", "actorUserId", "createdAt")
      VALUES (${randomUUID()}, ${organisationId}, ${"order" satisfies AuditEntity}, ${orderId}, 'created', ${summary},
              ${JSON.stringify({ externalId: intake.externalId, status, shopId: shop.id })}::jsonb,
              ${by.actorType}::"ActorType", ${by.actorApiKeyId}, ${by.actorUserId}, now())
    ), "order" AS (
      INSERT INTO "Order" ("id", "organisationId", "externalId", "name", "status", "patientId", "customerEmail",
                           "deliveryAddress", "invoiceAddress", "shippingCostAmount", "shippingCostCurrency", "priority",
                           "onHold", "holdComment", "doctorId", "pharmacyId", "pharmacyEmail", "referralScanUid",
                           "additionalDetails", "updatedAt")
      VALUES (${orderId}, ${organisationId}, ${intake.externalId}, ${name}, ${status}, ${patient.id}, ${intake.customer.email ?? null},
              ${JSON.stringify(intake.deliveryAddress)}::jsonb, ${JSON.stringify(intake.invoiceAddress ?? intake.deliveryAddress)}::jsonb,
              ${intake.shippingCost?.amount ?? null}::int, ${intake.shippingCost?.currency ?? null}, ${intake.priority ?? 0}::int,
              ${onHold}, ${onHold ? (intake.holdComment ?? null) : null}, ${resolved.doctorId}, ${resolved.orderPharmacyId},
              ${intake.pharmacyEmail ?? null}, ${intake.referralScanUid ?? null},
              ${intake.additionalDetails === undefined ? null : JSON.stringify(intake.additionalDetails)}::jsonb, now())
      RETURNING "id")
    INSERT INTO "ShopOrder" ("id", "orderId", "shopId", "externalId", "name")
    SELECT ${shopOrder.id}, "order"."id", ${shop.id}, ${intake.externalId}, ${name} FROM "order"`;
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
      route: !onHold,
      shippingCost: shippingAssigned ? null : (intake.shippingCost ?? null),
      notice: { pharmacyEmail: intake.pharmacyEmail ?? null, pharmacyId: resolved.orderPharmacyId },
      actor,
    });
    if (routed) {
      shippingAssigned = true;
      routedAny = true;
    }
  }
  if (routedAny && !onHold && !waitsForDoctor) {
    await tx.$executeRaw`UPDATE "Order" SET "status" = ${ORDER_STATUS.waitingForPharmacy}, "updatedAt" = now() WHERE "id" = ${orderId}`;
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
  /** False while the order is on hold: nothing goes to a doctor or pharmacy. */
  route: boolean;
  shippingCost: { amount: number; currency: string } | null;
  /** The order's pharmacy_email and pharmacy_uid: who hears of its pharmacy orders (pharmacyEmailNoticeTo). */
  notice: { pharmacyEmail: string | null; pharmacyId: string | null };
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
  const created = { id: randomUUID() };
  const insertFulfillment = Prisma.sql`
    INSERT INTO "Fulfillment" ("id", "orderId", "externalId", "destinationPharmacyId", "locationId", "updatedAt")
    VALUES (${created.id}, ${input.orderId}, ${fulfillment.externalId}, ${fulfillment.destinationPharmacyUid ?? null},
            ${fulfillment.locationId ?? null}, now())`;
  // With prescriptions to record, the fulfillment row goes first, so that a conflicting fulfillment
  // (a concurrent duplicate) fails before any PDF is stored; otherwise it goes with its items.
  const recordsPrescriptions = input.inlinePrescriptions.size > 0 || resolvedItems.some((r) => r.needsDoctor);
  if (recordsPrescriptions) await tx.$executeRaw`${insertFulfillment}`;
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
  await insertOrderItems(tx, items, recordsPrescriptions ? null : insertFulfillment);
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
      routing: input.explicitPharmacyId ? "INTEGRATOR" : "AUTOMATIC",
      prescriptionId: prescribed[0]?.prescriptionId ?? null,
      prepaid: prescribed.reduce((sum, i) => sum + i.totalPaidAmount, 0),
      shippingCostsAmount: input.shippingCost?.amount ?? null,
      shippingCostsCurrency: input.shippingCost?.currency ?? null,
      items: toPharmacy.map((i) => ({
        orderItemId: i.id,
        pharmacySkuId: routed.pharmacySkuBySku.get(i.skuId) ?? null,
        amount: i.quantity,
        totalPaidAmount: i.totalPaidAmount,
        fulfillmentMethod: i.fulfillmentMethod,
      })),
      noticeTo: pharmacyEmailNoticeTo(input.notice, routed.pharmacyId),
    },
    input.actor,
  );
  return true;
}

/**
 * The items of a fulfillment in one statement (the rows as one JSON parameter, typed by the table's
 * row type), after `insertFulfillment` in the same statement when given.
 */
async function insertOrderItems(tx: Tx, items: Record<string, unknown>[], insertFulfillment: Prisma.Sql | null): Promise<void> {
  const columns = Prisma.raw(
    [
      "id", "orderId", "fulfillmentId", "externalId", "skuId", "shopSkuId", "quantity", "totalPaidAmount", "totalPaidCurrency",
      "prescriptionId", "prescriptionReference", "anamnesisId", "fulfillmentMethod", "skipValidation",
    ]
      .map((c) => `"${c}"`)
      .join(", "),
  );
  await tx.$executeRaw`
    ${insertFulfillment ? Prisma.sql`WITH "fulfillment" AS (${insertFulfillment})` : Prisma.empty}
    INSERT INTO "OrderItem" (${columns})
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::"OrderItem", ${JSON.stringify(items)}::jsonb)`;
}
