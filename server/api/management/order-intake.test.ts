import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { address, eur, fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { signedPrescriptionOf } from "@/tests/prescriptions";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await withShopSkus(other);
});

const counts = async () => ({
  orders: await t.db.order.count({ where: { organisationId: t.organisation.id } }),
  pharmacyOrders: await t.db.pharmacyOrder.count({ where: { organisationId: t.organisation.id } }),
  patients: await t.db.patientProfile.count({ where: { organisationId: t.organisation.id } }),
  events: await t.db.outboxEvent.count({ where: { organisationId: t.organisation.id } }),
});

describe("order intake", () => {
  it("creates an order with 201, defaults name and invoice address, and routes it to the cheapest pharmacy with stock", async () => {
    const body = orderBody(t, [item(refs.otcReference, { quantity: 2, total_paid: { amount: 998, currency: "EUR" } })]);
    const r = await placeOrder(t, body);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      uid: expect.any(String),
      status: "waiting for pharmacy",
      overall_status: "pending",
      shop_order: { external_id: body.external_id, shop: { uid: t.shop.id, identifier: t.shop.identifier } },
      items: [{ sku_uid: t.sku.id, sku_display_name: "Aspirin 500 mg", sku_pzn: "11111111", amount: 2, prescription_uid: null }],
      fulfillment_orders: [{ status: "OPEN", external_id: "f-1", items: [{ status: "OPEN", amount: 2 }] }],
      prescriptions: [],
    });
    const order = await t.db.order.findUniqueOrThrow({ where: { id: r.json.uid }, include: { shopOrder: true, pharmacyOrders: { include: { items: true, history: true } } } });
    expect(order.name).toBe(body.external_id);
    expect(order.shopOrder!.name).toBe(body.external_id);
    expect(order.invoiceAddress).toEqual(address);
    expect(order.pharmacyOrders).toHaveLength(1);
    const po = order.pharmacyOrders[0];
    expect(po.pharmacyId).toBe(t.pharmacy.id); // 450 at A beats 470 at B
    expect(po.name).toMatch(/^PO-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(po.status).toBe("waiting for pharmacy");
    expect(po.items).toMatchObject([{ pharmacySkuId: t.pharmacySku.id, amount: 2, totalPaidAmount: 998 }]);
    expect(po.history).toMatchObject([{ fromStatus: null, toStatus: "waiting for pharmacy", actorType: "API_KEY" }]);
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_created", subjectId: po.id } })).toBe(1);
  });

  it("skips a pharmacy without enough stock, and accepts as pharmacy not found (no pharmacy order) when none has enough", async () => {
    const unrouted = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 11 })]));
    expect(unrouted.status).toBe(201);
    expect(unrouted.json.status).toBe("pharmacy not found");
    await t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: 50 } });
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 11 })]));
    expect(r.status).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po.pharmacyId).toBe(t.groupPharmacy.id);

    const before = await counts();
    const accepted = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 1000 })]));
    expect(accepted.status).toBe(201);
    expect(accepted.json).toMatchObject({ status: "pharmacy not found", overall_status: "pending" });
    expect(await counts()).toMatchObject({ orders: before.orders + 1, pharmacyOrders: before.pharmacyOrders });
  });

  it("routes by destination_pharmacy_uid, then location_id, then the order's pharmacy_uid", async () => {
    await t.db.pharmacy.update({ where: { id: t.loosePharmacy.id }, data: { locationId: "LOC-C" } });
    const byDestination = await placeOrder(t, {
      ...orderBody(t, []),
      pharmacy_uid: t.pharmacy.id,
      fulfillments: [
        { external_id: "a", destination_pharmacy_uid: t.groupPharmacy.id, items: [item(refs.otcReference)] },
        { external_id: "b", location_id: "LOC-C", items: [item(refs.otcReference)] },
        { external_id: "c", items: [item(refs.otcReference)] },
      ],
    });
    expect(byDestination.status).toBe(201);
    const pos = await t.db.pharmacyOrder.findMany({ where: { orderId: byDestination.json.uid }, include: { fulfillment: true } });
    const byFulfillment = Object.fromEntries(pos.map((p) => [p.fulfillment.externalId, p.pharmacyId]));
    expect(byFulfillment).toEqual({ a: t.groupPharmacy.id, b: t.loosePharmacy.id, c: t.pharmacy.id });
  });

  it("is strictly once per external_id: 409 order_already_exists with the existing uid", async () => {
    const body = orderBody(t, [item(refs.otcReference)]);
    const first = await placeOrder(t, body);
    const again = await placeOrder(t, body);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: "order_already_exists", order_uid: first.json.uid });
    // Another organisation may use the same external_id.
    const elsewhere = await placeOrder(other, { ...body, shop_identifier: other.shop.identifier, fulfillments: [{ external_id: "f-1", items: [item(`var-otc-${other.shop.id}`)] }] });
    expect(elsewhere.status).toBe(201);
  });

  it("creates exactly one order from 50 concurrent identical requests", async () => {
    const body = orderBody(t, [item(refs.otcReference)], { customer: { id: "race-customer" } });
    const before = await counts();
    const results = await Promise.all(Array.from({ length: 50 }, () => placeOrder(t, body)));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(49);
    expect(new Set(conflicts.map((r) => r.json.order_uid))).toEqual(new Set([created[0].json.uid]));
    const after = await counts();
    expect(after.orders - before.orders).toBe(1);
    expect(after.pharmacyOrders - before.pharmacyOrders).toBe(1);
    expect(after.patients - before.patients).toBe(1);
  });

  it("creates one patient for concurrent first orders of one new customer", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: { id: "new-customer-x" } }))),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(await t.db.shopCustomer.count({ where: { shopId: t.shop.id, shopCustomerId: "new-customer-x" } })).toBe(1);
    const patients = await t.db.order.findMany({ where: { id: { in: results.map((r) => r.json.uid) } }, select: { patientId: true } });
    expect(new Set(patients.map((p) => p.patientId)).size).toBe(1);
  });

  it("creates an on_hold order paused, without routing it", async () => {
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { on_hold: true, hold_comment: "check address" }));
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ status: "paused", overall_status: "on_hold" });
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid } })).toBe(0);
  });

  it("keeps SKUs with skip_for_pharmacy_orders out of pharmacy orders", async () => {
    await t.db.sku.update({ where: { id: t.rxSku.id }, data: { skipForPharmacyOrders: true } });
    const signed = await signedPrescriptionOf(t, "customer-1", [{ quantity: 1 }], { source: "EXTERNAL" });
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference), item(refs.rxReference, { prescription_uid: signed.id })]));
    expect(r.status).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, include: { items: { include: { orderItem: true } } } });
    expect(po.items.map((i) => i.orderItem.skuId)).toEqual([t.sku.id]);
    await t.db.sku.update({ where: { id: t.rxSku.id }, data: { skipForPharmacyOrders: false } });
  });

  it("records shipping methods, and the order's shipping cost on its first pharmacy order", async () => {
    const r = await placeOrder(
      t,
      orderBody(t, [item(refs.otcReference)], { shipping_methods: ["express", "express", "standard"], shipping_cost: { amount: 495, currency: "EUR" } }),
    );
    expect(r.status).toBe(201);
    const methods = await t.db.shopShippingMethod.findMany({ where: { shopId: t.shop.id }, orderBy: { externalId: "asc" } });
    expect(methods.map((m) => m.externalId)).toEqual(["express", "standard"]);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect([po.shippingCostsAmount, po.shippingCostsCurrency]).toEqual([495, "EUR"]);
  });

  // Intake answers from what it wrote instead of reading the order back (docs/decisions/intake.md#intake-at-twice-the-rate).
  it("answers with the order exactly as GET /orders/{uid} shows it afterwards", async () => {
    // Each prescription redeemed once, by its own patient's order (docs/decisions/prescriptions.md#prescription-redemption).
    const signed = await signedPrescriptionOf(t, "customer-1");
    const signedAgain = await signedPrescriptionOf(t, "customer-1");
    const bodies = [
      orderBody(t, [item(refs.otcReference, { quantity: 2 }), item(refs.otcReference), item(refs.rxReference, { prescription_uid: signed.id })], {
        shipping_cost: eur(495),
      }),
      orderBody(t, [], {
        customer: { id: `new-${randomUUID()}` },
        fulfillments: [
          { external_id: "f-1", items: [item(refs.otcReference)] },
          { external_id: "f-2", items: [item(refs.otcReference)] },
          fulfillmentAt("f-3", t.groupPharmacy.id, [item(refs.otcReference)]),
        ],
      }),
      orderBody(t, [], {
        fulfillments: [
          { external_id: "f-1", items: [item(refs.otcReference)] },
          { external_id: "f-2", items: [item(refs.otcReference), item(refs.rxReference, { prescription_uid: signedAgain.id })] },
          fulfillmentAt("f-3", t.groupPharmacy.id, [item(refs.otcReference)]),
        ],
      }),
      orderBody(t, [item(refs.otcReference)], { on_hold: true, hold_comment: "check address" }),
    ];
    for (const body of bodies) {
      const created = await placeOrder(t, body);
      expect(created.status).toBe(201);
      const shown = await get(`/v1/management/orders/${created.json.uid}`, { key: t.keys.management });
      expect(created.json).toEqual(shown.json);
    }
  });
});

