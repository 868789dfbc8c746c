/**
 * The pharmacy portal's order procedures, called as the page calls them (createCaller with a
 * portal user): scope (own pharmacy, group pharmacist, another pharmacy's order → NOT_FOUND),
 * the queue over the REST list's statement, the detail with history, the commands through the same
 * domain functions as REST, the on-hold comment rule and the lost race (CONFLICT).
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { config } from "@/server/config";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { createPortalUser } from "@/tests/webhook-logs";
import { TRPCError } from "@trpc/server";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let otherPharmacist: PortalSessionUser; // of pharmacy C (outside the group)

const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  await t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: 1000 } });
  const organisationId = t.organisation.id;
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyGroupId: t.group.id });
  otherPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.loosePharmacy.id });
});

/** A pharmacy order at `pharmacyId` for a customer with `lastName`, quantity `quantity` of the OTC SKU. */
async function newPharmacyOrder(pharmacyId = t.pharmacy.id, options: { lastName?: string; quantity?: number } = {}) {
  const lastName = options.lastName ?? "Mustermann";
  const body = orderBody(t, [], {
    customer: { id: `customer-${lastName}` },
    delivery_address: { first_name: "Erika", last_name: lastName, street: "Hauptstraße", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
    fulfillments: [fulfillmentAt("f-1", pharmacyId, [item(refs.otcReference, { quantity: options.quantity ?? 1 })])],
  });
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  return t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, select: { id: true, name: true, pharmacyId: true, status: true } });
}

const statusOf = async (id: string) => (await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id } })).status;

