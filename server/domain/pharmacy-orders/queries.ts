import { Prisma, type Db, type Tx } from "@/server/db/client";
import type { Address } from "@/server/domain/orders/intake";
import { NotFoundError } from "@/server/domain/errors";
import type { Page } from "@/server/domain/paging";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { readVerified } from "@/server/domain/prescriptions/storage";
import { escapeLike } from "@/server/domain/search";
import { pharmacyOrderTallySql } from "./tally";

/**
 * A pharmacy order as pharmacies see it: the read model behind the detail, the command responses
 * and webhooks. The list builds the same entries in SQL (server/api/external-pharmacy/pharmacy-order-list.ts).
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
  pharmacyId: string;
  status?: string;
  search?: string;
  createdFrom?: Date;
  createdTo?: Date;
};

/** The statement's flat row: the view's scalar fields plus the joined columns. */
type Row = Omit<PharmacyOrderView, "pharmacy" | "order"> & {
  pharmacyId: string;
  pharmacyName: string;
  orderId: string;
  deliveryAddress: Address;
  invoiceAddress: Address;
  priority: number;
};

function whereClause(filter: PharmacyOrderFilter): Prisma.Sql {
  const conditions = [Prisma.sql`"pharmacyId" = ${filter.pharmacyId}`];
  if (filter.status) conditions.push(Prisma.sql`"status" = ${filter.status}`);
  // searchText is lower-cased; the trigram index serves LIKE '%…%'.
  if (filter.search) conditions.push(Prisma.sql`"searchText" LIKE ${`%${escapeLike(filter.search.toLowerCase())}%`}`);
  if (filter.createdFrom) conditions.push(Prisma.sql`"createdAt" >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(Prisma.sql`"createdAt" <= ${filter.createdTo}`);
  return Prisma.join(conditions, " AND ");
}

/**
 * One statement for the orders `pageQuery` selects (ids): each row is joined and its items and
 * shipping methods are aggregated as JSON.
 */
async function selectViews(db: Db | Tx, pageQuery: Prisma.Sql): Promise<PharmacyOrderView[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT po."id", po."name", po."status", po."externalStatus", po."deliveryType", po."createdAt", po."updatedAt", po."prepaid",
           po."shippingCostsAmount", po."shippingCostsCurrency", po."pharmacyId",
           ph."displayName" AS "pharmacyName",
           o."id" AS "orderId", o."deliveryAddress", o."invoiceAddress", o."priority",
           so."name" AS "shopOrderName",
           (SELECT coalesce(json_agg(json_build_object(
                      'uid', oi."id", 'amount', poi."amount", 'totalPaidAmount', poi."totalPaidAmount",
                      'sku', json_build_object('uid', s."id", 'displayName', s."displayName", 'pzn', s."pzn"))
                    ORDER BY oi."createdAt", oi."id"), '[]'::json)
              FROM "PharmacyOrderItem" poi
              JOIN "OrderItem" oi ON oi."id" = poi."orderItemId"
              JOIN "Sku" s ON s."id" = oi."skuId"
             WHERE poi."pharmacyOrderId" = po."id") AS "items",
           (SELECT coalesce(json_agg(json_build_object(
                      'uid', m."id", 'displayName', m."displayName", 'externalId', m."externalId",
                      'identifierForPharmacy', map."identifierForPharmacy")
                    ORDER BY m."externalId"), '[]'::json)
              FROM "ShopOrderShippingMethod" sosm
              JOIN "ShopShippingMethod" m ON m."id" = sosm."shopShippingMethodId"
              LEFT JOIN "PharmacyShippingMethodMapping" map
                     ON map."shopShippingMethodId" = m."id" AND map."pharmacyId" = po."pharmacyId"
             WHERE sosm."shopOrderId" = so."id") AS "shippingMethods"
      FROM (${pageQuery}) page
      JOIN "PharmacyOrder" po ON po."id" = page."id"
      JOIN "Pharmacy" ph ON ph."id" = po."pharmacyId"
      JOIN "Order" o ON o."id" = po."orderId"
      LEFT JOIN "ShopOrder" so ON so."orderId" = o."id"
     ORDER BY po."createdAt" DESC, po."id" DESC`;
  return rows.map(({ pharmacyId, pharmacyName, orderId, deliveryAddress, invoiceAddress, priority, ...r }) => ({
    ...r,
    pharmacy: { id: pharmacyId, displayName: pharmacyName },
    order: { id: orderId, deliveryAddress, invoiceAddress, priority },
  }));
}

/**
 * A page's ids in list order (newest first, uid as tie-break). Only ids: skipping OFFSET rows then
 * reads the index alone (an index-only scan, 2 ms even 10,000 rows deep), not the table.
 */
export function pharmacyOrderPageIdsSql(filter: PharmacyOrderFilter, page: Page): Prisma.Sql {
  return Prisma.sql`SELECT "id" FROM "PharmacyOrder" WHERE ${whereClause(filter)}
                    ORDER BY "createdAt" DESC, "id" DESC LIMIT ${page.limit} OFFSET ${page.page * page.limit}`;
}

/**
 * The exact total under the filter (one int4 column): from the tally when only pharmacy and status
 * filter, else counted.
 */
export function pharmacyOrderCountSql(filter: PharmacyOrderFilter): Prisma.Sql {
  if (!filter.search && !filter.createdFrom && !filter.createdTo) return pharmacyOrderTallySql(filter.pharmacyId, filter.status);
  return Prisma.sql`SELECT count(*)::int AS "total" FROM "PharmacyOrder" WHERE ${whereClause(filter)}`;
}

export async function getPharmacyOrderView(db: Db | Tx, pharmacyId: string, pharmacyOrderId: string): Promise<PharmacyOrderView> {
  const [view] = await selectViews(
    db,
    Prisma.sql`SELECT "id" FROM "PharmacyOrder" WHERE "id" = ${pharmacyOrderId} AND "pharmacyId" = ${pharmacyId}`,
  );
  if (!view) throw new NotFoundError();
  return view;
}

/** The detail adds patient, doctor, prescription, shipments and the pharmacy's payouts. */
export async function getPharmacyOrderDetail(db: Db | Tx, pharmacyId: string, pharmacyOrderId: string) {
  const view = await getPharmacyOrderView(db, pharmacyId, pharmacyOrderId);
  const extra = await db.pharmacyOrder.findUniqueOrThrow({
    where: { id: pharmacyOrderId },
    select: {
      order: { select: { patient: { select: { id: true, displayName: true, email: true, dateOfBirth: true } } } },
      prescription: {
        select: { id: true, status: true, signedFileKey: true, signedFileSha256: true, doctor: { select: { id: true, displayName: true } } },
      },
      shipments: { orderBy: { sequenceNumber: "asc" } },
      payouts: {
        where: { receiverPharmacyId: pharmacyId },
        orderBy: [{ createdAt: "asc" }, { componentType: "asc" }, { id: "asc" }],
        include: { pharmacyOrder: { select: { id: true, name: true, createdAt: true } } },
      },
    },
  });
  const prescription = extra.prescription;
  // The signed PDF goes inline (spec: pharmacy order detail and webhook payloads), checked against its checksum.
  const prescriptionFile =
    prescription?.signedFileKey && prescription.signedFileSha256 && isSignedStatus(prescription.status)
      ? { filename: `prescription-${prescription.id}.pdf`, content: await readVerified(prescription.signedFileKey, prescription.signedFileSha256) }
      : null;
  return {
    ...view,
    patient: extra.order.patient,
    doctor: prescription?.doctor ?? null,
    prescriptionFile,
    shipments: extra.shipments,
    payouts: extra.payouts,
  };
}

export type PharmacyOrderDetail = Awaited<ReturnType<typeof getPharmacyOrderDetail>>;
