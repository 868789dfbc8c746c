import { database, databaseDriver, Prisma, type Db, type Tx } from "@/server/db/client";
import { COUNTRY_NAMES } from "@/server/domain/countries";
import { NotFoundError } from "@/server/domain/errors";
import type { Address } from "@/server/domain/orders/intake";
import type { Page } from "@/server/domain/paging";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { readVerified } from "@/server/storage/prescription-files";
import { searchTextPattern } from "./search-text";
import { pharmacyIdCondition, pharmacyOrderStatusCountsSql, pharmacyOrderTallySql } from "./tally";

/**
 * Every read of pharmacy orders as pharmacies see them, in one module: the read model behind the
 * detail, the command responses and webhooks (PharmacyOrderView, PharmacyOrderDetail), and the list,
 * whose entries the database builds as JSON text. Both read the same joins and sub-selects below;
 * only their projections differ.
 */
export type PharmacyOrderView = {
  id: string;
  name: string;
  status: string;
  externalStatus: string;
  deliveryType: string;
  createdAt: Date;
  updatedAt: Date;
  prepaid: number;
  shippingCostsAmount: number | null;
  shippingCostsCurrency: string | null;
  pharmacy: { id: string; displayName: string };
  order: { id: string; deliveryAddress: Address; invoiceAddress: Address; priority: number };
  shopOrderName: string | null;
  items: { uid: string; amount: number; totalPaidAmount: number; sku: { uid: string; displayName: string; pzn: string | null } }[];
  shippingMethods: { uid: string; displayName: string; externalId: string; identifierForPharmacy: string | null }[];
};

export type PharmacyOrderFilter = {
  /** One pharmacy (a key, a pharmacist) or several (a group pharmacist's whole group). */
  pharmacyIds: readonly string[];
  status?: string;
  search?: string;
  createdFrom?: Date;
  createdTo?: Date;
};

// ── The sources both projections read ──

/** A page of ids (`page`) joined to its order `po`, pharmacy `ph`, order `o` and shop order `so`. */
const PAGE_JOINS = Prisma.sql`
      JOIN "PharmacyOrder" po ON po."id" = page."id"
      JOIN "Pharmacy" ph ON ph."id" = po."pharmacyId"
      JOIN "Order" o ON o."id" = po."orderId"
      LEFT JOIN "ShopOrder" so ON so."orderId" = o."id"`;

/** The items of `po` (poi, its order item oi, its SKU s), and their order. */
const ITEM_SOURCE = Prisma.sql`FROM "PharmacyOrderItem" poi
       JOIN "OrderItem" oi ON oi."id" = poi."orderItemId"
       JOIN "Sku" s ON s."id" = oi."skuId"
      WHERE poi."pharmacyOrderId" = po."id"`;
const ITEM_ORDER = Prisma.sql`oi."createdAt", oi."id"`;
/** ITEM_SOURCE with the SKU's product p and the pharmacy SKU psku the line was routed to, if any (the detail). */
const ITEM_SOURCE_WITH_PRODUCT = Prisma.sql`FROM "PharmacyOrderItem" poi
       JOIN "OrderItem" oi ON oi."id" = poi."orderItemId"
       JOIN "Sku" s ON s."id" = oi."skuId"
       JOIN "Product" p ON p."id" = s."productId"
       LEFT JOIN "PharmacySku" psku ON psku."id" = poi."pharmacySkuId"
      WHERE poi."pharmacyOrderId" = po."id"`;

/** The shop shipping methods of `so` (sm) with the mapping of `po`'s pharmacy (map), if any. */
const SHIPPING_METHOD_SOURCE = Prisma.sql`FROM "ShopOrderShippingMethod" sosm
       JOIN "ShopShippingMethod" sm ON sm."id" = sosm."shopShippingMethodId"
       LEFT JOIN "PharmacyShippingMethodMapping" map
              ON map."shopShippingMethodId" = sm."id" AND map."pharmacyId" = po."pharmacyId"
      WHERE sosm."shopOrderId" = so."id"`;

