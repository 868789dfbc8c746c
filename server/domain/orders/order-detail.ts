import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { listPharmacyOrderHistory, type PharmacyOrderHistoryEntry } from "@/server/domain/pharmacy-orders/queries";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { handRoutingRefusal } from "./route-by-hand";
import { prescriptionStorage, readVerified } from "@/server/storage/prescription-files";

/**
 * One order of the organisation as the admin tool shows it: the customer and patient, addresses,
 * items, fulfillments with their active pharmacy orders (status history, shipments, payouts), the
 * ones their pharmacies gave back, and whether an admin may route each by hand, and the
 * prescriptions. Another organisation's order is not found.
 */
export async function getOrderDetailForAdmin(organisationId: string, orderId: string) {
  const db = await database();
  const order = await db.order.findFirst({
    where: { id: orderId, organisationId },
    include: {
      patient: { select: { id: true, displayName: true, email: true, dateOfBirth: true } },
      shopOrder: { select: { name: true, externalId: true, shop: { select: { displayName: true, identifier: true } } } },
      items: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          externalId: true,
          fulfillmentId: true,
          quantity: true,
          totalPaidAmount: true,
          totalPaidCurrency: true,
          status: true,
          prescriptionId: true,
          sku: { select: { displayName: true, pzn: true, skipForPharmacyOrders: true } },
          prescription: { select: { status: true, deletedAt: true } },
        },
      },
      fulfillments: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          externalId: true,
          status: true,
          createdAt: true,
          cancelledAt: true,
          pharmacyOrder: {
            select: {
              id: true,
              name: true,
              status: true,
              routing: true,
              createdAt: true,
              updatedAt: true,
              pharmacy: { select: { id: true, displayName: true } },
              shipments: {
                orderBy: { sequenceNumber: "asc" },
                select: { id: true, sequenceNumber: true, trackingUrl: true, trackingNumber: true, carrierName: true, createdAt: true },
              },
              payouts: {
                orderBy: [{ createdAt: "asc" }, { id: "asc" }],
                select: { id: true, status: true, amount: true, currency: true, componentType: true, routingCreatedAt: true, reviewReason: true },
              },
              issueThreads: { where: { status: "OPEN" }, select: { id: true } },
            },
          },
          // Those a pharmacy gave back (docs/spec-gaps.md#issue-24-re-routing), oldest first.
          pharmacyOrders: {
            where: { activeFulfillmentId: null },
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            select: { id: true, name: true, status: true, routing: true, createdAt: true, pharmacy: { select: { id: true, displayName: true } } },
          },
        },
      },
      prescriptions: {
        where: { deletedAt: null },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          status: true,
          source: true,
          signedAt: true,
          createdAt: true,
          renderedFileKey: true,
          signedFileKey: true,
          doctor: { select: { displayName: true } },
        },
      },
    },
  });
  if (!order) throw new NotFoundError();
  const histories = new Map<string, PharmacyOrderHistoryEntry[]>();
  for (const f of order.fulfillments) {
    for (const po of [...f.pharmacyOrders, ...(f.pharmacyOrder ? [f.pharmacyOrder] : [])]) histories.set(po.id, await listPharmacyOrderHistory(po.id));
  }
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
  return { ...order, histories, routable };
}

export type AdminOrderDetail = Awaited<ReturnType<typeof getOrderDetailForAdmin>>;

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
