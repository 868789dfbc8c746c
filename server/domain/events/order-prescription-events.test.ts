/**
 * The order and prescription events (docs/decisions/webhooks.md#order-and-prescription-events) as the outbox
 * records them, on a real database through the real commands: order_created once per intake on
 * each of intake's ways of writing and never for a refused duplicate; order_updated once per
 * transaction that changed the order's status, from the status before it to the last one;
 * prescription_created per recorded prescription; prescription_updated per decision with its
 * reason and, when the doctor changed, the doctors and why.
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/server/config";
import type { Actor } from "@/server/domain/actor";
import { cancelFulfillment } from "@/server/domain/orders/change-order";
import { releaseOrderHold } from "@/server/domain/orders/release-order-hold";
import { approvePrescription, declinePrescription, holdPrescription } from "@/server/domain/prescriptions/decisions";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { post } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { dropAnamnesis, placeWaitingOrder, storeRenderedPdf } from "@/tests/prescription-orders";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let doctor: { id: string };
let otherDoctor: { id: string };
const system: Actor = { type: "SYSTEM" };

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Weber", canSignQes: true } });
  otherDoctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Lang", canSignQes: true } });
});

const eventsOf = (subjectId: string, eventType?: string) =>
  t.db.outboxEvent.findMany({ where: { subjectId, ...(eventType ? { eventType } : {}) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const typesOf = async (subjectId: string) => (await eventsOf(subjectId)).map((e) => e.eventType);
const newCustomer = () => ({ id: `c-${randomUUID()}`, email: "erika@example.com" });

describe("order_created", () => {
  // Which way intake writes follows from the order (create-order.ts): each case below takes one.
  const intakes: [string, () => Record<string, unknown>][] = [
    ["one statement (one fulfillment, raw SQL only, a new customer)", () => orderBody(t, [item(refs.otcReference)], { customer: newCustomer() })],
    ["one statement (a known customer with nothing to fill)", () => orderBody(t, [item(refs.otcReference)], { customer: { id: "known-customer", email: "k@example.com" } })],
    [
      "the driver's transaction (two fulfillments)",
      () =>
        orderBody(t, [], {
          customer: newCustomer(),
          fulfillments: [
            { external_id: "f-1", items: [item(refs.otcReference)] },
            fulfillmentAt("f-2", t.groupPharmacy.id, [item(refs.otcReference)]),
          ],
        }),
    ],
    ["Prisma's transaction (shipping methods)", () => orderBody(t, [item(refs.otcReference)], { customer: newCustomer(), shipping_methods: ["standard"] })],
  ];

  it("is recorded once per order on each of intake's ways of writing, with the order and in the order's organisation", async () => {
    // The known customer exists before its order is taken as "known".
    expect((await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: { id: "known-customer", email: "k@example.com" } }))).status).toBe(201);
    for (const [way, body] of intakes) {
      const created = await placeOrder(t, body());
      expect(created.status, way).toBe(201);
      const events = await eventsOf(created.json.uid);
      expect(events.map((e) => [e.eventType, e.organisationId, e.pharmacyId, e.data]), way).toEqual([["order_created", t.organisation.id, null, null]]);
    }
  });

  it("is not recorded again for a retried intake (409), nor more than once for concurrent duplicates", async () => {
    const body = orderBody(t, [item(refs.otcReference)], { customer: newCustomer() });
    const first = await placeOrder(t, body);
    expect(first.status).toBe(201);
    const retried = await placeOrder(t, body);
    expect(retried.status).toBe(409);
    expect(retried.json.order_uid).toBe(first.json.uid);

    const raced = orderBody(t, [item(refs.otcReference)], { customer: newCustomer() });
    const results = await Promise.all(Array.from({ length: 8 }, () => placeOrder(t, raced)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const winner = results.find((r) => r.status === 201)!.json.uid as string;

    const created = await t.db.outboxEvent.findMany({ where: { eventType: "order_created", subjectId: { in: [first.json.uid, winner] } } });
    expect(created.map((e) => e.subjectId).sort()).toEqual([first.json.uid, winner].sort());
    const orders = await t.db.order.findMany({ where: { externalId: { in: [body.external_id, raced.external_id] } }, select: { id: true } });
    expect(orders).toHaveLength(2);
  });
});

describe("order_updated", () => {
  it("records each committed status change with the status before and after", async () => {
    const body = orderBody(t, [], {
      customer: newCustomer(),
      fulfillments: [
        { external_id: "f-1", items: [item(refs.otcReference)] },
        { external_id: "f-2", items: [item(refs.otcReference)] },
      ],
    });
    const created = await placeOrder(t, body);
    expect(created.json.status).toBe("waiting for pharmacy");
    // Cancelling one fulfillment leaves the status as it was: no event. Cancelling the last cancels the order.
    await cancelFulfillment(t.organisation.id, body.external_id, "f-1", system);
    expect(await eventsOf(created.json.uid, "order_updated")).toEqual([]);
    await cancelFulfillment(t.organisation.id, body.external_id, "f-2", system);
    expect((await eventsOf(created.json.uid, "order_updated")).map((e) => e.data)).toEqual([
      { from_status: "waiting for pharmacy", to_status: "cancelled" },
    ]);
  });

  it("makes one event of the changes one transaction makes: a released hold goes from paused to waiting for pharmacy", async () => {
    const created = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: newCustomer(), on_hold: true }));
    expect(created.json.status).toBe("paused");
    // The release writes "started", then what its new pharmacy order makes it.
    expect((await releaseOrderHold(t.organisation.id, created.json.uid, system)).pharmacyOrderIds).toHaveLength(1);
    expect((await eventsOf(created.json.uid, "order_updated")).map((e) => e.data)).toEqual([{ from_status: "paused", to_status: "waiting for pharmacy" }]);
  });

  it("records nothing for changes that end where they began, and one event per transaction otherwise", async () => {
    const created = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: newCustomer() }));
    const orderId = created.json.uid as string;
    const setStatus = (tx: { $executeRaw: typeof t.db.$executeRaw }, status: string) => tx.$executeRaw`UPDATE "Order" SET "status" = ${status} WHERE "id" = ${orderId}`;
    await t.db.$transaction(async (tx) => {
      await setStatus(tx, "started");
      await setStatus(tx, "waiting for pharmacy");
    });
    expect(await eventsOf(orderId, "order_updated")).toEqual([]);
    await t.db.$transaction(async (tx) => {
      await setStatus(tx, "started");
      await setStatus(tx, "pharmacy not found");
    });
    await setStatus(t.db, "waiting for pharmacy");
    // A row updated without a status change, and a status written again as it was, record nothing.
    await t.db.order.update({ where: { id: orderId }, data: { priority: 3 } });
    await setStatus(t.db, "waiting for pharmacy");
    expect((await eventsOf(orderId, "order_updated")).map((e) => e.data)).toEqual([
      { from_status: "waiting for pharmacy", to_status: "pharmacy not found" },
      { from_status: "pharmacy not found", to_status: "waiting for pharmacy" },
    ]);
  });

  it("does not merge a change into an event another transaction recorded", async () => {
    const created = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: newCustomer() }));
    const orderId = created.json.uid as string;
    await t.db.$executeRaw`UPDATE "Order" SET "status" = 'started' WHERE "id" = ${orderId}`;
    // Still undispatched when the next transaction changes the order again.
    await t.db.$executeRaw`UPDATE "Order" SET "status" = 'waiting for pharmacy' WHERE "id" = ${orderId}`;
    expect((await eventsOf(orderId, "order_updated")).map((e) => e.data)).toEqual([
      { from_status: "waiting for pharmacy", to_status: "started" },
      { from_status: "started", to_status: "waiting for pharmacy" },
    ]);
  });
});

describe("prescription_created", () => {
  it("is recorded with the doctor's request of an order, and with an inline signed PDF", async () => {
    const waiting = await placeWaitingOrder(t, refs, { customerId: `c-${randomUUID()}` });
    expect(await typesOf(waiting.prescriptionId)).toEqual(["prescription_created"]);
    expect(await typesOf(waiting.orderId)).toEqual(["order_created"]);

    const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
    const pdf = await signPdfWithP12(await samplePrescriptionPdf({ patient: "Erika Mustermann" }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
    const body = orderBody(t, [], { customer: newCustomer() });
    body.fulfillments = [
      {
        external_id: "f-inline",
        items: [item(refs.rxReference, { prescription_reference: "rx-1", total_paid: { amount: 2999, currency: "EUR" } })],
        prescriptions: [{ id: "rx-1", pdf_base64: pdf.toString("base64") }],
      },
    ] as unknown as typeof body.fulfillments;
    const inline = await placeOrder(t, body);
    expect(inline.status, inline.text).toBe(201);
    const [prescription] = inline.json.prescriptions;
    expect(prescription.status).toBe("EXTERNALLY_SIGNED");
    expect(await typesOf(prescription.uid)).toEqual(["prescription_created"]);
  });
});

describe("prescription_updated", () => {
  const user: Actor = { type: "SYSTEM" };
  const changes = async (prescriptionId: string) => (await eventsOf(prescriptionId, "prescription_updated")).map((e) => e.data);

  it("says what a hold needs, and that the doctor changed when a decision assigned another doctor", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: `c-${randomUUID()}` });
    await approvePrescription(t.organisation.id, prescriptionId, { actor: user, doctorId: doctor.id, note: "looks fine" });
    await holdPrescription(t.organisation.id, prescriptionId, { actor: user, doctorId: otherDoctor.id, note: "  Need a current blood pressure reading " });
    // Holding again changes nothing: no event.
    await holdPrescription(t.organisation.id, prescriptionId, { actor: user, note: "again" });
    expect(await changes(prescriptionId)).toEqual([
      {
        from_status: "waiting for doctor",
        to_status: "approved",
        reason: "looks fine",
        from_doctor_uid: null,
        to_doctor_uid: doctor.id,
        doctor_assignment_reason: "decision",
      },
      {
        from_status: "approved",
        to_status: "ON_HOLD",
        reason: "Need a current blood pressure reading",
        from_doctor_uid: doctor.id,
        to_doctor_uid: otherDoctor.id,
        doctor_assignment_reason: "decision",
      },
    ]);
  });

  it("says why it was declined, with the doctor unchanged, and the order's status change beside it", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs, { customerId: `c-${randomUUID()}` });
    await holdPrescription(t.organisation.id, prescriptionId, { actor: user, doctorId: doctor.id, note: "question" });
    await declinePrescription(t.organisation.id, prescriptionId, { actor: user, note: "contraindicated" });
    expect((await changes(prescriptionId)).at(-1)).toEqual({
      from_status: "ON_HOLD",
      to_status: "declined",
      reason: "contraindicated",
      from_doctor_uid: doctor.id,
      to_doctor_uid: doctor.id,
      doctor_assignment_reason: null,
    });
    expect((await eventsOf(orderId, "order_updated")).map((e) => e.data)).toEqual([{ from_status: "waiting for doctor", to_status: "prescription declined" }]);
  });

  it("records the external signature, and a request cancelled with its fulfillment", async () => {
    const signedOutside = await placeWaitingOrder(t, refs, { customerId: `c-${randomUUID()}` });
    await dropAnamnesis(t, signedOutside.prescriptionId);
    await storeRenderedPdf(t, signedOutside.prescriptionId);
    const r = await post(`/v1/management/prescriptions/${signedOutside.prescriptionId}/external-sign`, { key: t.keys.management });
    expect(r.status, r.text).toBe(200);
    expect(await changes(signedOutside.prescriptionId)).toEqual([
      { from_status: "waiting for doctor", to_status: "EXTERNALLY_SIGNED", reason: null, from_doctor_uid: null, to_doctor_uid: null, doctor_assignment_reason: null },
    ]);

    const cancelled = await placeWaitingOrder(t, refs, { customerId: `c-${randomUUID()}` });
    await cancelFulfillment(t.organisation.id, cancelled.body.external_id, "f-rx", system);
    expect(await changes(cancelled.prescriptionId)).toEqual([
      { from_status: "waiting for doctor", to_status: "cancelled", reason: "fulfillment cancelled", from_doctor_uid: null, to_doctor_uid: null, doctor_assignment_reason: null },
    ]);
  });
});