function whereClause(filter: PharmacyOrderFilter): Prisma.Sql {
  const conditions = [pharmacyIdCondition(filter.pharmacyIds)];
  if (filter.status) conditions.push(Prisma.sql`"status" = ${filter.status}`);
  // One part of the search text (search-text.ts); the trigram index serves LIKE '%…%'.
  if (filter.search) conditions.push(Prisma.sql`"searchText" LIKE ${searchTextPattern(filter.search)}`);
  if (filter.createdFrom) conditions.push(Prisma.sql`"createdAt" >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(Prisma.sql`"createdAt" <= ${filter.createdTo}`);
  return Prisma.join(conditions, " AND ");
}

/**
 * A page's ids in list order (newest first, uid as tie-break). Only ids: skipping OFFSET rows then
 * reads the index alone (an index-only scan), not the table.
 */
function pageIdsSql(filter: PharmacyOrderFilter, page: Page): Prisma.Sql {
  return Prisma.sql`SELECT "id" FROM "PharmacyOrder" WHERE ${whereClause(filter)}
                    ORDER BY "createdAt" DESC, "id" DESC LIMIT ${page.limit} OFFSET ${page.page * page.limit}`;
}

/** The exact total under the filter (one int4 column): from the tally when only pharmacy and status filter, else counted. */
function countSql(filter: PharmacyOrderFilter): Prisma.Sql {
  if (!filter.search && !filter.createdFrom && !filter.createdTo) return pharmacyOrderTallySql(filter.pharmacyIds, filter.status);
  return Prisma.sql`SELECT count(*)::int AS "total" FROM "PharmacyOrder" WHERE ${whereClause(filter)}`;
}

// ── The read model ──

/** The statement's flat row: the view's scalar fields plus the joined columns. */
type ViewRow = Omit<PharmacyOrderView, "pharmacy" | "order"> & {
  pharmacyId: string;
  pharmacyName: string;
  orderId: string;
  deliveryAddress: Address;
  invoiceAddress: Address;
  priority: number;
};

/** One statement for the orders `pageQuery` selects (ids): each row joined, its items and shipping methods aggregated as JSON. */
async function selectViews(db: Db | Tx, pageQuery: Prisma.Sql): Promise<PharmacyOrderView[]> {
  const rows = await db.$queryRaw<ViewRow[]>`
    SELECT po."id", po."name", po."status", po."externalStatus", po."deliveryType", po."createdAt", po."updatedAt", po."prepaid",
           po."shippingCostsAmount", po."shippingCostsCurrency", po."pharmacyId",
           ph."displayName" AS "pharmacyName",
           o."id" AS "orderId", o."deliveryAddress", o."invoiceAddress", o."priority",
           so."name" AS "shopOrderName",
           (SELECT coalesce(json_agg(json_build_object(
                      'uid', oi."id", 'amount', poi."amount", 'totalPaidAmount', poi."totalPaidAmount",
                      'sku', json_build_object('uid', s."id", 'displayName', s."displayName", 'pzn', s."pzn"))
                    ORDER BY ${ITEM_ORDER}), '[]'::json)
              ${ITEM_SOURCE}) AS "items",
           (SELECT coalesce(json_agg(json_build_object(
                      'uid', sm."id", 'displayName', sm."displayName", 'externalId', sm."externalId",
                      'identifierForPharmacy', map."identifierForPharmacy")
                    ORDER BY sm."externalId"), '[]'::json)
              ${SHIPPING_METHOD_SOURCE}) AS "shippingMethods"
      FROM (${pageQuery}) page
      ${PAGE_JOINS}
     ORDER BY po."createdAt" DESC, po."id" DESC`;
  return rows.map(({ pharmacyId, pharmacyName, orderId, deliveryAddress, invoiceAddress, priority, ...r }) => ({
    ...r,
    pharmacy: { id: pharmacyId, displayName: pharmacyName },
    order: { id: orderId, deliveryAddress, invoiceAddress, priority },
  }));
}

/** One pharmacy order of `pharmacyId`; another pharmacy's order is not found. */
export async function getPharmacyOrderView(pharmacyId: string, pharmacyOrderId: string): Promise<PharmacyOrderView> {
  const [view] = await selectViews(
    await database(),
    Prisma.sql`SELECT "id" FROM "PharmacyOrder" WHERE "id" = ${pharmacyOrderId} AND "pharmacyId" = ${pharmacyId}`,
  );
  if (!view) throw new NotFoundError();
  return view;
}

type ShipmentJson = {
  id: string;
  sequenceNumber: number;
  trackingUrl: string | null;
  trackingNumber: string | null;
  carrierName: string | null;
  isTest: boolean;
  returnTrackingNumber: string | null;
  returnLabelExpiry: string | null;
};
type PayoutJson = {
  status: "PROJECTED" | "ROUTED";
  amount: number;
  currency: string;
  componentType: string;
  routingDescription: string | null;
  providerRouteId: string | null;
  routingCreatedAt: string | null;
  reviewFlaggedAt: string | null;
  reviewReason: string | null;
};
/** What the detail adds to each item of the view: the SKU's product, and the pharmacy's SKU the line was routed to. */
export type DetailItemFacts = {
  uid: string;
  product: { id: string; displayName: string; handle: string | null };
  pharmacySku: { id: string; externalId: string; price: number; stock: number } | null;
};
type DetailRow = {
  items: DetailItemFacts[];
  patient: { id: string; displayName: string; email: string | null };
  patientDateOfBirth: Date | null;
  prescriptionId: string | null;
  prescriptionStatus: string | null;
  signedFileKey: string | null;
  signedFileSha256: string | null;
  doctor: { id: string; displayName: string } | null;
  shipments: ShipmentJson[];
  payouts: PayoutJson[];
  unreadAnswerAt: Date | null;
  holdsStock: boolean;
};

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/**
 * The detail adds each item's product and pharmacy SKU, patient, doctor, prescription, shipments
 * and the pharmacy's payouts, in one more statement; the signed prescription as where it is stored (`signedPrescription`), not yet read.
 */
async function readPharmacyOrderDetail(pharmacyId: string, pharmacyOrderId: string) {
  const db = await database();
  const view = await getPharmacyOrderView(pharmacyId, pharmacyOrderId);
  const [extra] = await db.$queryRaw<DetailRow[]>`
    SELECT (SELECT coalesce(json_agg(json_build_object(
                      'uid', oi."id",
                      'product', json_build_object('id', p."id", 'displayName', p."displayName", 'handle', p."handle"),
                      'pharmacySku', CASE WHEN psku."id" IS NULL THEN NULL ELSE json_build_object(
                                       'id', psku."id", 'externalId', psku."externalId", 'price', psku."price", 'stock', psku."stock") END)
                    ORDER BY ${ITEM_ORDER}), '[]'::json)
              ${ITEM_SOURCE_WITH_PRODUCT}) AS "items",
           json_build_object('id', pt."id", 'displayName', pt."displayName", 'email', pt."email") AS "patient",
           pt."dateOfBirth" AS "patientDateOfBirth",
           pr."id" AS "prescriptionId", pr."status" AS "prescriptionStatus",
           pr."signedFileKey", pr."signedFileSha256", po."unreadAnswerAt",
           EXISTS (SELECT 1 FROM "StockMovement" sm WHERE sm."pharmacyOrderId" = po."id"
                    GROUP BY sm."pharmacySkuId" HAVING SUM(sm."delta") < 0) AS "holdsStock",
           CASE WHEN d."id" IS NULL THEN NULL ELSE json_build_object('id', d."id", 'displayName', d."displayName") END AS "doctor",
           (SELECT coalesce(json_agg(json_build_object(
                      'id', s."id", 'sequenceNumber', s."sequenceNumber", 'trackingUrl', s."trackingUrl",
                      'trackingNumber', s."trackingNumber", 'carrierName', s."carrierName", 'isTest', s."isTest",
                      'returnTrackingNumber', s."returnTrackingNumber", 'returnLabelExpiry', s."returnLabelExpiry")
                    ORDER BY s."sequenceNumber"), '[]'::json)
              FROM "Shipment" s WHERE s."pharmacyOrderId" = po."id") AS "shipments",
           (SELECT coalesce(json_agg(json_build_object(
                      'status', pay."status", 'amount', pay."amount", 'currency', pay."currency",
                      'componentType', pay."componentType", 'routingDescription', pay."routingDescription",
                      'providerRouteId', pay."providerRouteId", 'routingCreatedAt', pay."routingCreatedAt",
                      'reviewFlaggedAt', pay."reviewFlaggedAt", 'reviewReason', pay."reviewReason")
                    ORDER BY pay."createdAt", pay."componentType", pay."id"), '[]'::json)
              FROM "Payout" pay WHERE pay."pharmacyOrderId" = po."id" AND pay."receiverPharmacyId" = ${pharmacyId}) AS "payouts"
      FROM "PharmacyOrder" po
      JOIN "Order" o ON o."id" = po."orderId"
      JOIN "PatientProfile" pt ON pt."id" = o."patientId"
      LEFT JOIN "Prescription" pr ON pr."id" = po."prescriptionId"
      LEFT JOIN "Doctor" d ON d."id" = pr."doctorId"
     WHERE po."id" = ${pharmacyOrderId}`;
  if (!extra) throw new NotFoundError(); // deleted since the view was read
  const signedPrescription =
    extra.prescriptionId && extra.signedFileKey && extra.signedFileSha256 && isSignedStatus(extra.prescriptionStatus ?? "")
      ? { filename: `prescription-${extra.prescriptionId}.pdf`, key: extra.signedFileKey, sha256: extra.signedFileSha256 }
      : null;
  // Every payout row names this pharmacy order (the view has it).
  const pharmacyOrder = { id: view.id, name: view.name, createdAt: view.createdAt };
  const facts = new Map(extra.items.map((item) => [item.uid, item]));
  return {
    ...view,
    items: view.items.map((item) => ({ ...item, product: facts.get(item.uid)!.product, pharmacySku: facts.get(item.uid)!.pharmacySku })),
    patient: { ...extra.patient, dateOfBirth: extra.patientDateOfBirth },
    doctor: extra.doctor,
    signedPrescription,
    unreadAnswerAt: extra.unreadAnswerAt,
    holdsStock: extra.holdsStock,
    shipments: extra.shipments.map((s) => ({ ...s, returnLabelExpiry: dateOrNull(s.returnLabelExpiry) })),
    payouts: extra.payouts.map((p) => ({
      ...p,
      routingCreatedAt: dateOrNull(p.routingCreatedAt),
      reviewFlaggedAt: dateOrNull(p.reviewFlaggedAt),
      pharmacyOrder,
    })),
  };
}

/** The detail with the signed prescription PDF inline (spec: pharmacy order detail and webhook payloads), checked against its checksum. */
export async function getPharmacyOrderDetail(pharmacyId: string, pharmacyOrderId: string) {
  // The unread answer is the portal's (getPharmacyOrderDetailForPortal), not the API's.
  const { signedPrescription, unreadAnswerAt: _portalOnly, holdsStock: _portalToo, ...detail } = await readPharmacyOrderDetail(pharmacyId, pharmacyOrderId);
  const prescriptionFile = signedPrescription
    ? { filename: signedPrescription.filename, content: await readVerified(signedPrescription.key, signedPrescription.sha256) }
    : null;
  return { ...detail, prescriptionFile };
}

/**
 * The detail as the portal page reads it, every few seconds: the prescription PDF only named (its
 * bytes come from getPharmacyOrderPrescriptionFile when the page shows it), with the order's history.
 */
export async function getPharmacyOrderDetailForPortal(pharmacyId: string, pharmacyOrderId: string) {
  const { signedPrescription, ...detail } = await readPharmacyOrderDetail(pharmacyId, pharmacyOrderId);
  return {
    ...detail,
    prescriptionFilename: signedPrescription?.filename ?? null,
    history: await listPharmacyOrderHistory(pharmacyOrderId),
  };
}

export type PharmacyOrderPortalDetail = Awaited<ReturnType<typeof getPharmacyOrderDetailForPortal>>;

/** The signed prescription PDF of a pharmacy order of `pharmacyId` (checked against its checksum), or null when it has none. */
export async function getPharmacyOrderPrescriptionFile(pharmacyId: string, pharmacyOrderId: string) {
  const db = await database();
  const po = await db.pharmacyOrder.findFirst({
    where: { id: pharmacyOrderId, pharmacyId },
    select: { prescription: { select: { id: true, status: true, signedFileKey: true, signedFileSha256: true } } },
  });
  if (!po) throw new NotFoundError();
  const pr = po.prescription;
  if (!pr || !pr.signedFileKey || !pr.signedFileSha256 || !isSignedStatus(pr.status)) return null;
  return { filename: `prescription-${pr.id}.pdf`, content: await readVerified(pr.signedFileKey, pr.signedFileSha256) };
}

/** Who changed a pharmacy order: a portal user, an API key, or the platform itself. */
export type HistoryActor =
  | { type: "USER"; id: string; displayName: string }
  | { type: "API_KEY"; id: string; displayName: string }
  | { type: "SYSTEM" };

export type PharmacyOrderHistoryEntry = {
  id: string;
  /** Null for changes other than a status change; then `toStatus` names the change (PHARMACY_ORDER_CHANGE). */
  fromStatus: string | null;
  toStatus: string;
  comment: string | null;
  actor: HistoryActor;
  createdAt: Date;
};

/** A history entry as HISTORY_ENTRY_SOURCE reads it (`createdAt` as text when read inside JSON). */
export type HistoryEntryRow = {
  id: string;
  pharmacyOrderId: string;
  fromStatus: string | null;
  toStatus: string;
  comment: string | null;
  actorType: string;
  userId: string | null;
  userName: string | null;
  apiKeyId: string | null;
  apiKeyName: string | null;
  createdAt: Date | string;
};

/** The columns of HistoryEntryRow and where they come from (history `h` with who made each change), for a WHERE on `h` to follow. */
export const HISTORY_ENTRY_SOURCE = Prisma.sql`
  h."id", h."pharmacyOrderId", h."fromStatus", h."toStatus", h."comment", h."actorType"::text AS "actorType", h."createdAt",
  u."id" AS "userId", u."displayName" AS "userName", k."id" AS "apiKeyId", k."displayName" AS "apiKeyName"
  FROM "PharmacyOrderHistory" h
  LEFT JOIN "User" u ON u."id" = h."actorUserId"
  LEFT JOIN "ApiKey" k ON k."id" = h."actorApiKeyId"`;

/** A history entry with who made it: a user or key that is gone since counts as the platform. */
export function toHistoryEntry(r: HistoryEntryRow): PharmacyOrderHistoryEntry {
  return {
    id: r.id,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    comment: r.comment,
    createdAt: new Date(r.createdAt),
    actor:
      r.actorType === "USER" && r.userId
        ? { type: "USER", id: r.userId, displayName: r.userName ?? "" }
        : r.actorType === "API_KEY" && r.apiKeyId
          ? { type: "API_KEY", id: r.apiKeyId, displayName: r.apiKeyName ?? "" }
          : { type: "SYSTEM" },
  };
}

/** Every history entry of a pharmacy order, oldest first, with who made it (the caller has checked the order is in scope). */
export async function listPharmacyOrderHistory(pharmacyOrderId: string): Promise<PharmacyOrderHistoryEntry[]> {
  const db = await database();
  const rows = await db.$queryRaw<HistoryEntryRow[]>`
    SELECT ${HISTORY_ENTRY_SOURCE} WHERE h."pharmacyOrderId" = ${pharmacyOrderId} ORDER BY h."createdAt", h."id"`;
  return rows.map(toHistoryEntry);
}

/** Which of `pharmacyIds` has the pharmacy order (a group pharmacist's page names only the order); otherwise not found. */
export async function pharmacyOfPharmacyOrder(pharmacyIds: readonly string[], pharmacyOrderId: string): Promise<string> {
  if (pharmacyIds.length === 0) throw new NotFoundError();
  const db = await database();
  const po = await db.pharmacyOrder.findFirst({ where: { id: pharmacyOrderId, pharmacyId: { in: [...pharmacyIds] } }, select: { pharmacyId: true } });
  if (!po) throw new NotFoundError();
  return po.pharmacyId;
}

export type PharmacyOrderDetail = Awaited<ReturnType<typeof getPharmacyOrderDetail>>;

/** The fulfillment behind a pharmacy order, with the shop's ids of each item (organisation-level webhook payloads). */
export async function getPharmacyOrderFulfillment(pharmacyOrderId: string) {
  const db = await database();
  const row = await db.pharmacyOrder.findUnique({
    where: { id: pharmacyOrderId },
    select: {
      fulfillment: {
        select: {
          id: true,
          externalId: true,
          status: true,
          items: {
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            select: {
              id: true,
              status: true,
              quantity: true,
              sku: { select: { id: true, displayName: true, pzn: true } },
              shopSku: { select: { shopVariationId: true, shopProduct: { select: { externalId: true } } } },
            },
          },
        },
      },
    },
  });
  if (!row) throw new NotFoundError();
  const f = row.fulfillment;
  return {
    id: f.id,
    externalId: f.externalId,
    status: f.status,
    items: f.items.map((item) => ({
      id: item.id,
      status: item.status,
      quantity: item.quantity,
      sku: item.sku,
      shopVariationId: item.shopSku?.shopVariationId ?? null,
      shopProductExternalId: item.shopSku?.shopProduct.externalId ?? null,
    })),
  };
}

export type PharmacyOrderFulfillment = Awaited<ReturnType<typeof getPharmacyOrderFulfillment>>;

// ── The list, built by the database ──

/**
 * The country names of presentAddress as a constant of the statement's text: PostgreSQL parses it
 * once per connection (the driver prepares the statement).
 */
const countryNames = Prisma.raw(`'${JSON.stringify(COUNTRY_NAMES).replaceAll("'", "''")}'::jsonb`);

/** presentAddress of a jsonb address column. */
const addressJson = (column: Prisma.Sql) => Prisma.sql`(SELECT a FROM (SELECT
    ${column} -> 'first_name' AS "first_name", ${column} -> 'last_name' AS "last_name", ${column} -> 'street' AS "street",
    ${column} -> 'house_number' AS "house_number", ${column} -> 'zip_code' AS "zip_code", ${column} -> 'city' AS "city",
    coalesce(${countryNames} -> (${column} ->> 'country'), ${column} -> 'country') AS "country",
    ${column} -> 'additional_address' AS "additional_address", ${column} -> 'province' AS "province") a)`;

/**
 * presentPharmacyOrder (server/api/external-pharmacy/pharmacy-order.presenters.ts) of the row `po`,
 * as JSON text with exactly the bytes JSON.stringify gives: objects are record values (row_to_json
 * writes them compactly, keys in column order), arrays string_agg of their elements. A test compares
 * the two for the same orders.
 */
const entryJson = Prisma.sql`row_to_json((SELECT e FROM (SELECT
    po."id" AS "uid", po."status", po."name", so."name" AS "shop_order_name", po."externalStatus" AS "external_status",
    (SELECT p FROM (SELECT ph."id" AS "uid", ph."displayName" AS "display_name") p) AS "pharmacy",
    (SELECT x FROM (SELECT o."id" AS "uid",
        ${addressJson(Prisma.sql`o."deliveryAddress"`)} AS "delivery_address",
        ${addressJson(Prisma.sql`o."invoiceAddress"`)} AS "invoice_address",
        o."priority") x) AS "order",
    (SELECT ('[' || coalesce(string_agg(row_to_json((SELECT i FROM (SELECT
                       oi."id" AS "uid", poi."amount",
                       (SELECT k FROM (SELECT s."id" AS "uid", s."displayName" AS "display_name", s."pzn") k) AS "sku",
                       poi."totalPaidAmount" AS "total_paid_amount") i))::text, ',' ORDER BY ${ITEM_ORDER}), '') || ']')::json
       ${ITEM_SOURCE}) AS "order_items",
    (SELECT ('[' || coalesce(string_agg(row_to_json(m)::text, ',' ORDER BY m."external_id"), '') || ']')::json
       FROM (SELECT sm."id" AS "uid", sm."displayName" AS "display_name", sm."externalId" AS "external_id",
                    CASE WHEN map."identifierForPharmacy" IS NULL THEN NULL
                         ELSE (SELECT r FROM (SELECT po."pharmacyId" AS "pharmacy_uid",
                                                     map."identifierForPharmacy" AS "shipping_method_identifier_for_pharmacy") r) END
                      AS "pharmacy_mapping"
               ${SHIPPING_METHOD_SOURCE}) m) AS "shop_shipping_methods",
    po."shippingCostsAmount" AS "shipping_costs_amount", po."shippingCostsCurrency" AS "shipping_costs_currency",
    floor(extract(epoch FROM po."createdAt"))::bigint AS "created_at", floor(extract(epoch FROM po."updatedAt"))::bigint AS "updated_at") e))`;

/** The list's statement: the page, each row's `entry` projection as a JSON array text ("entries") and the total; `extra` adds columns. */
function listStatement(filter: PharmacyOrderFilter, page: Page, entry: Prisma.Sql, extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    WITH page AS (${pageIdsSql(filter, page)})
    SELECT '[' || coalesce(string_agg(${entry}::text, ',' ORDER BY po."createdAt" DESC, po."id" DESC), '') || ']' AS "entries",
           (${countSql(filter)}) AS "total" ${extra}
      FROM page
      ${PAGE_JOINS}`;
}

/** The statement of listPharmacyOrdersJson (the benchmark's bare handler sends the same text). */
export function pharmacyOrderListStatement(filter: PharmacyOrderFilter, page: Page): { text: string; values: unknown[] } {
  const statement = listStatement(filter, page, entryJson);
  return { text: statement.text, values: statement.values };
}

/**
 * One page of a pharmacy's orders, newest first, as the JSON text of the wire's entries, with the
 * total under the filter. Built by the database in one statement through the driver (a prepared
 * statement), because the list is the busiest read of the External Pharmacy API and the server's
 * one thread would otherwise fetch, present and serialise every row (see the orders benchmark).
 */
export async function listPharmacyOrdersJson(filter: PharmacyOrderFilter, page: Page): Promise<{ entriesJson: string; total: number }> {
  if (filter.pharmacyIds.length === 0) return { entriesJson: "[]", total: 0 };
  const statement = pharmacyOrderListStatement(filter, page);
  const driver = await databaseDriver();
  const [{ entries, total }] = await driver.query<{ entries: string; total: number }>(statement.text, statement.values);
  return { entriesJson: entries, total };
}

/** A row of the portal's queue: what a pharmacist scans in a list, less than the REST entry carries. */
export type PharmacyOrderQueueRow = {
  id: string;
  name: string;
  status: string;
  deliveryType: string;
  shopOrderName: string | null;
  pharmacy: { id: string; displayName: string };
  customer: { firstName: string; lastName: string; zipCode: string; city: string };
  priority: number;
  items: { amount: number; displayName: string }[];
  createdAt: number;
  updatedAt: number;
  /** An admin's answer in an issue thread waits to be read (issue-thread-answers.ts). */
  unreadAnswer: boolean;
};

/** PharmacyOrderQueueRow of the row `po`, as JSON. */
const queueRowJson = Prisma.sql`json_build_object(
    'id', po."id", 'name', po."name", 'status', po."status", 'deliveryType', po."deliveryType", 'shopOrderName', so."name",
    'pharmacy', json_build_object('id', ph."id", 'displayName', ph."displayName"),
    'customer', json_build_object('firstName', o."deliveryAddress" -> 'first_name', 'lastName', o."deliveryAddress" -> 'last_name',
                                  'zipCode', o."deliveryAddress" -> 'zip_code', 'city', o."deliveryAddress" -> 'city'),
    'priority', o."priority",
    'items', (SELECT coalesce(json_agg(json_build_object('amount', poi."amount", 'displayName', s."displayName") ORDER BY ${ITEM_ORDER}), '[]'::json)
                ${ITEM_SOURCE}),
    'createdAt', floor(extract(epoch FROM po."createdAt"))::bigint, 'updatedAt', floor(extract(epoch FROM po."updatedAt"))::bigint,
    'unreadAnswer', po."unreadAnswerAt" IS NOT NULL)`;

/**
 * The portal's queue page: the REST list's statement (the same page of ids, joins and total) with
 * the queue's own projection of each row, and beside them the counts per status of all orders in
 * scope (the queue's tabs, countPharmacyOrdersByStatus): one round trip, so that the queue costs no
 * more than the REST list (orders benchmark).
 */
export async function listPharmacyOrdersForQueue(
  filter: PharmacyOrderFilter,
  page: Page,
): Promise<{ rows: PharmacyOrderQueueRow[]; total: number; statusCounts: Record<string, number> }> {
  if (filter.pharmacyIds.length === 0) return { rows: [], total: 0, statusCounts: {} };
  const statement = listStatement(filter, page, queueRowJson, Prisma.sql`, (${pharmacyOrderStatusCountsSql(filter.pharmacyIds)}) AS "statusCounts"`);
  const driver = await databaseDriver();
  const [row] = await driver.query<{ entries: string; total: number; statusCounts: Record<string, number> }>(statement.text, statement.values);
  return { rows: JSON.parse(row.entries) as PharmacyOrderQueueRow[], total: row.total, statusCounts: row.statusCounts };
}
