import { database, databaseDriver, Prisma } from "@/server/db/client";
import type { PharmacyOrderRouting } from "@/server/db/generated/enums";
import { NotFoundError } from "@/server/domain/errors";
import { HISTORY_ENTRY_SOURCE, toHistoryEntry, type HistoryEntryRow, type PharmacyOrderHistoryEntry } from "@/server/domain/pharmacy-orders/queries";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { handRoutingRefusal } from "./route-by-hand";
import { prescriptionStorage, readVerified } from "@/server/storage/prescription-files";

type PharmacyRef = { id: string; displayName: string };
/** A pharmacy order on the order page: the fulfillment's active one (with shipments, payouts, open threads) or one its pharmacy gave back. */
type GivenBackPharmacyOrder = { id: string; name: string; status: string; routing: PharmacyOrderRouting; createdAt: Date; pharmacy: PharmacyRef };
type ActivePharmacyOrder = GivenBackPharmacyOrder & {
  updatedAt: Date;
  shipments: { id: string; sequenceNumber: number; trackingUrl: string | null; trackingNumber: string | null; carrierName: string | null; createdAt: Date }[];
  payouts: { id: string; status: string; amount: number; currency: string; componentType: string; routingCreatedAt: Date | null; reviewReason: string | null }[];
  issueThreads: { id: string }[];
};

/** One order of the organisation as the admin tool's order page shows it (getOrderDetailForAdmin). */
export type AdminOrderDetail = {
  id: string;
  name: string;
  externalId: string;
  status: string;
  onHold: boolean;
  holdComment: string | null;
  priority: number;
  customerEmail: string | null;
  deliveryAddress: unknown;
  invoiceAddress: unknown;
  shippingCostAmount: number | null;
  shippingCostCurrency: string | null;
  createdAt: Date;
  updatedAt: Date;
  patient: { id: string; displayName: string; email: string | null; dateOfBirth: Date | null };
  shopOrder: { name: string; externalId: string; shop: { displayName: string; identifier: string } } | null;
  items: {
    id: string;
    externalId: string;
    fulfillmentId: string;
    quantity: number;
    totalPaidAmount: number;
    totalPaidCurrency: string;
    status: string;
    prescriptionId: string | null;
    sku: { displayName: string; pzn: string | null; skipForPharmacyOrders: boolean };
    prescription: { status: string; deletedAt: Date | null } | null;
  }[];
  fulfillments: {
    id: string;
    externalId: string;
    status: string;
    createdAt: Date;
    cancelledAt: Date | null;
    pharmacyOrder: ActivePharmacyOrder | null;
    /** Those a pharmacy gave back (docs/decisions/intake.md#re-routing), oldest first. */
    pharmacyOrders: GivenBackPharmacyOrder[];
  }[];
  prescriptions: {
    id: string;
    status: string;
    source: string;
    signedAt: Date | null;
    createdAt: Date;
    renderedFileKey: string | null;
    signedFileKey: string | null;
    doctor: { displayName: string } | null;
  }[];
  /** Each pharmacy order's history entries, oldest first, by pharmacy order id. */
  histories: Map<string, PharmacyOrderHistoryEntry[]>;
  /** The fulfillments an admin may route by hand now (handRoutingRefusal). */
  routable: Set<string>;
};

/** The JSON of a pharmacy order's pharmacy (`ph`). */
const PHARMACY_JSON = Prisma.sql`json_build_object('id', ph."id", 'displayName', ph."displayName")`;

/**
 * One order of the organisation as the admin tool shows it: the customer and patient, addresses,
 * items, fulfillments with their active pharmacy orders (status history, shipments, payouts), the
 * ones their pharmacies gave back, and whether an admin may route each by hand, and the
 * prescriptions. Another organisation's order is not found.
 *
 * One prepared statement on the driver that builds the whole order as JSON: as a Prisma include
 * with a history query per pharmacy order it was about twenty statements, 8 ms of the server's
 * thread per page view (the admin bench's order detail, issue 26).
 */