describe("prescription paths", () => {
  it("refuses a prescription-only product without a prescription path, and two paths on one item", async () => {
    const before = await counts();
    let r = await placeOrder(t, orderBody(t, [item(refs.rxReference)]));
    expect(r.status).toBe(400);
    expect(r.json.error.fulfillments["0"].items["0"].non_field_errors[0]).toMatch(/requires a prescription/);
    r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { prescription_uid: "p", anamnesis_uid: "a" })]));
    expect(r.status).toBe(400);
    expect(r.json.error.fulfillments["0"].items["0"].non_field_errors[0]).toMatch(/one prescription path/);
    expect(await counts()).toEqual(before);
  });

  it("accepts a signed prescription of the organisation (path c) and refuses an unsigned or foreign one", async () => {
    const patient = await t.db.patientProfile.findFirstOrThrow({ where: { organisationId: t.organisation.id } });
    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Who" } });
    const signed = await signedPrescriptionOf(t, "customer-1", [{ quantity: 1 }], { doctorId: doctor.id });
    const waiting = await t.db.prescription.create({ data: { organisationId: t.organisation.id, patientId: patient.id, status: "waiting for doctor", source: "DOCTOR" } });
    const otherPatient = await other.db.patientProfile.create({ data: { organisationId: other.organisation.id, displayName: "X" } });
    const foreign = await other.db.prescription.create({ data: { organisationId: other.organisation.id, patientId: otherPatient.id, status: "signed", source: "DOCTOR" } });

    for (const uid of [waiting.id, foreign.id, "unknown"]) {
      const r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { prescription_uid: uid })]));
      expect(r.status).toBe(400);
      expect(r.json.error.fulfillments["0"].items["0"].prescription_uid).toBeDefined();
    }
    const r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { prescription_uid: signed.id })]));
    expect(r.status).toBe(201);
    expect(r.json.items[0].prescription_uid).toBe(signed.id);
    expect(r.json.prescriptions).toEqual([]); // the prescription belongs to no order of its own
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po.prescriptionId).toBe(signed.id);
    expect(po.prepaid).toBe(499);

    const hidden = await get(`/v1/management/orders/${r.json.uid}`, { key: t.keys.managementReadOnly });
    expect(hidden.status).toBe(403); // product:read only
  });

  it("sends an item with the customer's completed anamnesis to a doctor (path b); another customer's is refused", async () => {
    const customer = await t.db.shopCustomer.findFirstOrThrow({ where: { shopId: t.shop.id, shopCustomerId: "customer-1" } });
    const questionnaire = await t.db.questionnaire.create({ data: { organisationId: t.organisation.id, displayName: "Q", model: {} } });
    const anamnesis = await t.db.questionnaireResponse.create({
      data: { questionnaireId: questionnaire.id, patientId: customer.patientId, status: "COMPLETED", data: {}, completedAt: new Date() },
    });
    const stranger = await t.db.patientProfile.create({ data: { organisationId: t.organisation.id, displayName: "Stranger" } });
    const strangers = await t.db.questionnaireResponse.create({
      data: { questionnaireId: questionnaire.id, patientId: stranger.id, status: "COMPLETED", data: {}, completedAt: new Date() },
    });
    const incomplete = await t.db.questionnaireResponse.create({
      data: { questionnaireId: questionnaire.id, patientId: customer.patientId, status: "IN_PROGRESS", data: {} },
    });
    for (const uid of [strangers.id, incomplete.id]) {
      const r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { anamnesis_uid: uid })]));
      expect(r.status).toBe(400);
      expect(r.json.error.fulfillments["0"].items["0"].anamnesis_uid).toBeDefined();
    }
    const r = await placeOrder(t, orderBody(t, [item(refs.rxReference, { anamnesis_uid: anamnesis.id })]));
    expect(r.status).toBe(201);
    expect(r.json.status).toBe("waiting for doctor");
    expect(r.json.prescriptions).toMatchObject([{ status: "waiting for doctor", doctor_uid: null }]);
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid } })).toBe(0);
    const lines = await t.db.prescriptionLine.findMany({ where: { prescriptionId: r.json.prescriptions[0].uid } });
    expect(lines).toMatchObject([{ anamnesisId: anamnesis.id, skuId: t.rxSku.id }]);
  });

  it("checks inline prescription references, and refuses inline PDFs (422) until they can be validated", async () => {
    const before = await counts();
    const mismatch = await placeOrder(t, {
      ...orderBody(t, []),
      fulfillments: [{ external_id: "f", prescriptions: [{ id: "p1", pdf_base64: "JVBERi0=" }], items: [item(refs.rxReference, { prescription_reference: "p2" })] }],
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.fulfillments["0"].items["0"].prescription_reference).toBeDefined();
    const inline = await placeOrder(t, {
      ...orderBody(t, []),
      fulfillments: [{ external_id: "f", prescriptions: [{ id: "p1", pdf_base64: "JVBERi0=" }], items: [item(refs.rxReference, { prescription_reference: "p1" })] }],
    });
    expect(inline.status).toBe(422);
    expect(await counts()).toEqual(before);
  });
});

