import { database, Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive, escapeLike } from "@/server/domain/search";
import { ORDER_STATUS } from "./statuses";

const orderGraph = {
  shopOrder: { include: { shop: { select: { id: true, identifier: true } } } },
  items: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { sku: { select: { displayName: true, pzn: true } } } },
  fulfillments: {
    orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
    include: { items: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] }, pharmacyOrder: { select: { status: true, updatedAt: true } } },
  },
  prescriptions: {
    where: { deletedAt: null },
    orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
    include: { doctor: { select: { id: true, displayName: true } } },
  },
} satisfies Prisma.OrderInclude;

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
  /** Orders that should be at a pharmacy and are not (ordersWithoutPharmacyWhere). */
  withoutPharmacy?: boolean;
};

/**
 * Orders that should be at a pharmacy and are not: neither on hold nor waiting for a doctor nor
 * over, with an open fulfillment that has items for a pharmacy and no pharmacy order (no pharmacy
 * could serve it when it was routed). The admin tool's "orders without a pharmacy".
 */
function withoutPharmacyWhere(): Prisma.OrderWhereInput {
  return {
    onHold: false,
    status: { notIn: [ORDER_STATUS.paused, ORDER_STATUS.waitingForDoctor, ORDER_STATUS.cancelled, ORDER_STATUS.completed, ORDER_STATUS.prescriptionDeclined] },
    fulfillments: {
      some: {
        status: { not: "CANCELLED" },
        pharmacyOrder: null,
        items: { some: { status: { not: "CANCELLED" }, sku: { skipForPharmacyOrders: false } } },
      },
    },
  };
}

/** At most this many orders found by the indexed lookup stand in for the search's matches (searchMatches). */
const SEARCH_MATCH_CAP = 5_000;

/**
 * Ids of the organisation's orders that `search` finds (orderWhere), in one statement of index
 * lookups: substrings through trigram indexes on each column (migration admin_search_indexes), uids
 * and the external id through their keys. Written as an OR over joined tables and subqueries, the
 * same match reads every order of the organisation (a quarter to half a second at 100,000 orders).
 * Null when more than SEARCH_MATCH_CAP orders match: the caller then matches with the joins,
 * exactly and slowly, which such a broad term needs anyway.
 */