export async function getOrderDetailForAdmin(organisationId: string, orderId: string): Promise<AdminOrderDetail> {
  const statement = Prisma.sql`
    SELECT json_build_object(
      'id', o."id", 'name', o."name", 'externalId', o."externalId", 'status', o."status", 'onHold', o."onHold",
      'holdComment', o."holdComment", 'priority', o."priority", 'customerEmail', o."customerEmail",
      'deliveryAddress', o."deliveryAddress", 'invoiceAddress', o."invoiceAddress",
      'shippingCostAmount', o."shippingCostAmount", 'shippingCostCurrency', o."shippingCostCurrency",
      'createdAt', o."createdAt", 'updatedAt', o."updatedAt",
      'patient', (SELECT json_build_object('id', pp."id", 'displayName', pp."displayName", 'email', pp."email", 'dateOfBirth', pp."dateOfBirth")
                    FROM "PatientProfile" pp WHERE pp."id" = o."patientId"),
      'shopOrder', (SELECT json_build_object('name', so."name", 'externalId', so."externalId",
                                             'shop', json_build_object('displayName', sh."displayName", 'identifier', sh."identifier"))
                      FROM "ShopOrder" so JOIN "Shop" sh ON sh."id" = so."shopId" WHERE so."orderId" = o."id"),
      'items', (SELECT coalesce(json_agg(json_build_object(
                   'id', i."id", 'externalId', i."externalId", 'fulfillmentId', i."fulfillmentId", 'quantity', i."quantity",
                   'totalPaidAmount', i."totalPaidAmount", 'totalPaidCurrency', i."totalPaidCurrency", 'status', i."status",
                   'prescriptionId', i."prescriptionId",
                   'sku', json_build_object('displayName', s."displayName", 'pzn', s."pzn", 'skipForPharmacyOrders', s."skipForPharmacyOrders"),
                   'prescription', CASE WHEN r."id" IS NULL THEN NULL ELSE json_build_object('status', r."status", 'deletedAt', r."deletedAt") END)
                 ORDER BY i."createdAt", i."id"), '[]'::json)
                  FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId" LEFT JOIN "Prescription" r ON r."id" = i."prescriptionId"
                 WHERE i."orderId" = o."id"),
      'fulfillments', (SELECT coalesce(json_agg(json_build_object(
                   'id', f."id", 'externalId', f."externalId", 'status', f."status", 'createdAt', f."createdAt", 'cancelledAt', f."cancelledAt",
                   'pharmacyOrder', (SELECT json_build_object(
                        'id', po."id", 'name', po."name", 'status', po."status", 'routing', po."routing",
                        'createdAt', po."createdAt", 'updatedAt', po."updatedAt", 'pharmacy', ${PHARMACY_JSON},
                        'shipments', (SELECT coalesce(json_agg(json_build_object(
                                          'id', sp."id", 'sequenceNumber', sp."sequenceNumber", 'trackingUrl', sp."trackingUrl",
                                          'trackingNumber', sp."trackingNumber", 'carrierName', sp."carrierName", 'createdAt', sp."createdAt")
                                        ORDER BY sp."sequenceNumber"), '[]'::json)
                                        FROM "Shipment" sp WHERE sp."pharmacyOrderId" = po."id"),
                        'payouts', (SELECT coalesce(json_agg(json_build_object(
                                        'id', pa."id", 'status', pa."status", 'amount', pa."amount", 'currency', pa."currency",
                                        'componentType', pa."componentType", 'routingCreatedAt', pa."routingCreatedAt", 'reviewReason', pa."reviewReason")
                                      ORDER BY pa."createdAt", pa."id"), '[]'::json)
                                      FROM "Payout" pa WHERE pa."pharmacyOrderId" = po."id"),
                        'issueThreads', (SELECT coalesce(json_agg(json_build_object('id', t."id")), '[]'::json)
                                           FROM "AdminIssueThread" t WHERE t."pharmacyOrderId" = po."id" AND t."status" = 'OPEN'))
                      FROM "PharmacyOrder" po JOIN "Pharmacy" ph ON ph."id" = po."pharmacyId" WHERE po."activeFulfillmentId" = f."id"),
                   'pharmacyOrders', (SELECT coalesce(json_agg(json_build_object(
                        'id', po."id", 'name', po."name", 'status', po."status", 'routing', po."routing", 'createdAt', po."createdAt",
                        'pharmacy', ${PHARMACY_JSON})
                      ORDER BY po."createdAt", po."id"), '[]'::json)
                      FROM "PharmacyOrder" po JOIN "Pharmacy" ph ON ph."id" = po."pharmacyId"
                     WHERE po."fulfillmentId" = f."id" AND po."activeFulfillmentId" IS NULL))
                 ORDER BY f."createdAt", f."id"), '[]'::json)
                  FROM "Fulfillment" f WHERE f."orderId" = o."id"),
      'prescriptions', (SELECT coalesce(json_agg(json_build_object(
                   'id', p."id", 'status', p."status", 'source', p."source", 'signedAt', p."signedAt", 'createdAt', p."createdAt",
                   'renderedFileKey', p."renderedFileKey", 'signedFileKey', p."signedFileKey",
                   'doctor', CASE WHEN d."id" IS NULL THEN NULL ELSE json_build_object('displayName', d."displayName") END)
                 ORDER BY p."createdAt", p."id"), '[]'::json)
                  FROM "Prescription" p LEFT JOIN "Doctor" d ON d."id" = p."doctorId"
                 WHERE p."orderId" = o."id" AND p."deletedAt" IS NULL),
      'histories', (SELECT coalesce(json_agg(e ORDER BY e."createdAt", e."id"), '[]'::json) FROM (
                   SELECT ${HISTORY_ENTRY_SOURCE}
                    WHERE h."pharmacyOrderId" IN (SELECT po."id" FROM "PharmacyOrder" po JOIN "Fulfillment" f ON f."id" = po."fulfillmentId"
                                                   WHERE f."orderId" = o."id")) e)
    ) AS "order"
      FROM "Order" o WHERE o."id" = ${orderId} AND o."organisationId" = ${organisationId}`;
  const [row] = await (await databaseDriver()).query<{ order: OrderJson }>(statement.text, statement.values);
  if (!row) throw new NotFoundError();
  const order = fromJson(row.order);
  // Which fulfillments an admin may route by hand now (the command's own rule).
  const routable = new Set(
    order.fulfillments
      .filter((f) => {
        const items = order.items
          .filter((i) => i.fulfillmentId === f.id && i.status !== "CANCELLED")
          .map((i) => ({ skipForPharmacyOrders: i.sku.skipForPharmacyOrders, prescription: i.prescription }));
        return handRoutingRefusal({ order, fulfillment: f, items }) === null;
      })
      .map((f) => f.id),
  );
  return { ...order, routable };
}

