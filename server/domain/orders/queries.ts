import { database, databaseDriver, Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import type { Page } from "@/server/domain/paging";
import { escapeLike } from "@/server/domain/search";
import { ORDER_STATUS } from "./statuses";
import { countOrdersFromTally } from "./tally";

export type OrderFilter = {
  createdFrom?: Date;
  createdTo?: Date;
  updatedFrom?: Date;
  updatedTo?: Date;
  shopIdentifier?: string;
  shopOrderExternalId?: string;
  /** One patient's orders (the admin tool's patient page). */
  patientId?: string;
  search?: string;
  /** `search` also matches the order's external id (exactly) and the customer's e-mail (substring): the admin tool's search. */
  searchCustomer?: boolean;
  /** An order status (ORDER_STATUS), e.g. "waiting for doctor". */
  status?: string;
  onHold?: boolean;
  /** Orders that should be at a pharmacy and are not (see withoutPharmacySql). */
  withoutPharmacy?: boolean;
};

/** Statuses of orders that wait for someone other than a pharmacy, or are over. */
const NOT_FOR_A_PHARMACY = [
  ORDER_STATUS.paused,
  ORDER_STATUS.waitingForDoctor,
  ORDER_STATUS.cancelled,
  ORDER_STATUS.completed,
  ORDER_STATUS.prescriptionDeclined,
];

/**
 * Orders that should be at a pharmacy and are not: neither on hold nor waiting for a doctor nor
 * over, with an open fulfillment that has items for a pharmacy and no active pharmacy order (no
 * pharmacy could serve it when it was routed, or its pharmacy gave it back). The admin tool's
 * "orders without a pharmacy". The fulfillment's part is Fulfillment.needsPharmacy, which triggers
 * keep (migration admin_counts): its partial index holds only such fulfillments, so the count
 * reads those few rows, not every fulfillment of the organisation. As an array (`= ANY`) the
 * orders are then looked up by key whatever the planner's statistics say of the flag.
 */
const withoutPharmacySql = Prisma.sql`o."onHold" = false AND o."status" NOT IN (${Prisma.join(NOT_FOR_A_PHARMACY)})
  AND o."id" = ANY (ARRAY(SELECT f."orderId" FROM "Fulfillment" f WHERE f."needsPharmacy"))`;

/**
 * The filter's conditions on the organisation's orders (alias `o`), all but the search. One place
 * for the list's rows, its total and the admin home's counts.
 */
function filterConditions(organisationId: string, filter: OrderFilter): Prisma.Sql {
  const and: Prisma.Sql[] = [Prisma.sql`o."organisationId" = ${organisationId}`];
  if (filter.createdFrom) and.push(Prisma.sql`o."createdAt" >= ${filter.createdFrom}`);
  if (filter.createdTo) and.push(Prisma.sql`o."createdAt" <= ${filter.createdTo}`);
  if (filter.updatedFrom) and.push(Prisma.sql`o."updatedAt" >= ${filter.updatedFrom}`);
  if (filter.updatedTo) and.push(Prisma.sql`o."updatedAt" <= ${filter.updatedTo}`);
  if (filter.shopIdentifier) {
    and.push(Prisma.sql`EXISTS (SELECT 1 FROM "ShopOrder" so JOIN "Shop" sh ON sh."id" = so."shopId"
                                 WHERE so."orderId" = o."id" AND sh."identifier" = ${filter.shopIdentifier} AND sh."organisationId" = ${organisationId})`);
  }
  if (filter.shopOrderExternalId) {
    and.push(Prisma.sql`EXISTS (SELECT 1 FROM "ShopOrder" so WHERE so."orderId" = o."id" AND so."externalId" = ${filter.shopOrderExternalId})`);
  }
  if (filter.patientId) and.push(Prisma.sql`o."patientId" = ${filter.patientId}`);
  if (filter.status) and.push(Prisma.sql`o."status" = ${filter.status}`);
  if (filter.onHold !== undefined) and.push(Prisma.sql`o."onHold" = ${filter.onHold}`);
  if (filter.withoutPharmacy) and.push(withoutPharmacySql);
  return Prisma.join(and, " AND ");
}

/**
 * The organisation's orders that `term` finds, as (id, createdAt), under `conditions`:
 * a case-insensitive substring of the shop order name, a pharmacy order name or the patient's name,
 * or the exact uid of the order, one of its prescriptions or one of its pharmacy orders ("#"
 * stripped); with `searchCustomer`, also the order's external id (exactly) and the customer's
 * e-mail (substring). Index lookups only (trigram indexes on the names and the e-mail, migration
 * admin_search_indexes; keys for the uids), each branch reading the matching orders once, so the
 * cost grows with the matches and not with the organisation's orders. The patient branch takes the
 * matching patients' ids as an array (`= ANY`), which the planner answers from Order(patientId);
 * as a join it was estimated at a few percent of the table and answered by reading all of it.
 */
function searchMatchesSql(organisationId: string, conditions: Prisma.Sql, term: string, searchCustomer: boolean): Prisma.Sql {
  const like = `%${escapeLike(term)}%`;
  const uid = term.replace(/^#/, "");
  const customer = searchCustomer
    ? Prisma.sql`UNION SELECT o."id", o."createdAt" FROM "Order" o WHERE ${conditions} AND o."customerEmail" ILIKE ${like}
                 UNION SELECT o."id", o."createdAt" FROM "Order" o WHERE ${conditions} AND o."externalId" = ${term}`
    : Prisma.empty;
  return Prisma.sql`
    SELECT o."id", o."createdAt" FROM "Order" o
     WHERE ${conditions}
       AND o."patientId" = ANY (ARRAY(SELECT pp."id" FROM "PatientProfile" pp
                                       WHERE pp."organisationId" = ${organisationId} AND pp."displayName" ILIKE ${like}))
    UNION SELECT o."id", o."createdAt" FROM "Order" o
     WHERE ${conditions}
       AND o."id" = ANY (ARRAY(SELECT s."orderId" FROM "ShopOrder" s WHERE s."name" ILIKE ${like}
                               UNION SELECT p."orderId" FROM "PharmacyOrder" p WHERE p."organisationId" = ${organisationId} AND p."name" ILIKE ${like}
                               UNION SELECT r."orderId" FROM "Prescription" r WHERE r."organisationId" = ${organisationId} AND r."id" = ${uid} AND r."orderId" IS NOT NULL
                               UNION SELECT p."orderId" FROM "PharmacyOrder" p WHERE p."organisationId" = ${organisationId} AND p."id" = ${uid}
                               UNION SELECT ${uid}::text))
    ${customer}`;
}

/** Filters the order tally answers alone: the organisation's orders, of one status, on hold or not (any other filter set: counted). */
const TALLY_FILTERS = new Set(["status", "onHold", "searchCustomer", "search"]);
const tallyAnswers = (filter: OrderFilter) =>
  !filter.search?.trim() && Object.entries(filter).every(([key, value]) => TALLY_FILTERS.has(key) || value === undefined || value === false);

type Statement = <T>(sql: Prisma.Sql) => Promise<T[]>;
/** Planned with its values every time: a search's plan depends on its pattern. */
const plannedEachTime: Statement = async <T>(sql: Prisma.Sql) => (await database()).$queryRaw<T[]>(sql);
/** A prepared statement on the driver (about a tenth of $queryRaw's cost to the server): the admin home's counts, whose plans do not depend on the values. */
const prepared: Statement = async <T>(sql: Prisma.Sql) => (await databaseDriver()).query<T>(sql.text, sql.values);

/**
 * One page of ids in list order (newest first, uid as tie-break) and the total under the filter, in
 * as few statements as the filter allows. With a search or "without a pharmacy" the matches are few
 * (or as many as the search finds): they are gathered once, then counted and paged, in one
 * statement. Otherwise the total comes from the order tally when the filter is only status and hold
 * (else a count), and the page from the index on (organisation, creation time).
 */
async function pageOfOrders(
  organisationId: string,
  filter: OrderFilter,
  page: Page | null,
  run: Statement,
): Promise<{ ids: string[]; total: number }> {
  const term = filter.search?.trim();
  const conditions = filterConditions(organisationId, filter);
  const pageSql = (source: Prisma.Sql) =>
    page
      ? Prisma.sql`ARRAY(SELECT m."id" FROM ${source} m ORDER BY m."createdAt" DESC, m."id" DESC LIMIT ${page.limit} OFFSET ${page.page * page.limit})`
      : Prisma.sql`ARRAY[]::text[]`;
  if (term || filter.withoutPharmacy) {
    const matches = term
      ? searchMatchesSql(organisationId, conditions, term, Boolean(filter.searchCustomer))
      : Prisma.sql`SELECT o."id", o."createdAt" FROM "Order" o WHERE ${conditions}`;
    const [row] = await run<{ ids: string[]; total: number }>(Prisma.sql`
      WITH matched AS MATERIALIZED (${matches})
      SELECT (SELECT count(*)::int FROM matched) AS "total", ${pageSql(Prisma.sql`matched`)} AS "ids"`);
    return row;
  }
  const total = tallyAnswers(filter)
    ? await countOrdersFromTally(organisationId, { status: filter.status, onHold: filter.onHold })
    : (await run<{ total: number }>(Prisma.sql`SELECT count(*)::int AS "total" FROM "Order" o WHERE ${conditions}`))[0].total;
  if (!page || total === 0) return { ids: [], total };
  const [{ ids }] = await run<{ ids: string[] }>(
    Prisma.sql`SELECT ${pageSql(Prisma.sql`(SELECT o."id", o."createdAt" FROM "Order" o WHERE ${conditions})`)} AS "ids"`,
  );
  return { ids, total };
}

/** A page of the organisation's orders under the filter, newest first, each as getOrder reads it, and the total. */
export async function listOrders(organisationId: string, filter: OrderFilter, page: Page): Promise<{ items: OrderWithGraph[]; total: number }> {
  const { ids, total } = await pageOfOrders(organisationId, filter, page, plannedEachTime);
  return { items: await selectOrders(organisationId, ids), total };
}

/** How many orders match (the admin tool's home counts: the same filter as the list they link to). */
export async function countOrders(organisationId: string, filter: Omit<OrderFilter, "search" | "searchCustomer">): Promise<number> {
  return (await pageOfOrders(organisationId, filter, null, prepared)).total;
}

/**
 * Orders as the Management API shows them (every order command answers with one, the lists with a
 * page of them), in the order of `orderIds`: one statement, each order's parts aggregated as JSON,
 * instead of the nine statements a Prisma include sends (the intake row of the orders benchmark
 * answers with it). Ids of another organisation are left out.
 */
async function selectOrders(organisationId: string, orderIds: string[]): Promise<OrderWithGraph[]> {
  if (orderIds.length === 0) return [];
  const db = await database();
  const rows = await db.$queryRaw<OrderRow[]>`
    SELECT o."id", o."name", o."externalId", o."status", o."onHold", o."customerEmail", o."createdAt", o."updatedAt",
           (SELECT json_build_object('id', so."id", 'externalId', so."externalId",
                                     'shop', json_build_object('id', sh."id", 'identifier', sh."identifier"))
              FROM "ShopOrder" so JOIN "Shop" sh ON sh."id" = so."shopId"
             WHERE so."orderId" = o."id") AS "shopOrder",
           (SELECT coalesce(json_agg(json_build_object(
                      'id', i."id", 'skuId', i."skuId", 'quantity', i."quantity", 'prescriptionId', i."prescriptionId",
                      'sku', json_build_object('displayName', s."displayName", 'pzn', s."pzn"))
                    ORDER BY i."createdAt", i."id"), '[]'::json)
              FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId"
             WHERE i."orderId" = o."id") AS "items",
           (SELECT coalesce(json_agg(json_build_object(
                      'id', f."id", 'status', f."status", 'externalId', f."externalId",
                      'items', (SELECT coalesce(json_agg(json_build_object('id', fi."id", 'status', fi."status", 'quantity', fi."quantity")
                                                ORDER BY fi."createdAt", fi."id"), '[]'::json)
                                  FROM "OrderItem" fi WHERE fi."fulfillmentId" = f."id"),
                      'pharmacyOrder', (SELECT json_build_object('status', po."status", 'updatedAt', po."updatedAt")
                                          FROM "PharmacyOrder" po WHERE po."activeFulfillmentId" = f."id"))
                    ORDER BY f."createdAt", f."id"), '[]'::json)
              FROM "Fulfillment" f
             WHERE f."orderId" = o."id") AS "fulfillments",
           (SELECT coalesce(json_agg(json_build_object(
                      'id', p."id", 'status', p."status",
                      'doctor', CASE WHEN d."id" IS NULL THEN NULL ELSE json_build_object('id', d."id", 'displayName', d."displayName") END)
                    ORDER BY p."createdAt", p."id"), '[]'::json)
              FROM "Prescription" p LEFT JOIN "Doctor" d ON d."id" = p."doctorId"
             WHERE p."orderId" = o."id" AND p."deletedAt" IS NULL) AS "prescriptions"
      FROM "Order" o
     WHERE o."id" = ANY (${orderIds}::text[]) AND o."organisationId" = ${organisationId}`;
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        ...row,
        fulfillments: row.fulfillments.map((f) => ({
          ...f,
          pharmacyOrder: f.pharmacyOrder && { status: f.pharmacyOrder.status, updatedAt: new Date(f.pharmacyOrder.updatedAt) },
        })),
      },
    ]),
  );
  return orderIds.flatMap((id) => byId.get(id) ?? []);
}

