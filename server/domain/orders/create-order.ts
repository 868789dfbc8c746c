import { randomUUID } from "node:crypto";
import { database, databaseDriver, Prisma, prismaTx, type Db, type RawTx, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { actorColumns, type Actor } from "@/server/domain/actor";
import type { AuditEntity, AuditValues } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NON_FIELD_ERRORS } from "@/server/domain/errors";
import { orderCreatedEventSql } from "@/server/domain/events/order-events";
import { recordPrescriptionCreated } from "@/server/domain/events/prescription-events";
import {
  createPharmacyOrder,
  newPharmacyOrderIdentity,
  pharmacyEmailNoticeTo,
  pharmacyOrderLinesOf,
  pharmacyOrderWritesSql,
  type NewPharmacyOrder,
} from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { pharmacyOffersSql, routeFulfillmentToPharmacy, type Offer, type RoutedPharmacy } from "@/server/domain/pharmacy-orders/route-fulfillment";
import {
  lockedPatientNameSql,
  pharmacyOrderSearchText,
  refreshSearchTextUnderPatientLock,
  type OrderSearchParts,
} from "@/server/domain/pharmacy-orders/search-text";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import {
  displayNameOf,
  findOrCreateShopCustomer,
  knownCustomerLookupSql,
  newShopCustomerWritesSql,
  type PatientNames,
} from "@/server/domain/patients/shop-customers";
import { resolveSkipValidation } from "@/server/domain/prescriptions/skip-validation";
import { PRESCRIPTION_STATUS, SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "@/server/domain/prescriptions/statuses";
import { recordInlinePrescription, validateInlinePrescriptions, type ValidatedPdf } from "./inline-prescriptions";
import { type FulfillmentIntake, type OrderIntake } from "./intake";
import { redeemPrescriptions, type InlinePlan } from "./redeem-prescriptions";
import type { OrderWithGraph } from "./queries";
import { ORDER_STATUS } from "./statuses";

/** What an item of the intake resolved to in the organisation's catalogue and records. */
type ResolvedItem = {
  skuId: string;
  /** What the order shows of its SKU. */
  sku: { displayName: string; pzn: string | null };
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

/** A new order: its id, and the order as GET /orders/{uid} shows it when intake could tell that without reading it back. */
export type CreatedOrder = {
  id: string;
  /**
   * Built from what intake wrote (getOrder's shape, equal to what getOrder reads after the commit);
   * null when intake recorded prescriptions, whose doctors and order getOrder then reads.
   */
  shown: OrderWithGraph | null;
};

/**
 * Order intake: strictly once per external_id, all or nothing. Every reference is checked and
 * every fulfillment routed before anything is written (routing reads stock and assortments without
 * locking them, inside a transaction or not); the writes then run in one transaction whose first
 * conflicting statement is the order row itself, so concurrent duplicates wait on its unique index
 * and all but one end as 409 order_already_exists. A fulfillment no pharmacy can serve is written
 * without a pharmacy order and the order reads "pharmacy not found" (docs/decisions/intake.md#intake-when-no-pharmacy-fits).
 *
 * The common path is written as raw statements (several rows each) rather than Prisma model calls:
 * as model calls intake made about 40 statements, each a cost on the server's one thread (the intake
 * row of the orders benchmark). An order of one fulfillment without prescriptions is written in one
 * statement (writeOrderInOneStatement: three round trips with the key check and the lookup), other
 * raw-SQL orders in a transaction on the driver (seven), and it answers from what it wrote. Rarer
 * paths (prescriptions, shipping methods, a pharmacy e-mail, a caller's onWritten) keep model
 * calls, on Prisma's transaction.
 */
export async function createOrder(
  organisationId: string,
  intake: OrderIntake,
  actor: Actor,
  /** Runs in the order's transaction once the order is written (a checkout marks itself completed); throwing rolls the order back. */
  onWritten?: (tx: Tx, orderId: string) => Promise<void>,
): Promise<CreatedOrder> {
  const db = await database();
  const driver = await databaseDriver();
  // The shop, an order already under this external_id, the shop SKUs the items name and the
  // organisation's offers of their SKUs, in one prepared statement on the driver (no transaction yet).
  const references = [...new Set(intake.fulfillments.flatMap((f) => f.items.map((i) => i.skuReference)))];
  const lookup = Prisma.sql`
    WITH "shop" AS (SELECT "id" FROM "Shop" WHERE "organisationId" = ${organisationId} AND "identifier" = ${intake.shopIdentifier}),
    "matches" AS (${shopSkuMatchesSql(Prisma.sql`(SELECT "id" FROM "shop")`, references)})
    SELECT (SELECT "id" FROM "shop") AS "shopId",
           (SELECT "id" FROM "Order" WHERE "organisationId" = ${organisationId} AND "externalId" = ${intake.externalId}) AS "existingOrderId",
           (SELECT coalesce(json_agg(m), '[]'::json) FROM "matches" m) AS "shopSkus",
           (SELECT coalesce(json_agg(o), '[]'::json) FROM (${pharmacyOffersSql(organisationId, Prisma.sql`SELECT "skuId" FROM "matches"`)}) o) AS "offers",
           (${knownCustomerLookupSql(Prisma.sql`(SELECT "id" FROM "shop")`, intake.customer, intakeNames(intake))}) AS "customer"`;
  const [{ shopId, existingOrderId, shopSkus, offers, customer }] = await driver.query<{
    shopId: string | null;
    existingOrderId: string | null;
    shopSkus: ShopSkuMatch[];
    offers: Offer[];
    customer: CustomerLookup;
  }>(lookup.text, lookup.values);
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
  }, shopSkus);
  const inline = await validateInlinePrescriptions(db, organisationId, intake.fulfillments, (f) => ["fulfillments", f]);
  const routes = await Promise.all(
    intake.fulfillments.map((fulfillment, f) =>
      routeNewFulfillment(
        db,
        {
          organisationId,
          fulfillment,
          resolvedItems: resolved.items[f],
          explicitPharmacyId: resolved.fulfillmentPharmacyIds[f] ?? resolved.orderPharmacyId,
          route: !(intake.onHold ?? false),
        },
        offers,
      ),
    ),
  );

  // Without these, every write of the intake is raw SQL (the others go through prismaTx): the
  // transaction then runs on the driver, at a fraction of the server time of Prisma's.
  const rawOnly =
    !onWritten &&
    !intake.shippingMethods?.length &&
    !intake.pharmacyEmail &&
    inline.every((pdfs) => pdfs.size === 0) &&
    resolved.items.every((items) => items.every((i) => !i.prescriptionId && !i.needsDoctor));
  const write = (tx: Tx | RawTx) => writeOrder(tx, organisationId, shop, intake, resolved, inline, routes, actor);
  try {
    if (rawOnly && intake.fulfillments.length === 1 && (customer === null || customer.complete)) {
      const created = await writeOrderInOneStatement(organisationId, shop, intake, resolved, routes, actor, customer);
      if (created) return created;
    }
    if (rawOnly) return await driver.transaction(write);
    return await db.$transaction(
      async (tx) => {
        const created = await write(tx);
        await onWritten?.(tx, created.id);
        return created;
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
  displayName: string;
  pzn: string | null;
  skuDeleted: boolean;
  skipForPharmacyOrders: boolean;
  prescriptionRequired: boolean;
};

/** The live shop SKUs of the shop `shopId` selects that the references may name (ShopSkuMatch rows). */
function shopSkuMatchesSql(shopId: Prisma.Sql, references: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT ss."id", ss."shopSku", ss."shopVariationId", sp."externalId" AS "shopProductExternalId",
           s."id" AS "skuId", s."displayName", s."pzn", s."deletedAt" IS NOT NULL AS "skuDeleted", s."skipForPharmacyOrders", p."prescriptionRequired"
      FROM "ShopSku" ss
      JOIN "ShopProduct" sp ON sp."id" = ss."shopProductId"
      JOIN "Sku" s ON s."id" = ss."skuId"
      JOIN "Product" p ON p."id" = s."productId"
     WHERE ss."shopId" = ${shopId} AND ss."deletedAt" IS NULL
       AND (ss."shopVariationId" = ANY(${references}::text[]) OR ss."shopSku" = ANY(${references}::text[]))`;
}

/**
 * Checks every reference of the fulfillments before anything is written; all problems at once, as
 * field errors. Each kind of reference is one statement, and only when the intake has one: the
 * common order (catalogue items, no prescriptions) is checked with a single statement, or none when
 * the caller read the shop SKU matches already (`shopSkus`, shopSkuMatchesSql).
 */
export async function resolveReferences(
  db: Db,
  organisationId: string,
  shop: { id: string },
  fulfillments: FulfillmentIntake[],
  intake: ReferenceContext,
  shopSkus?: ShopSkuMatch[],
): Promise<Resolved> {
  const errors = new FieldErrorCollector();
  const allItems = fulfillments.flatMap((f) => f.items);

  const references = [...new Set(allItems.map((i) => i.skuReference))];
  shopSkus ??= await db.$queryRaw<ShopSkuMatch[]>(shopSkuMatchesSql(Prisma.sql`${shop.id}`, references));

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
        sku: { displayName: match?.displayName ?? "", pzn: match?.pzn ?? null },
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
    const doctor = await db.doctor.findFirst({ where: { id: intake.doctorUid, organisationId }, select: { id: true, deactivatedAt: true } });
    if (!doctor) errors.add(["doctor_uid"], "No doctor with this uid in the organisation.");
    // A deactivated doctor is given no new requests (docs/decisions/admin-tool.md#the-doctors-section).
    else if (doctor.deactivatedAt) errors.add(["doctor_uid"], "This doctor is deactivated.");
    doctorId = doctor?.id ?? null;
  }

  errors.throwIfAny();
  return { items, doctorId, orderPharmacyId, fulfillmentPharmacyIds };
}

async function writeOrder(
  tx: Tx | RawTx,
  organisationId: string,
  shop: { id: string },
  intake: OrderIntake,
  resolved: Resolved,
  inline: Map<string, ValidatedPdf>[],
  routes: (RoutedPharmacy | null)[],
  actor: Actor,
): Promise<CreatedOrder> {
  const patient = await findOrCreateShopCustomer(tx, organisationId, shop.id, intake.customer, intakeNames(intake));
  const order = newOrderOf(intake, resolved, routes);
  const { orderId, name, onHold, status } = order;

  // The order row first: a concurrent duplicate blocks here on the unique index, before any other
  // work. It also reads the patient's name under the lock its pharmacy orders' search texts need
  // (lockedPatientNameSql), so that they need no read of their own.
  const shopOrder = { id: randomUUID() };
  const [written] = await tx.$queryRaw<{ createdAt: Date; updatedAt: Date; patientName: string }[]>`
    WITH "patient" AS (${lockedPatientNameSql(patient.id)}),
    ${orderWritesSql({ order, organisationId, shop, shopOrderId: shopOrder.id, intake, resolved, patientId: patient.id, actor })}
    SELECT (SELECT "createdAt" FROM "order"), (SELECT "updatedAt" FROM "order"), (SELECT "displayName" FROM "patient") AS "patientName"`;
  // After the order row: a retried external_id ends as 409 there, before its own first attempt's
  // items could make it a redemption refusal.
  const inlinePlans = await redeemPrescriptions(tx, {
    organisationId,
    patientId: patient.id,
    fulfillments: intake.fulfillments,
    resolvedItems: resolved.items,
    inline,
    fieldPrefix: (f) => ["fulfillments", f],
  });
  const labels = [...new Set(intake.shippingMethods ?? [])];
  if (labels.length > 0) {
    const prisma = prismaTx(tx);
    await prisma.shopShippingMethod.createMany({
      data: labels.map((label) => ({ shopId: shop.id, externalId: label, displayName: label })),
      skipDuplicates: true,
    });
    const methods = await prisma.shopShippingMethod.findMany({ where: { shopId: shop.id, externalId: { in: labels } }, select: { id: true } });
    await prisma.shopOrderShippingMethod.createMany({
      data: methods.map((m) => ({ shopOrderId: shopOrder.id, shopShippingMethodId: m.id })),
    });
  }

  const fulfillments: AddedFulfillment[] = [];
  for (const f of intake.fulfillments.keys()) {
    fulfillments.push(
      await addFulfillment(tx, {
        ...newFulfillmentOf({ organisationId, orderId, intake, resolved, inline, routes, patientId: patient.id, actor }, f),
        inlinePlan: inlinePlans[f],
        searchParts: { shopOrderName: name, patientName: written.patientName },
      }),
    );
  }
  if (fulfillments.some((f) => f.recordedPrescriptions)) return { id: orderId, shown: null };

  return { id: orderId, shown: shownOrder({ orderId, name, intake, status, onHold, shop, shopOrderId: shopOrder.id, written, fulfillments }) };
}

/** A known customer as the intake's lookup read it (knownCustomerLookupSql), or null for a new one. */
type CustomerLookup = { patientId: string; displayName: string; complete: boolean } | null;

/**
 * The common intake (one fulfillment, every write raw SQL, a new customer or a known one with no
 * gap to fill) as one statement without a transaction of its own, atomic as every statement is:
 * the customer (when new), the order, its fulfillment and items, and its pharmacy order. Three round
 * trips with the key check and the lookup, where the transaction took seven; round trips are most
 * of what intake costs the server (the intake row of the scale scenario).
 *
 * The patient's name for the search text is the one the lookup read; the statement reads it again
 * under the lock writeOrder takes. A rename that committed in between shows as a different name,
 * and the search texts of the patient are then rebuilt under that lock (search-text.ts).
 * Null when a unique index refused the statement (nothing is written): a customer or an order
 * created meanwhile, which the transaction then handles as it always does.
 */
async function writeOrderInOneStatement(
  organisationId: string,
  shop: { id: string },
  intake: OrderIntake,
  resolved: Resolved,
  routes: (RoutedPharmacy | null)[],
  actor: Actor,
  customer: CustomerLookup,
): Promise<CreatedOrder | null> {
  const names = intakeNames(intake);
  const patient = customer ? { id: customer.patientId, displayName: customer.displayName } : { id: randomUUID(), displayName: displayNameOf(names) };
  const order = newOrderOf(intake, resolved, routes);
  const { orderId, name, onHold, status } = order;
  const shopOrderId = randomUUID();
  const fulfillment = newFulfillmentOf({ organisationId, orderId, intake, resolved, inline: [new Map()], routes, patientId: patient.id, actor }, 0);
  const rows = newFulfillmentRows(fulfillment);
  const routed = routes[0];
  const pharmacyOrder = routed ? newPharmacyOrderIdentity() : null;
  const statement = Prisma.sql`
    WITH ${customer ? Prisma.sql`"patient" AS (${lockedPatientNameSql(patient.id)})` : newShopCustomerWritesSql(patient, organisationId, shop.id, intake.customer, names, "or fail")},
    ${orderWritesSql({ order, organisationId, shop, shopOrderId, intake, resolved, patientId: patient.id, actor })},
    ${fulfillmentWritesSql(rows)}
    ${
      pharmacyOrder && routed
        ? Prisma.sql`, ${pharmacyOrderWritesSql(
            { ...pharmacyOrder, searchText: pharmacyOrderSearchText({ ...pharmacyOrder, orderId, shopOrderName: name, patientName: patient.displayName }) },
            pharmacyOrderOfFulfillment(fulfillment, rows.id, rows.items, routed),
            actor,
          )}`
        : Prisma.empty
    }
    SELECT (SELECT "createdAt" FROM "order"), (SELECT "updatedAt" FROM "order"),
           ${customer ? Prisma.sql`(SELECT "displayName" FROM "patient")` : Prisma.sql`NULL::text`} AS "patientName"`;
  const driver = await databaseDriver();
  let written: { createdAt: Date; updatedAt: Date; patientName: string | null };
  try {
    [written] = await driver.query<typeof written>(statement.text, statement.values);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  if (customer && written.patientName !== patient.displayName) await driver.transaction((tx) => refreshSearchTextUnderPatientLock(tx, patient.id));
  const added: AddedFulfillment = {
    id: rows.id,
    externalId: fulfillment.fulfillment.externalId,
    items: rows.items.map((item, i) => ({ id: item.id, skuId: item.skuId, quantity: item.quantity, prescriptionId: null, sku: fulfillment.resolvedItems[i].sku })),
    routed: routed !== null,
    recordedPrescriptions: false,
  };
  return { id: orderId, shown: shownOrder({ orderId, name, intake, status, onHold, shop, shopOrderId, written, fulfillments: [added] }) };
}

/** The names a new patient of the intake gets (and fills a known one that has none). */
const intakeNames = (intake: OrderIntake): PatientNames => ({ firstName: intake.deliveryAddress.first_name, lastName: intake.deliveryAddress.last_name });

type NewOrder = ReturnType<typeof newOrderOf>;

/** A new order's uid, name and status: written in the status its routed pharmacy orders give it. */
function newOrderOf(intake: OrderIntake, resolved: Resolved, routes: (RoutedPharmacy | null)[]) {
  const waitsForDoctor = resolved.items.some((items) => items.some((i) => i.needsDoctor));
  const onHold = intake.onHold ?? false;
  const initialStatus = onHold ? ORDER_STATUS.paused : waitsForDoctor ? ORDER_STATUS.waitingForDoctor : ORDER_STATUS.started;
  const unroutable = intake.fulfillments.some(
    (f, i) => routes[i] === null && goesToPharmacy(f.items, { resolvedItems: resolved.items[i], route: !onHold }),
  );
  // Every fulfillment is routed already: the order is written in the status its pharmacy orders give it
  // (as refreshOrderStatus would: one that no pharmacy could take makes it "pharmacy not found").
  const status =
    initialStatus !== ORDER_STATUS.started
      ? initialStatus
      : unroutable
        ? ORDER_STATUS.pharmacyNotFound
        : routes.some(Boolean)
          ? ORDER_STATUS.waitingForPharmacy
          : initialStatus;
  return { orderId: randomUUID(), name: intake.name ?? intake.externalId, onHold, initialStatus, status };
}

/** Fulfillment `f` of the intake as addFulfillment takes it (the order's shipping cost goes with its first pharmacy order). */
function newFulfillmentOf(
  o: {
    organisationId: string;
    orderId: string;
    intake: OrderIntake;
    resolved: Resolved;
    inline: Map<string, ValidatedPdf>[];
    routes: (RoutedPharmacy | null)[];
    patientId: string;
    actor: Actor;
  },
  f: number,
): NewFulfillment {
  const { intake, resolved } = o;
  return {
    organisationId: o.organisationId,
    orderId: o.orderId,
    fulfillment: intake.fulfillments[f],
    resolvedItems: resolved.items[f],
    inlinePrescriptions: o.inline[f],
    explicitPharmacyId: resolved.fulfillmentPharmacyIds[f] ?? resolved.orderPharmacyId,
    doctorId: resolved.doctorId,
    patientId: o.patientId,
    route: !(intake.onHold ?? false),
    routed: o.routes[f],
    shippingCost: f === o.routes.findIndex(Boolean) ? (intake.shippingCost ?? null) : null,
    notice: { pharmacyEmail: intake.pharmacyEmail ?? null, pharmacyId: resolved.orderPharmacyId },
    actor: o.actor,
  };
}

/**
 * The order, its shop order, its audit event and its order_created event (one per created order), as
 * CTEs "audit", "order" (RETURNING "createdAt", "updatedAt"), "shopOrder" and "orderCreated" of one
 * statement: intake is a hot path, and both of intake's ways of writing take the order from here.
 */
function orderWritesSql(o: {
  order: NewOrder;
  organisationId: string;
  shop: { id: string };
  shopOrderId: string;
  intake: OrderIntake;
  resolved: Resolved;
  patientId: string;
  actor: Actor;
}): Prisma.Sql {
  const { intake } = o;
  const { orderId, name, onHold, status, initialStatus } = o.order;
  const by = actorColumns(o.actor);
  const summary = `Order ${name} created${onHold ? " on hold" : ""} (${intake.fulfillments.length} fulfillment${intake.fulfillments.length === 1 ? "" : "s"})`;
  return Prisma.sql`
    "audit" AS (
      INSERT INTO "AuditEvent" ("id", "organisationId", "entityType", "entityId", "action", "summary", "summaryValues", "details",
                                "actorType", "actorApiKeyId", "actorUserId", "createdAt")
      VALUES (${randomUUID()}, ${o.organisationId}, ${"order" satisfies AuditEntity}, ${orderId}, 'created', ${summary},
              ${JSON.stringify({ name, fulfillments: intake.fulfillments.length, onHold: String(onHold) } satisfies AuditValues)}::jsonb,
              ${JSON.stringify({ externalId: intake.externalId, status: initialStatus, shopId: o.shop.id })}::jsonb,
              ${by.actorType}::"ActorType", ${by.actorApiKeyId}, ${by.actorUserId}, now())
    ), "order" AS (
      INSERT INTO "Order" ("id", "organisationId", "externalId", "name", "status", "patientId", "customerEmail",
                           "deliveryAddress", "invoiceAddress", "shippingCostAmount", "shippingCostCurrency", "priority",
                           "onHold", "holdComment", "doctorId", "pharmacyId", "pharmacyEmail", "referralScanUid",
                           "additionalDetails", "updatedAt")
      VALUES (${orderId}, ${o.organisationId}, ${intake.externalId}, ${name}, ${status}, ${o.patientId}, ${intake.customer.email ?? null},
              ${JSON.stringify(intake.deliveryAddress)}::jsonb, ${JSON.stringify(intake.invoiceAddress ?? intake.deliveryAddress)}::jsonb,
              ${intake.shippingCost?.amount ?? null}::int, ${intake.shippingCost?.currency ?? null}, ${intake.priority ?? 0}::int,
              ${onHold}, ${onHold ? (intake.holdComment ?? null) : null}, ${o.resolved.doctorId}, ${o.resolved.orderPharmacyId},
              ${intake.pharmacyEmail ?? null}, ${intake.referralScanUid ?? null},
              ${intake.additionalDetails === undefined ? null : JSON.stringify(intake.additionalDetails)}::jsonb, now())
      RETURNING "id", "createdAt", "updatedAt"),
    "shopOrder" AS (
      INSERT INTO "ShopOrder" ("id", "orderId", "shopId", "externalId", "name")
      SELECT ${o.shopOrderId}, "order"."id", ${o.shop.id}, ${intake.externalId}, ${name} FROM "order"),
    "orderCreated" AS (${orderCreatedEventSql(o.organisationId, orderId)})`;
}

/** The new order as getOrder would read it, from what intake wrote (no read back). */
function shownOrder(o: {
  orderId: string;
  name: string;
  intake: OrderIntake;
  status: string;
  onHold: boolean;
  shop: { id: string };
  shopOrderId: string;
  written: { createdAt: Date; updatedAt: Date };
  fulfillments: AddedFulfillment[];
}): OrderWithGraph {
  const { intake, written, fulfillments } = o;
  // As getOrder reads it: rows of one transaction share its clock, so items and fulfillments come in uid order.
  const byId = <T extends { id: string }>(rows: T[]) => rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  const items = fulfillments.flatMap((f) => f.items);
  return {
    id: o.orderId,
    name: o.name,
    externalId: intake.externalId,
    status: o.status,
    onHold: o.onHold,
    customerEmail: intake.customer.email ?? null,
    createdAt: written.createdAt,
    updatedAt: written.updatedAt,
    shopOrder: { id: o.shopOrderId, externalId: intake.externalId, shop: { id: o.shop.id, identifier: intake.shopIdentifier } },
    items: byId(items.map((i) => ({ id: i.id, skuId: i.skuId, quantity: i.quantity, prescriptionId: i.prescriptionId, sku: i.sku }))),
    fulfillments: byId(
      fulfillments.map((f) => ({
        id: f.id,
        status: FULFILLMENT_OPEN,
        externalId: f.externalId,
        items: byId(f.items.map((i) => ({ id: i.id, status: FULFILLMENT_OPEN, quantity: i.quantity }))),
        pharmacyOrder: f.routed ? { status: PHARMACY_ORDER_STATUS.waitingForPharmacy, updatedAt: written.updatedAt } : null,
      })),
    ),
    prescriptions: [],
  };
}

/** The status a new fulfillment and its items start in (the columns' default). */
const FULFILLMENT_OPEN = "OPEN";

export type NewFulfillment = {
  organisationId: string;
  orderId: string;
  fulfillment: FulfillmentIntake;
  resolvedItems: ResolvedItem[];
  /** The fulfillment's validated inline PDFs (path (d)) by id. */
  inlinePrescriptions: Map<string, ValidatedPdf>;
  /** Which prescription each inline PDF becomes (redeemPrescriptions); a new one each when absent. */
  inlinePlan?: Map<string, InlinePlan>;
  explicitPharmacyId: string | null;
  doctorId: string | null;
  patientId: string;
  /** False while the order is on hold: nothing goes to a doctor or pharmacy. */
  route: boolean;
  /** Where routeNewFulfillment sent it, when the caller routed it already (order intake, before its transaction). */
  routed?: RoutedPharmacy | null;
  /** The order's search parts, read in this transaction under the patient's lock (createPharmacyOrder). */
  searchParts?: OrderSearchParts;
  shippingCost: { amount: number; currency: string } | null;
  /** The order's pharmacy_email and pharmacy_uid: who hears of its pharmacy orders (pharmacyEmailNoticeTo). */
  notice: { pharmacyEmail: string | null; pharmacyId: string | null };
  actor: Actor;
};

/** The items of a new fulfillment that go to a pharmacy order now (none while a doctor reviews it first or the order is on hold). */
function itemsForPharmacy<T>(items: T[], input: Pick<NewFulfillment, "resolvedItems" | "route">): T[] {
  if (!input.route || input.resolvedItems.some((r) => r.needsDoctor)) return [];
  return items.filter((_, i) => !input.resolvedItems[i].skipForPharmacyOrders);
}

/**
 * The pharmacy a new fulfillment goes to: null when none of its items goes to a pharmacy now
 * (itemsForPharmacy), else routing's choice (routeFulfillmentToPharmacy); also null when no pharmacy
 * can serve it (goesToPharmacy tells the two apart). A read: order intake routes before its
 * transaction, adding a fulfillment inside it.
 */
export async function routeNewFulfillment(
  db: RawTx,
  input: Pick<NewFulfillment, "organisationId" | "fulfillment" | "resolvedItems" | "explicitPharmacyId" | "route">,
  /** The organisation's offers of the items' SKUs, read already (pharmacyOffersSql). */
  knownOffers?: readonly Offer[],
): Promise<RoutedPharmacy | null> {
  const toPharmacy = itemsForPharmacy(input.fulfillment.items, input);
  if (toPharmacy.length === 0) return null;
  const routed = await routeFulfillmentToPharmacy(
    db,
    input.organisationId,
    toPharmacy.map((item) => ({ skuId: input.resolvedItems[input.fulfillment.items.indexOf(item)].skuId, quantity: item.quantity })),
    input.explicitPharmacyId,
    [],
    knownOffers,
  );
  // No pharmacy fits: accepted all the same (a paid order), it waits as "pharmacy not found" and is
  // routed when stock arrives (route-waiting.ts) or an admin routes it by hand.
  return routed;
}

/** Whether a new fulfillment has items for a pharmacy now (so no route means no pharmacy could take it). */
export function goesToPharmacy(items: FulfillmentIntake["items"], input: Pick<NewFulfillment, "resolvedItems" | "route">): boolean {
  return itemsForPharmacy(items, input).length > 0;
}

/** A fulfillment addFulfillment wrote: its items as written, whether it got a pharmacy order, whether prescriptions were recorded for it. */
export type AddedFulfillment = {
  id: string;
  externalId: string;
  items: { id: string; skuId: string; quantity: number; prescriptionId: string | null; sku: ResolvedItem["sku"] }[];
  routed: boolean;
  recordedPrescriptions: boolean;
};

/**
 * Writes one fulfillment with its items. Inline PDFs (path (d)) become prescriptions signed outside
 * the service. Items a doctor must review first (an anamnesis, or skip validation without a path)
 * get a prescription request that waits for a doctor, and the fulfillment waits with it: its
 * pharmacy order is created once the prescription is signed (prescriptions/send-to-pharmacy.ts).
 * Otherwise, unless the order is on hold, the items that go to pharmacies (SKUs without
 * skip_for_pharmacy_orders) become one pharmacy order, routed by routeNewFulfillment (here, unless
 * the caller did already); without prescriptions to record, it is written in the fulfillment's
 * statement.
 */
export async function addFulfillment(tx: Tx | RawTx, input: NewFulfillment): Promise<AddedFulfillment> {
  const { fulfillment, resolvedItems } = input;
  const routed = input.routed !== undefined ? input.routed : await routeNewFulfillment(tx, input);
  const created = newFulfillmentRows(input);
  const { insertFulfillment, items } = created;
  // With prescriptions to record, the fulfillment row goes first, so that a conflicting fulfillment
  // (a concurrent duplicate) fails before any PDF is stored; otherwise it goes with its items.
  const recordsPrescriptions = input.inlinePrescriptions.size > 0 || resolvedItems.some((r) => r.needsDoctor);
  if (recordsPrescriptions) await tx.$executeRaw`${insertFulfillment}`;
  // Prescriptions first (items refer to them), then the items, then the prescriptions' lines.
  const lines: { prescriptionId: string; orderItemId: string; skuId: string; quantity: number; anamnesisId: string | null }[] = [];
  // A PDF the organisation holds already (or this intake recorded for an earlier fulfillment) is
  // that prescription again; only a PDF's prescription recorded by this intake gets lines from its items.
  const knownPrescriptions = new Set<string>();
  for (const [reference, validated] of input.inlinePrescriptions) {
    const plan = input.inlinePlan?.get(reference);
    const prescriptionId =
      plan && !plan.record
        ? plan.prescriptionId
        : await recordInlinePrescription(prismaTx(tx), {
            organisationId: input.organisationId,
            orderId: input.orderId,
            patientId: input.patientId,
            validated,
            actor: input.actor,
            id: plan?.prescriptionId,
          });
    if (plan?.existing) knownPrescriptions.add(prescriptionId);
    for (const item of items.filter((i) => i.prescriptionReference === reference)) item.prescriptionId = prescriptionId;
  }
  const doctorItems = items.filter((_, i) => resolvedItems[i].needsDoctor);
  if (doctorItems.length > 0) {
    const prescriptionId = randomUUID();
    await prismaTx(tx).prescription.create({
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
    await recordPrescriptionCreated(tx, { organisationId: input.organisationId, id: prescriptionId });
    for (const item of doctorItems) item.prescriptionId = prescriptionId;
  }
  const writes = recordsPrescriptions ? Prisma.sql`"orderItems" AS (${orderItemsInsertSql(items)})` : fulfillmentWritesSql(created);
  // Items that wait for prescription lines (they refer to the items) are written on their own.
  if (recordsPrescriptions || !routed) await tx.$executeRaw`WITH ${writes} SELECT 1`;
  for (const item of items) {
    const fromRequest = item.prescriptionReference !== null || doctorItems.includes(item);
    if (fromRequest && item.prescriptionId && !knownPrescriptions.has(item.prescriptionId)) {
      lines.push({ prescriptionId: item.prescriptionId, orderItemId: item.id, skuId: item.skuId, quantity: item.quantity, anamnesisId: item.anamnesisId });
    }
  }
  if (lines.length > 0) await prismaTx(tx).prescriptionLine.createMany({ data: lines });

  const added = {
    id: created.id,
    externalId: fulfillment.externalId,
    items: items.map((item, i) => ({ id: item.id, skuId: item.skuId, quantity: item.quantity, prescriptionId: item.prescriptionId, sku: resolvedItems[i].sku })),
    routed: routed !== null,
    recordedPrescriptions: recordsPrescriptions,
  };
  if (!routed) return added;
  await createPharmacyOrder(
    tx,
    {
      ...pharmacyOrderOfFulfillment(input, created.id, items, routed),
      noticeTo: pharmacyEmailNoticeTo(input.notice, routed.pharmacyId),
      searchParts: input.searchParts,
      alongside: recordsPrescriptions ? undefined : writes,
    },
    input.actor,
  );
  return added;
}

/** A new fulfillment and its items as CTEs "fulfillment" and "orderItems" of one statement. */
const fulfillmentWritesSql = (rows: ReturnType<typeof newFulfillmentRows>) =>
  Prisma.sql`"fulfillment" AS (${rows.insertFulfillment}), "orderItems" AS (${orderItemsInsertSql(rows.items)})`;

/** A new fulfillment's row and its items' rows (items refer to prescriptions once recorded). */
function newFulfillmentRows(input: NewFulfillment) {
  const { fulfillment, resolvedItems } = input;
  const id = randomUUID();
  const insertFulfillment = Prisma.sql`
    INSERT INTO "Fulfillment" ("id", "orderId", "externalId", "destinationPharmacyId", "locationId", "updatedAt")
    VALUES (${id}, ${input.orderId}, ${fulfillment.externalId}, ${fulfillment.destinationPharmacyUid ?? null},
            ${fulfillment.locationId ?? null}, now())`;
  const items = fulfillment.items.map((item, i) => ({
    id: randomUUID(),
    orderId: input.orderId,
    fulfillmentId: id,
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
  return { id, insertFulfillment, items };
}

/** The pharmacy order of a routed fulfillment, of the items that go to a pharmacy (itemsForPharmacy). */
function pharmacyOrderOfFulfillment(
  input: NewFulfillment,
  fulfillmentId: string,
  items: ReturnType<typeof newFulfillmentRows>["items"],
  routed: RoutedPharmacy,
): Omit<NewPharmacyOrder, "noticeTo"> {
  return {
    organisationId: input.organisationId,
    orderId: input.orderId,
    fulfillmentId,
    pharmacyId: routed.pharmacyId,
    routing: input.explicitPharmacyId ? "INTEGRATOR" : "AUTOMATIC",
    ...pharmacyOrderLinesOf(itemsForPharmacy(items, input), routed),
    shippingCostsAmount: input.shippingCost?.amount ?? null,
    shippingCostsCurrency: input.shippingCost?.currency ?? null,
  };
}

/** The INSERT of a fulfillment's items (the rows as one JSON parameter, typed by the table's row type). */
function orderItemsInsertSql(items: Record<string, unknown>[]): Prisma.Sql {
  const columns = Prisma.raw(
    [
      "id", "orderId", "fulfillmentId", "externalId", "skuId", "shopSkuId", "quantity", "totalPaidAmount", "totalPaidCurrency",
      "prescriptionId", "prescriptionReference", "anamnesisId", "fulfillmentMethod", "skipValidation",
    ]
      .map((c) => `"${c}"`)
      .join(", "),
  );
  return Prisma.sql`
    INSERT INTO "OrderItem" (${columns})
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::"OrderItem", ${JSON.stringify(items)}::jsonb)`;
}
