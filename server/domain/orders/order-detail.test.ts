import { beforeAll, expect, it } from "vitest";
import { NotFoundError } from "@/server/domain/errors";
import { listPharmacyOrderHistory } from "@/server/domain/pharmacy-orders/queries";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { getOrderDetailForAdmin } from "./order-detail";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
});

/**
 * The order page's statement reads what the models say: its result equals the Prisma include it
 * replaced (kept here as the oracle) and a history read per pharmacy order, for an order with every
 * part the page shows: a patient with a date of birth, two fulfillments, an active pharmacy order
 * with shipments, payouts and an open thread, one given back, a prescription with its doctor and a
 * deleted one, and an item referring to a prescription.
 */
it("reads the whole order as the models do", async () => {
  const created = await placeOrder(
    t,
    orderBody(t, [], {
      fulfillments: [
        { external_id: "f-1", items: [item(refs.otcReference, { quantity: 2 }), item(refs.otcReference)] },
        { external_id: "f-2", items: [item(refs.otcReference)] },
      ],
    }),
  );
  expect(created.status, created.text).toBe(201);
  const orderId = created.json.uid as string;
  const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { fulfillments: { orderBy: { externalId: "asc" } } } });
  await t.db.patientProfile.update({ where: { id: order.patientId }, data: { dateOfBirth: new Date("1984-02-29") } });
  const [active, givenBack] = await Promise.all(
    order.fulfillments.map((f) => t.db.pharmacyOrder.findFirstOrThrow({ where: { activeFulfillmentId: f.id } })),
  );
  await t.db.shipment.createMany({
    data: [
      { pharmacyOrderId: active.id, sequenceNumber: 2, trackingUrl: "https://track.example/2", carrierName: "DHL" },
      { pharmacyOrderId: active.id, sequenceNumber: 1, trackingUrl: "https://track.example/1", trackingNumber: "T1" },
    ],
  });
  await t.db.payout.createMany({
    data: [
      { pharmacyOrderId: active.id, receiverPharmacyId: active.pharmacyId, status: "PROJECTED", amount: 900, currency: "EUR", componentType: "item_rest" },
      {
        pharmacyOrderId: active.id,
        receiverPharmacyId: active.pharmacyId,
        status: "ROUTED",
        amount: 99,
        currency: "EUR",
        componentType: "item_markup",
        routingCreatedAt: new Date("2026-11-20T10:00:00.123Z"),
        reviewReason: "checked",
      },
    ],
  });
  await t.db.adminIssueThread.create({ data: { pharmacyOrderId: active.id, description: "Which strength?", openedByType: "SYSTEM" } });
  await t.db.adminIssueThread.create({ data: { pharmacyOrderId: active.id, description: "Done", openedByType: "SYSTEM", status: "RESOLVED" } });
  await t.db.pharmacyOrder.update({ where: { id: givenBack.id }, data: { status: "cancelled", activeFulfillmentId: null } });
  const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Erika Muster" } });
  const prescription = await t.db.prescription.create({
    data: { organisationId: t.organisation.id, patientId: order.patientId, orderId, doctorId: doctor.id, status: "signed", source: "DOCTOR", signedAt: new Date() },
  });
  await t.db.prescription.create({
    data: { organisationId: t.organisation.id, patientId: order.patientId, orderId, status: "signed", source: "DOCTOR", deletedAt: new Date() },
  });
  const firstItem = await t.db.orderItem.findFirstOrThrow({ where: { fulfillmentId: order.fulfillments[0].id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  await t.db.orderItem.update({ where: { id: firstItem.id }, data: { prescriptionId: prescription.id } });

  // The oracle: the Prisma include this statement replaced (issue 26).
  const expected = await t.db.order.findFirstOrThrow({
    where: { id: orderId, organisationId: t.organisation.id },
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
        select: { id: true, status: true, source: true, signedAt: true, createdAt: true, renderedFileKey: true, signedFileKey: true, doctor: { select: { displayName: true } } },
      },
    },
  });
  const histories = new Map([
    [active.id, await listPharmacyOrderHistory(active.id)],
    [givenBack.id, await listPharmacyOrderHistory(givenBack.id)],
  ]);

  const { routable, histories: read, ...detail } = await getOrderDetailForAdmin(t.organisation.id, orderId);
  expect(detail).toEqual(Object.fromEntries(Object.keys(detail).map((key) => [key, expected[key as keyof typeof expected]])));
  expect(read).toEqual(histories);
  const shown = (externalId: string) => detail.fulfillments.find((f) => f.externalId === externalId)!;
  expect(shown("f-1").pharmacyOrder?.shipments.map((s) => s.sequenceNumber)).toEqual([1, 2]);
  expect(shown("f-2").pharmacyOrders.map((po) => po.id)).toEqual([givenBack.id]);
  expect(detail.prescriptions.map((p) => p.doctor?.displayName)).toEqual(["Dr. Erika Muster"]);
  // The given-back fulfillment may be routed by hand; the one at a pharmacy may not.
  expect([...routable]).toEqual([order.fulfillments[1].id]);

  const other = await createTenant();
  await expect(getOrderDetailForAdmin(other.organisation.id, orderId)).rejects.toBeInstanceOf(NotFoundError);
});