/** The statement's JSON: AdminOrderDetail with its times as text and the histories as one list. */
type OrderJson = Omit<AdminOrderDetail, "histories" | "routable"> & { histories: HistoryEntryRow[] };

/** Times from their JSON text; the histories by pharmacy order, each oldest first. */
function fromJson(json: OrderJson): Omit<AdminOrderDetail, "routable"> {
  const at = (value: Date | string) => new Date(value);
  const atOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));
  const histories = new Map<string, PharmacyOrderHistoryEntry[]>();
  for (const row of json.histories) histories.set(row.pharmacyOrderId, [...(histories.get(row.pharmacyOrderId) ?? []), toHistoryEntry(row)]);
  return {
    ...json,
    createdAt: at(json.createdAt),
    updatedAt: at(json.updatedAt),
    patient: { ...json.patient, dateOfBirth: atOrNull(json.patient.dateOfBirth) },
    items: json.items.map((i) => ({ ...i, prescription: i.prescription && { ...i.prescription, deletedAt: atOrNull(i.prescription.deletedAt) } })),
    fulfillments: json.fulfillments.map((f) => ({
      ...f,
      createdAt: at(f.createdAt),
      cancelledAt: atOrNull(f.cancelledAt),
      pharmacyOrder: f.pharmacyOrder && {
        ...f.pharmacyOrder,
        createdAt: at(f.pharmacyOrder.createdAt),
        updatedAt: at(f.pharmacyOrder.updatedAt),
        shipments: f.pharmacyOrder.shipments.map((sp) => ({ ...sp, createdAt: at(sp.createdAt) })),
        payouts: f.pharmacyOrder.payouts.map((pa) => ({ ...pa, routingCreatedAt: atOrNull(pa.routingCreatedAt) })),
      },
      pharmacyOrders: f.pharmacyOrders.map((po) => ({ ...po, createdAt: at(po.createdAt) })),
    })),
    prescriptions: json.prescriptions.map((p) => ({ ...p, signedAt: atOrNull(p.signedAt), createdAt: at(p.createdAt) })),
    histories,
  };
}

/**
 * The PDF of a prescription of the order: the signed copy once signed (checked against its
 * checksum), else the latest rendering, else null. Another organisation's order, or a prescription
 * of another order, is not found.
 */
export async function getOrderPrescriptionFile(organisationId: string, orderId: string, prescriptionId: string) {
  const db = await database();
  const p = await db.prescription.findFirst({
    where: { id: prescriptionId, orderId, organisationId, deletedAt: null, order: { organisationId } },
    select: { id: true, status: true, renderedFileKey: true, signedFileKey: true, signedFileSha256: true },
  });
  if (!p) throw new NotFoundError();
  if (p.signedFileKey && p.signedFileSha256 && isSignedStatus(p.status)) {
    return { filename: `prescription-${p.id}.pdf`, signed: true, content: await readVerified(p.signedFileKey, p.signedFileSha256) };
  }
  if (p.renderedFileKey && (await prescriptionStorage().exists(p.renderedFileKey))) {
    return { filename: `prescription-${p.id}-draft.pdf`, signed: false, content: await prescriptionStorage().get(p.renderedFileKey) };
  }
  return null;
}