async function searchMatches(organisationId: string, term: string, searchCustomer: boolean): Promise<string[] | null> {
  const db = await database();
  const like = `%${escapeLike(term)}%`;
  const uid = term.replace(/^#/, "");
  const customer = searchCustomer
    ? Prisma.sql`UNION SELECT o."id" FROM "Order" o WHERE o."organisationId" = ${organisationId} AND o."customerEmail" ILIKE ${like}
                 UNION SELECT o."id" FROM "Order" o WHERE o."organisationId" = ${organisationId} AND o."externalId" = ${term}`
    : Prisma.empty;
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT s."orderId" AS id FROM "ShopOrder" s JOIN "Order" o ON o."id" = s."orderId"
     WHERE o."organisationId" = ${organisationId} AND s."name" ILIKE ${like}
    UNION SELECT p."orderId" FROM "PharmacyOrder" p WHERE p."organisationId" = ${organisationId} AND p."name" ILIKE ${like}
    UNION SELECT o."id" FROM "Order" o JOIN "PatientProfile" pp ON pp."id" = o."patientId"
     WHERE o."organisationId" = ${organisationId} AND pp."displayName" ILIKE ${like}
    UNION SELECT o."id" FROM "Order" o WHERE o."organisationId" = ${organisationId} AND o."id" = ${uid}
    UNION SELECT r."orderId" FROM "Prescription" r WHERE r."organisationId" = ${organisationId} AND r."id" = ${uid} AND r."orderId" IS NOT NULL
    UNION SELECT p."orderId" FROM "PharmacyOrder" p WHERE p."organisationId" = ${organisationId} AND p."id" = ${uid}
    ${customer}
    LIMIT ${SEARCH_MATCH_CAP + 1}`;
  return rows.length > SEARCH_MATCH_CAP ? null : rows.map((r) => r.id);
}

/**
 * `search`: substring of the shop order name, a pharmacy order name or the patient's name, or the
 * exact uid of the order, one of its prescriptions or one of its pharmacy orders ("#" stripped);
 * with `searchCustomer`, also the order's external id and the customer's e-mail.
 */
async function orderWhere(organisationId: string, filter: OrderFilter): Promise<Prisma.OrderWhereInput> {
  const and: Prisma.OrderWhereInput[] = [{ organisationId }];
  if (filter.createdFrom || filter.createdTo) and.push({ createdAt: { gte: filter.createdFrom, lte: filter.createdTo } });
  if (filter.updatedFrom || filter.updatedTo) and.push({ updatedAt: { gte: filter.updatedFrom, lte: filter.updatedTo } });
  if (filter.shopIdentifier) and.push({ shopOrder: { shop: { identifier: filter.shopIdentifier, organisationId } } });
  if (filter.shopOrderExternalId) and.push({ shopOrder: { externalId: filter.shopOrderExternalId } });
  if (filter.patientId) and.push({ patientId: filter.patientId });
  if (filter.status) and.push({ status: filter.status });
  if (filter.onHold !== undefined) and.push({ onHold: filter.onHold });
  if (filter.withoutPharmacy) and.push(withoutPharmacyWhere());
  const term = filter.search?.trim();
  if (term) {
    const matched = await searchMatches(organisationId, term, Boolean(filter.searchCustomer));
    if (matched) {
      and.push({ id: { in: matched } });
    } else {
      const uid = term.replace(/^#/, "");
      and.push({
        OR: [
          { shopOrder: { name: containsInsensitive(term) } },
          { pharmacyOrders: { some: { name: containsInsensitive(term) } } },
          { patient: { displayName: containsInsensitive(term) } },
          { id: uid },
          { prescriptions: { some: { id: uid } } },
          { pharmacyOrders: { some: { id: uid } } },
          ...(filter.searchCustomer ? [{ externalId: term }, { customerEmail: containsInsensitive(term) }] : []),
        ],
      });
    }
  }
  return { AND: and };
}

export async function listOrders(organisationId: string, filter: OrderFilter, page: Page) {
  const db = await database();
  const where = await orderWhere(organisationId, filter);
  const [items, total] = await Promise.all([
    db.order.findMany({ where, include: orderGraph, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(page) }),
    db.order.count({ where }),
  ]);
  return { items, total };
}

/** How many orders match (the admin tool's home counts: the same filter as the list they link to). */
export async function countOrders(organisationId: string, filter: OrderFilter): Promise<number> {
  const db = await database();
  return db.order.count({ where: await orderWhere(organisationId, filter) });
}

/**
 * The order as the Management API shows it (every order command answers with it): one statement,
 * its parts aggregated as JSON in orderGraph's order, instead of the nine statements the Prisma
 * include sends (the intake row of the orders benchmark answers with it).
 */
export async function getOrder(organisationId: string, orderId: string): Promise<OrderWithGraph> {
  const db = await database();
  const [order] = await db.$queryRaw<OrderWithGraph[]>`
    SELECT o."id", o."status", o."onHold", o."createdAt", o."updatedAt",
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
                      'pharmacyOrder', (SELECT json_build_object('status', po."status") FROM "PharmacyOrder" po WHERE po."activeFulfillmentId" = f."id"))
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
     WHERE o."id" = ${orderId} AND o."organisationId" = ${organisationId}`;
  if (!order) throw new NotFoundError();
  return order;
}

/** An order with what the Management API shows of it (listOrders' rows carry more). */
export type OrderWithGraph = {
  id: string;
  status: string;
  onHold: boolean;
  createdAt: Date;
  updatedAt: Date;
  shopOrder: { id: string; externalId: string; shop: { id: string; identifier: string } } | null;
  items: { id: string; skuId: string; quantity: number; prescriptionId: string | null; sku: { displayName: string; pzn: string | null } }[];
  fulfillments: {
    id: string;
    status: string;
    externalId: string;
    items: { id: string; status: string; quantity: number }[];
    pharmacyOrder: { status: string } | null;
  }[];
  prescriptions: { id: string; status: string; doctor: { id: string; displayName: string } | null }[];
};