/** One order of the organisation as the Management API shows it; another organisation's is not found. */
export async function getOrder(organisationId: string, orderId: string): Promise<OrderWithGraph> {
  const [order] = await selectOrders(organisationId, [orderId]);
  if (!order) throw new NotFoundError();
  return order;
}

/** An order with what the Management API and the admin tool's order list show of it. */
export type OrderWithGraph = {
  id: string;
  name: string;
  externalId: string;
  status: string;
  onHold: boolean;
  customerEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
  shopOrder: { id: string; externalId: string; shop: { id: string; identifier: string } } | null;
  items: { id: string; skuId: string; quantity: number; prescriptionId: string | null; sku: { displayName: string; pzn: string | null } }[];
  fulfillments: {
    id: string;
    status: string;
    externalId: string;
    items: { id: string; status: string; quantity: number }[];
    /** The active pharmacy order. */
    pharmacyOrder: { status: string; updatedAt: Date } | null;
  }[];
  prescriptions: { id: string; status: string; doctor: { id: string; displayName: string } | null }[];
};

/** selectOrders' row as the database answers it: dates inside the JSON parts are text. */
type OrderRow = Omit<OrderWithGraph, "fulfillments"> & {
  fulfillments: (Omit<OrderWithGraph["fulfillments"][number], "pharmacyOrder"> & { pharmacyOrder: { status: string; updatedAt: string } | null })[];
};