function fieldErrorsOf(error: unknown) {
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe("pharmacy.orders.list", () => {
  it("shows the pharmacist's own orders newest first, with priority, delivery type and counts per status; a group pharmacist sees the group's", async () => {
    const a1 = await newPharmacyOrder(t.pharmacy.id, { lastName: "Queueperson" });
    const b1 = await newPharmacyOrder(t.groupPharmacy.id);
    const c1 = await newPharmacyOrder(t.loosePharmacy.id);
    const a2 = await newPharmacyOrder(t.pharmacy.id);
    await patch(`${EPA}/${a2.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } });

    const own = await as(pharmacist).pharmacy.orders.list({});
    const ownUids = own.items.map((i) => i.uid);
    expect(ownUids.indexOf(a2.id)).toBeLessThan(ownUids.indexOf(a1.id));
    expect(ownUids).not.toContain(b1.id);
    expect(ownUids).not.toContain(c1.id);
    expect(own.items.find((i) => i.uid === a1.id)).toMatchObject({
      name: a1.name,
      status: "waiting for pharmacy",
      customerName: "Erika Queueperson",
      priority: 0,
      deliveryType: "shipping",
      pharmacy: { uid: t.pharmacy.id, displayName: "Apotheke A" },
      itemCount: 1,
    });
    expect(own.statusCounts["in-progress"]).toBe(1);
    expect(own.allCount).toBe(own.total);
    expect(own.pharmacyCount).toBe(1);

    const group = await as(groupPharmacist).pharmacy.orders.list({});
    expect(group.items.map((i) => i.uid)).toEqual(expect.arrayContaining([a1.id, a2.id, b1.id]));
    expect(group.items.map((i) => i.uid)).not.toContain(c1.id);
    expect(group.total).toBe(own.total + 1);
    expect(group.statusCounts["waiting for pharmacy"]).toBe(own.statusCounts["waiting for pharmacy"] + 1);
    expect(group.pharmacyCount).toBe(2);
    const onlyB = await as(groupPharmacist).pharmacy.orders.list({ pharmacyUid: t.groupPharmacy.id });
    expect(onlyB.items.map((i) => i.uid)).toEqual([b1.id]);
    expect(onlyB.allCount).toBe(1);
  });

  it("filters by status, search (PO name, customer name) and creation dates, and pages", async () => {
    const po = await newPharmacyOrder(t.pharmacy.id, { lastName: "Searchable" });
    expect((await as(pharmacist).pharmacy.orders.list({ search: "searchABLE" })).items.map((i) => i.uid)).toEqual([po.id]);
    expect((await as(pharmacist).pharmacy.orders.list({ search: po.name.toLowerCase() })).items.map((i) => i.uid)).toEqual([po.id]);
    const inProgress = await as(pharmacist).pharmacy.orders.list({ status: "in-progress" });
    expect(inProgress.items.every((i) => i.status === "in-progress")).toBe(true);
    expect(inProgress.total).toBe(inProgress.statusCounts["in-progress"]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await as(pharmacist).pharmacy.orders.list({ from: future })).total).toBe(0);
    const pageOne = await as(pharmacist).pharmacy.orders.list({ limit: 1, page: 1 });
    expect(pageOne.items).toHaveLength(1);
    expect(pageOne.totalPages).toBe(pageOne.total);
    expect(await trpcCode(as(pharmacist).pharmacy.orders.list({ from: 10, to: 5 }))).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for a pharmacy outside the caller's reach", async () => {
    expect(await trpcCode(as(pharmacist).pharmacy.orders.list({ pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.orders.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.orders.list({ pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
  });
});

describe("pharmacy.orders.get", () => {
  it("shows one order with items, address, delivery, history naming who, and the status changes allowed", async () => {
    const po = await newPharmacyOrder(t.pharmacy.id, { lastName: "Detailed", quantity: 2 });
    await as(pharmacist).pharmacy.orders.changeStatus({ uid: po.id, status: "in-progress", expectedStatus: "waiting for pharmacy" });
    const detail = await as(pharmacist).pharmacy.orders.get({ uid: po.id });
    expect(detail).toMatchObject({
      uid: po.id,
      name: po.name,
      status: "in-progress",
      deliveryType: "shipping",
      priority: 0,
      canComplete: true,
      deliveryAddress: { lastName: "Detailed", country: "DE" },
      items: [{ quantity: 2, sku: { pzn: "11111111", displayName: "Aspirin 500 mg" } }],
      prescriptionFilename: null,
    });
    expect(detail.statusChanges).toEqual(["waiting for pharmacy", "pending review", "on-hold", "ready_for_pickup", "cancelled"]);
    expect(detail.history.map((h) => [h.fromStatus, h.toStatus, h.actor.type])).toEqual([
      [null, "waiting for pharmacy", "API_KEY"], // routed at intake, by the Management key
      ["waiting for pharmacy", "in-progress", "USER"],
    ]);
    expect(detail.history[1].actor.displayName).toBe(pharmacist.name);
    expect(await as(groupPharmacist).pharmacy.orders.get({ uid: po.id })).toMatchObject({ uid: po.id });
  });

  it("answers NOT_FOUND for another pharmacy's order, for the order and its PDF alike", async () => {
    const b = await newPharmacyOrder(t.groupPharmacy.id);
    const c = await newPharmacyOrder(t.loosePharmacy.id);
    expect(await trpcCode(as(pharmacist).pharmacy.orders.get({ uid: b.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.orders.get({ uid: c.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.get({ uid: "no-such-order" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.prescriptionFile({ uid: b.id }))).toBe("NOT_FOUND");
    expect(await as(otherPharmacist).pharmacy.orders.prescriptionFile({ uid: c.id })).toBeNull();
  });
});

describe("pharmacyOrders commands", () => {
  it("changeStatus: on hold needs a comment, opens an issue thread; another pharmacy's order is NOT_FOUND", async () => {
    const po = await newPharmacyOrder();
    const noComment = await as(pharmacist)
      .pharmacy.orders.changeStatus({ uid: po.id, status: "on-hold", comment: "  ", expectedStatus: "waiting for pharmacy" })
      .catch(fieldErrorsOf);
    expect(noComment).toMatchObject({ code: "BAD_REQUEST" });
    expect(await statusOf(po.id)).toBe("waiting for pharmacy");
    await as(pharmacist).pharmacy.orders.changeStatus({ uid: po.id, status: "on-hold", comment: "Dosage unclear", expectedStatus: "waiting for pharmacy" });
    expect(await statusOf(po.id)).toBe("on-hold");
    expect(await t.db.adminIssueThread.count({ where: { pharmacyOrderId: po.id, description: "Dosage unclear" } })).toBe(1);
    const b = await newPharmacyOrder(t.groupPharmacy.id);
    expect(await trpcCode(as(pharmacist).pharmacy.orders.changeStatus({ uid: b.id, status: "in-progress", expectedStatus: "waiting for pharmacy" }))).toBe("NOT_FOUND");
    expect(await statusOf(b.id)).toBe("waiting for pharmacy");
    // A group pharmacist acts on the group's other pharmacy.
    await as(groupPharmacist).pharmacy.orders.changeStatus({ uid: b.id, status: "in-progress", expectedStatus: "waiting for pharmacy" });
    expect(await statusOf(b.id)).toBe("in-progress");
  });

  it("the on-hold comment rule is the domain's too: an input without the schema's check is refused with the comment field", async () => {
    const po = await newPharmacyOrder();
    const { changePharmacyOrderStatus } = await import("@/server/domain/pharmacy-orders/change-status");
    await expect(changePharmacyOrderStatus(po.pharmacyId, po.id, { status: "on-hold" }, { type: "USER", userId: pharmacist.id })).rejects.toMatchObject({
      fields: { comment: ["A comment is required when setting an order on hold"] },
    });
  });

  it("a change that lost a race is refused with CONFLICT and the current status, and changes nothing", async () => {
    const po = await newPharmacyOrder();
    // Another pharmacist (or the pharmacy's system over REST) moved it first.
    await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } });
    const error = await as(pharmacist)
      .pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "waiting for pharmacy" })
      .catch((e: unknown) => e as TRPCError);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("CONFLICT");
    expect((error as TRPCError).message).toContain("status is now in-progress");
    expect(await statusOf(po.id)).toBe("in-progress");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.complete({ uid: po.id, trackingLinks: [], expectedStatus: "waiting for pharmacy" }))).toBe("CONFLICT");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "?", expectedStatus: "on-hold" }))).toBe("CONFLICT");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.addShipment({ uid: po.id, trackingUrl: "", expectedStatus: "pending review" }))).toBe("CONFLICT");
    expect(
      await trpcCode(as(pharmacist).pharmacy.orders.changeDeliveryType({ uid: po.id, deliveryType: "pickup", expectedDeliveryType: "pickup", expectedStatus: "in-progress" })),
    ).toBe("CONFLICT");
    await as(pharmacist).pharmacy.orders.changePriority({ uid: po.id, priority: 5, expectedPriority: 0 });
    expect(await trpcCode(as(pharmacist).pharmacy.orders.changePriority({ uid: po.id, priority: 9, expectedPriority: 0 }))).toBe("CONFLICT");
    expect((await as(pharmacist).pharmacy.orders.get({ uid: po.id })).priority).toBe(5);
    expect(await t.db.shipment.count({ where: { pharmacyOrderId: po.id } })).toBe(0);
  });

  it("of two concurrent changes from the same page state, exactly one wins; the other is refused with CONFLICT", async () => {
    const po = await newPharmacyOrder();
    const outcomes = await Promise.allSettled([
      as(pharmacist).pharmacy.orders.changeStatus({ uid: po.id, status: "in-progress", expectedStatus: "waiting for pharmacy" }),
      as(groupPharmacist).pharmacy.orders.changeStatus({ uid: po.id, status: "cancelled", expectedStatus: "waiting for pharmacy" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const [refused] = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect((refused.reason as TRPCError).code).toBe("CONFLICT");
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: po.id } });
    expect(history).toHaveLength(2); // creation and the one change that won
    expect(["in-progress", "cancelled"]).toContain(await statusOf(po.id));
  });

  it("complete: stock reduced, shipment from the tracking link, payouts routed, as REST complete_order; NOT_FOUND for another pharmacy's order", async () => {
    const po = await newPharmacyOrder(t.pharmacy.id, { quantity: 3 });
    const stockBefore = (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
    await as(pharmacist).pharmacy.orders.complete({
      uid: po.id,
      trackingLinks: [{ trackingLink: "https://tracking.example/1", carrier: "DHL" }],
      expectedStatus: "waiting for pharmacy",
    });
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock).toBe(stockBefore - 3);
    const detail = await as(pharmacist).pharmacy.orders.get({ uid: po.id });
    expect(detail).toMatchObject({ status: "completed", canComplete: false, shipments: [{ sequenceNumber: 1, trackingUrl: "https://tracking.example/1", carrierName: "DHL" }] });
    const rest = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(rest.json.status).toBe("completed");
    const b = await newPharmacyOrder(t.groupPharmacy.id);
    expect(await trpcCode(as(pharmacist).pharmacy.orders.complete({ uid: b.id, trackingLinks: [], expectedStatus: "waiting for pharmacy" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.complete({ uid: po.id, trackingLinks: [{ trackingLink: "ftp://x", carrier: "DHL" }], expectedStatus: "completed" }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("addShipment, requestClarification, changePriority, changeDeliveryType: recorded with who; NOT_FOUND for another pharmacy's order", async () => {
    const po = await newPharmacyOrder();
    const b = await newPharmacyOrder(t.groupPharmacy.id);
    const me = as(pharmacist).pharmacy.orders;
    expect(await me.addShipment({ uid: po.id, trackingUrl: "https://tracking.example/2", trackingNumber: "123", carrier: "DPD", expectedStatus: "waiting for pharmacy" })).toMatchObject({
      sequenceNumber: 1,
    });
    expect(await me.changeDeliveryType({ uid: po.id, deliveryType: "pickup", expectedDeliveryType: "shipping", expectedStatus: "waiting for pharmacy" })).toEqual({ changed: true });
    expect(await me.changePriority({ uid: po.id, priority: 10, expectedPriority: 0 })).toEqual({ changed: true });
    expect(await me.requestClarification({ uid: po.id, description: "Which strength?", expectedStatus: "waiting for pharmacy" })).toMatchObject({ statusChanged: true });
    const detail = await me.get({ uid: po.id });
    expect(detail).toMatchObject({ status: "on-hold", deliveryType: "pickup", priority: 10 });
    expect(detail.history.slice(1).map((h) => [h.toStatus, h.comment, h.actor.type, h.isStatusChange])).toEqual([
      ["shipment added", "#1", "USER", false],
      ["delivery type changed", "shipping → pickup", "USER", false],
      ["order updated", "priority 0 → 10", "USER", false],
      ["on-hold", "Which strength?", "USER", true],
    ]);
    expect(await trpcCode(me.addShipment({ uid: b.id, expectedStatus: "waiting for pharmacy" }))).toBe("NOT_FOUND");
    expect(await trpcCode(me.requestClarification({ uid: b.id, description: "x", expectedStatus: "waiting for pharmacy" }))).toBe("NOT_FOUND");
    expect(await trpcCode(me.changePriority({ uid: b.id, priority: 1, expectedPriority: 0 }))).toBe("NOT_FOUND");
    expect(await trpcCode(me.changeDeliveryType({ uid: b.id, deliveryType: "pickup", expectedDeliveryType: "shipping", expectedStatus: "waiting for pharmacy" }))).toBe("NOT_FOUND");
    expect(await statusOf(b.id)).toBe("waiting for pharmacy");
  });

  it("bulkChangeStatus: a result per order; another pharmacy's order is not_found, another pharmacy NOT_FOUND", async () => {
    const [a, a2, b] = [await newPharmacyOrder(), await newPharmacyOrder(), await newPharmacyOrder(t.groupPharmacy.id)];
    const results = await as(pharmacist).pharmacy.orders.bulkChangeStatus({ uids: [a.id, a2.id, b.id], status: "pending review" });
    expect(results).toEqual([
      { uid: a.id, ok: true, changed: true },
      { uid: a2.id, ok: true, changed: true },
      { uid: b.id, ok: false, error: "not_found", message: "Resource not found" },
    ]);
    expect(await statusOf(b.id)).toBe("waiting for pharmacy");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.bulkChangeStatus({ pharmacyUid: t.groupPharmacy.id, uids: [b.id], status: "pending review" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.orders.bulkChangeStatus({ uids: [a.id], status: "on-hold" }))).toBe("BAD_REQUEST");
    const group = await as(groupPharmacist).pharmacy.orders.bulkChangeStatus({ uids: [a.id, b.id], status: "on-hold", comment: "Check stock" });
    expect(group.every((r) => r.ok)).toBe(true);
  });
});

describe("pharmacy.orders.prescriptionFile", () => {
  it("serves the signed prescription PDF of an order that carries one", async () => {
    await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
    const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
    const signed = await signPdfWithP12(await samplePrescriptionPdf({ patient: "Erika Mustermann" }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
    const body = orderBody(t, []);
    body.fulfillments = [
      {
        external_id: "f-inline",
        destination_pharmacy_uid: t.pharmacy.id,
        items: [item(refs.rxReference, { prescription_reference: "rx-1", total_paid: { amount: 2999, currency: "EUR" } })],
        prescriptions: [{ id: "rx-1", pdf_base64: signed.toString("base64") }],
      },
    ] as unknown as typeof body.fulfillments;
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    const detail = await as(pharmacist).pharmacy.orders.get({ uid: po.id });
    expect(detail.prescriptionFilename).toMatch(/^prescription-.+\.pdf$/);
    const file = await as(pharmacist).pharmacy.orders.prescriptionFile({ uid: po.id });
    expect(Buffer.from(file!.contentBase64, "base64").equals(signed)).toBe(true);
    expect(await trpcCode(as(otherPharmacist).pharmacy.orders.prescriptionFile({ uid: po.id }))).toBe("NOT_FOUND");
  });
});