describe("bad input", () => {
  it("answers every malformed body with nested field errors and creates nothing", async () => {
    const before = await counts();
    const good = () => orderBody(t, [item(refs.otcReference)]);
    const cases: [Record<string, unknown>, (error: any) => unknown][] = [
      [{ ...good(), shop_identifier: other.shop.identifier }, (e) => e.shop_identifier],
      [{ ...good(), fulfillments: [] }, (e) => e.fulfillments],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { quantity: 0 })] }] }, (e) => e.fulfillments["0"].items["0"].quantity],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { quantity: 1.5 })] }] }, (e) => e.fulfillments["0"].items["0"].quantity],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { total_paid: { amount: 4.99, currency: "EUR" } })] }] }, (e) => e.fulfillments["0"].items["0"].total_paid.amount],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { total_paid: { amount: 499, currency: "EURO" } })] }] }, (e) => e.fulfillments["0"].items["0"].total_paid.currency],
      [{ ...good(), delivery_address: { ...address, country: "Germany" } }, (e) => e.delivery_address.country],
      [{ ...good(), delivery_address: { ...address, zip_code: undefined } }, (e) => e.delivery_address.zip_code],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item("no-such-variant")] }] }, (e) => e.fulfillments["0"].items["0"].sku_reference],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { external_id: "dup" })] }, { external_id: "g", items: [item(refs.otcReference, { external_id: "dup" })] }] }, (e) => e.fulfillments["1"].items["0"].external_id],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference)] }, { external_id: "f", items: [item(refs.otcReference)] }] }, (e) => e.fulfillments["1"].external_id],
      [{ ...good(), pharmacy_uid: other.pharmacy.id }, (e) => e.pharmacy_uid],
      [{ ...good(), doctor_uid: "nope" }, (e) => e.doctor_uid],
      [{ ...good(), fulfillments: [{ external_id: "f", location_id: "nowhere", items: [item(refs.otcReference)] }] }, (e) => e.fulfillments["0"].location_id],
      [{ ...good(), priority: "high" }, (e) => e.priority],
      [{ ...good(), customer: {} }, (e) => e.customer.id],
    ];
    for (const [body, pick] of cases) {
      const r = await placeOrder(t, body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(pick(r.json.error), JSON.stringify(r.json)).toBeDefined();
    }
    expect(await counts()).toEqual(before);
  });

  it("bounds integers by their column, and free-form additional_details by depth and size (docs/decisions/errors-and-validation.md#bad-input)", async () => {
    const before = await counts();
    const good = () => orderBody(t, [item(refs.otcReference)]);
    const nested = (depth: number) => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = { a: value };
      return value as Record<string, unknown>;
    };
    const cases: [Record<string, unknown>, (error: any) => unknown][] = [
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { quantity: 2147483648 })] }] }, (e) => e.fulfillments["0"].items["0"].quantity],
      [{ ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { total_paid: { amount: 2147483648, currency: "EUR" } })] }] }, (e) => e.fulfillments["0"].items["0"].total_paid.amount],
      [
        { ...good(), fulfillments: [{ external_id: "f", items: [item(refs.otcReference, { total_paid: { amount: 2147483647, currency: "EUR" } }), item(refs.otcReference, { total_paid: { amount: 1, currency: "EUR" } })] }] },
        (e) => e.fulfillments["0"].items,
      ],
      [{ ...good(), additional_details: nested(11) }, (e) => e.additional_details],
      [{ ...good(), additional_details: { note: "x".repeat(64 * 1024) } }, (e) => e.additional_details],
    ];
    for (const [body, pick] of cases) {
      const r = await placeOrder(t, body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(pick(r.json.error), JSON.stringify(r.json).slice(0, 300)).toBeDefined();
    }
    // 10,000 levels, as an attacker sends them (JSON.stringify itself cannot build this text).
    const deep = JSON.stringify({ ...good(), additional_details: "DEEP" }).replace('"DEEP"', '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000));
    const r = await post("/v1/management/orders", { key: t.keys.management, raw: deep, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json.error.additional_details).toEqual(["Nested too deeply: at most 32 levels."]);
    expect(await counts()).toEqual(before);
    // Within the bounds, the details are stored as sent.
    expect((await placeOrder(t, { ...good(), additional_details: nested(10) })).status).toBe(201);
  });

  it("needs order:write", async () => {
    const r = await placeOrder({ ...t, keys: { ...t.keys, management: t.keys.managementReadOnly } }, orderBody(t, [item(refs.otcReference)]));
    expect(r.status).toBe(403);
  });
});
