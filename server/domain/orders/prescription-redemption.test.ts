/**
 * A prescription is redeemed once, for its patient, up to its quantity (docs/decisions/prescriptions.md#prescription-redemption):
 * through the real Management routes (order intake, adding and cancelling a fulfillment, the
 * prescription), the pharmacy's own cancellation, and concurrent intakes, on PGlite and PostgreSQL.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/server/config";
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";

const M = "/v1/management";
let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let sandbox: Awaited<ReturnType<typeof ensureSandboxQes>>;

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
});

let customers = 0;
/** A new shop customer of the tenant's shop, and the patient profile intake finds for it. */
async function newCustomer() {
  const id = `redeem-customer-${++customers}`;
  const patient = await t.db.$transaction((tx) => findOrCreateShopCustomer(tx, t.organisation.id, t.shop.id, { id }, { firstName: "Max", lastName: "Rx" }));
  return { id, patientId: patient.id };
}

/** A signed prescription of the customer's patient, prescribing `quantity` of the Rx SKU (lines without an order: issued elsewhere). */
async function signedPrescription(patientId: string, lines: { skuId?: string; quantity: number }[] = [{ quantity: 1 }]) {
  return t.db.prescription.create({
    data: {
      organisationId: t.organisation.id,
      patientId,
      status: "signed",
      source: "DOCTOR",
      signedAt: new Date(),
      lines: { create: lines.map((l) => ({ skuId: l.skuId ?? t.rxSku.id, quantity: l.quantity })) },
    },
  });
}

/** An order of the customer redeeming `prescriptionId` with Rx items of these quantities (one fulfillment "f-1"). */
const redeeming = (customerId: string, prescriptionId: string, quantities: number[] = [1], overrides: Record<string, unknown> = {}) =>
  orderBody(
    t,
    quantities.map((quantity) => item(refs.rxReference, { prescription_uid: prescriptionId, quantity, total_paid: { amount: 2999 * quantity, currency: "EUR" } })),
    { customer: { id: customerId }, ...overrides },
  );

/** A signed PDF of its own (each signing is other bytes). */
async function signedPdf(patient: string) {
  return signPdfWithP12(await samplePrescriptionPdf({ patient }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
}

/** An order of the customer whose one Rx item (quantity 1) is covered by `pdf` inline (path (d)). */
function inlineOrder(customerId: string, pdf: Buffer) {
  const body = orderBody(t, [], { customer: { id: customerId } });
  body.fulfillments = [
    {
      external_id: "f-inline",
      items: [item(refs.rxReference, { prescription_reference: "rx-1", total_paid: { amount: 2999, currency: "EUR" } })],
      prescriptions: [{ id: "rx-1", pdf_base64: pdf.toString("base64") }],
    },
  ] as unknown as typeof body.fulfillments;
  return body;
}

/** The field message of item `i` of fulfillment `f` at `field`. */
const itemError = (json: any, field: string, f = 0, i = 0): string[] => json.error?.fulfillments?.[f]?.items?.[i]?.[field];

async function nothingCreated(externalId: string) {
  expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId } })).toBe(0);
}

/** What the Management prescription says is redeemed and left, line by line. */
async function redemptionShown(prescriptionId: string) {
  const r = await get(`${M}/prescriptions/${prescriptionId}`, { key: t.keys.management });
  expect(r.status, r.text).toBe(200);
  return r.json.lines.map((l: any) => ({ quantity: l.quantity, redeemed: l.redeemed_quantity, remaining: l.remaining_quantity }));
}

describe("path (c): a prescription by uid", () => {
  it("refuses a prescription of another patient (422 at the item's prescription_uid, nothing created)", async () => {
    const maxRx = await newCustomer();
    const other = await newCustomer();
    const prescription = await signedPrescription(maxRx.patientId);
    const body = redeeming(other.id, prescription.id);
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid")).toEqual([
      "This prescription was issued for another patient: a prescription is redeemed only for its own patient.",
    ]);
    expect(r.json.message).toContain(`Item "${body.fulfillments[0].items[0].external_id}" of fulfillment "f-1"`);
    await nothingCreated(body.external_id);
    // A new customer has no prescriptions at all: intake creates its patient, which is another one.
    const stranger = await placeOrder(t, redeeming(`brand-new-${prescription.id}`, prescription.id));
    expect(stranger.status).toBe(422);
    expect(itemError(stranger.json, "prescription_uid")[0]).toContain("another patient");
    // Its own patient redeems it.
    expect((await placeOrder(t, redeeming(maxRx.id, prescription.id))).status).toBe(201);
  });

  it("refuses a SKU the prescription does not prescribe", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId, [{ quantity: 2 }]);
    const body = orderBody(t, [item(refs.otcReference, { prescription_uid: prescription.id })], { customer: { id: customer.id } });
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid")).toEqual(["This prescription does not prescribe this SKU."]);
    await nothingCreated(body.external_id);
  });

  it("refuses more than is left, saying how many remain: in one item, across orders, and items of one order added up", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId, [{ quantity: 2 }]);

    let r = await placeOrder(t, redeeming(customer.id, prescription.id, [3]));
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid")).toEqual(["This prescription has 2 of 2 left to redeem for this SKU; this order asks for 3."]);

    // Two items of one order, in two fulfillments, add up.
    const split = redeeming(customer.id, prescription.id, [1]);
    split.fulfillments.push({ external_id: "f-2", items: [item(refs.rxReference, { prescription_uid: prescription.id, quantity: 2 })] } as any);
    r = await placeOrder(t, split);
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid", 0)).toEqual(["This prescription has 2 of 2 left to redeem for this SKU; this order asks for 3."]);
    expect(itemError(r.json, "prescription_uid", 1)).toEqual(["This prescription has 2 of 2 left to redeem for this SKU; this order asks for 3."]);
    await nothingCreated(split.external_id);

    const first = await placeOrder(t, redeeming(customer.id, prescription.id, [1]));
    expect(first.status, first.text).toBe(201);
    expect(await redemptionShown(prescription.id)).toEqual([{ quantity: 2, redeemed: 1, remaining: 1 }]);

    r = await placeOrder(t, redeeming(customer.id, prescription.id, [1, 1]));
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid", 0, 0)).toEqual(["This prescription has 1 of 2 left to redeem for this SKU; this order asks for 2."]);
    expect(itemError(r.json, "prescription_uid", 0, 1)).toHaveLength(1);

    expect((await placeOrder(t, redeeming(customer.id, prescription.id, [1]))).status).toBe(201);
    r = await placeOrder(t, redeeming(customer.id, prescription.id, [1]));
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid")).toEqual([
      `This prescription is already redeemed for this SKU: all 2 prescribed were redeemed (order ${first.json.uid}).`,
    ]);
    expect(await redemptionShown(prescription.id)).toEqual([{ quantity: 2, redeemed: 2, remaining: 0 }]);
  });

  it("counts the order the prescription was issued for; a cancelled fulfillment gives its quantity back", async () => {
    const customer = await newCustomer();
    const issuedBody = inlineOrder(customer.id, await signedPdf("Issued for its order"));
    const issued = await placeOrder(t, issuedBody);
    expect(issued.status, issued.text).toBe(201);
    const prescriptionId = issued.json.items[0].prescription_uid as string;
    expect(await redemptionShown(prescriptionId)).toEqual([{ quantity: 1, redeemed: 1, remaining: 0 }]);

    let r = await placeOrder(t, redeeming(customer.id, prescriptionId));
    expect(r.status, r.text).toBe(422);
    expect(itemError(r.json, "prescription_uid")[0]).toContain(`(order ${issued.json.uid})`);

    const cancelled = await post(`${M}/orders/${issuedBody.external_id}/fulfillments/f-inline/cancel`, { key: t.keys.management });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await redemptionShown(prescriptionId)).toEqual([{ quantity: 1, redeemed: 0, remaining: 1 }]);

    r = await placeOrder(t, redeeming(customer.id, prescriptionId));
    expect(r.status, r.text).toBe(201);
    expect(await redemptionShown(prescriptionId)).toEqual([{ quantity: 1, redeemed: 1, remaining: 0 }]);
    expect((await placeOrder(t, redeeming(customer.id, prescriptionId))).status).toBe(422);
  });

  it("keeps it redeemed when the pharmacy cancels: its fulfillment is given back to be routed again, not cancelled", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId);
    const placed = await placeOrder(t, redeeming(customer.id, prescription.id));
    expect(placed.status, placed.text).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: placed.json.uid } });
    const cancelled = await patch(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await redemptionShown(prescription.id)).toEqual([{ quantity: 1, redeemed: 1, remaining: 0 }]);
    expect((await placeOrder(t, redeeming(customer.id, prescription.id))).status).toBe(422);
  });

  it("answers a retried external_id with 409 and its order_uid, also when the retries race", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId);
    const body = redeeming(customer.id, prescription.id);
    const answers = await Promise.all(Array.from({ length: 4 }, () => placeOrder(t, body)));
    const created = answers.filter((a) => a.status === 201);
    expect(created, answers.map((a) => a.text).join("\n")).toHaveLength(1);
    for (const a of answers.filter((a) => a.status !== 201)) {
      expect(a.status, a.text).toBe(409);
      expect(a.json).toMatchObject({ code: "order_already_exists", order_uid: created[0].json.uid });
    }
    const again = await placeOrder(t, body);
    expect(again.status).toBe(409);
    expect(again.json.order_uid).toBe(created[0].json.uid);
  });

  it("redeems a prescription at most once under concurrent intakes (8 intakes of 1 on a prescription of 1)", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => placeOrder(t, redeeming(customer.id, prescription.id))));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    for (const a of answers.filter((a) => a.status === 422)) expect(itemError(a.json, "prescription_uid")[0]).toContain("already redeemed");
    const live = await t.db.orderItem.aggregate({ where: { prescriptionId: prescription.id, status: { not: "CANCELLED" } }, _sum: { quantity: true } });
    expect(live._sum.quantity).toBe(1);
    expect(await redemptionShown(prescription.id)).toEqual([{ quantity: 1, redeemed: 1, remaining: 0 }]);
  });

  it("checks a fulfillment added to an order the same way", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId, [{ quantity: 2 }]);
    const placedBody = redeeming(customer.id, prescription.id, [1]);
    expect((await placeOrder(t, placedBody)).status).toBe(201);
    const add = (quantity: number, externalId: string) =>
      post(`${M}/orders/${placedBody.external_id}/fulfillments`, {
        key: t.keys.management,
        body: { external_id: externalId, items: [item(refs.rxReference, { prescription_uid: prescription.id, quantity })] },
      });
    const over = await add(2, "f-more");
    expect(over.status, over.text).toBe(422);
    expect(over.json.error.items[0].prescription_uid).toEqual(["This prescription has 1 of 2 left to redeem for this SKU; this order asks for 2."]);
    // The same fulfillment twice at once, for what is left: one is added, the other is the
    // duplicate it is (409), not a redemption refusal; and so is a later retry.
    const raced = await Promise.all([add(1, "f-rest"), add(1, "f-rest")]);
    expect(raced.map((r) => r.status).sort(), raced.map((r) => r.text).join("\n")).toEqual([201, 409]);
    expect((await add(1, "f-rest")).status).toBe(409);
  });
});

describe("path (d): the same signed PDF inline again", () => {
  it("refuses a PDF already redeemed by another order, pointing to it; once given back, the PDF redeems its prescription again", async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const pdf = await signedPdf("Max Rx");
    const firstBody = inlineOrder(customer.id, pdf);
    const first = await placeOrder(t, firstBody);
    expect(first.status, first.text).toBe(201);
    const prescriptionId = first.json.items[0].prescription_uid as string;

    const again = inlineOrder(customer.id, pdf);
    let r = await placeOrder(t, again);
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.fulfillments[0].prescriptions[0].pdf_base64).toEqual([
      `This prescription PDF was already used for order ${first.json.uid}; it is redeemed (prescription ${prescriptionId}).`,
    ]);
    expect(r.json.message).toContain('Prescription "rx-1" of fulfillment "f-inline"');
    await nothingCreated(again.external_id);

    r = await placeOrder(t, inlineOrder(other.id, pdf));
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.fulfillments[0].prescriptions[0].pdf_base64).toEqual([
      `This prescription PDF is already recorded as prescription ${prescriptionId} of another patient.`,
    ]);

    const cancelled = await post(`${M}/orders/${firstBody.external_id}/fulfillments/f-inline/cancel`, { key: t.keys.management });
    expect(cancelled.status, cancelled.text).toBe(200);
    const reused = await placeOrder(t, inlineOrder(customer.id, pdf));
    expect(reused.status, reused.text).toBe(201);
    // The same document is the same prescription: no second one, and it is redeemed again.
    expect(reused.json.items[0].prescription_uid).toBe(prescriptionId);
    const sha256 = createHash("sha256").update(pdf).digest("hex");
    expect(await t.db.prescription.count({ where: { organisationId: t.organisation.id, signedFileSha256: sha256 } })).toBe(1);
    expect(await redemptionShown(prescriptionId)).toEqual([{ quantity: 1, redeemed: 1, remaining: 0 }]);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: reused.json.uid } });
    expect(po.prescriptionId).toBe(prescriptionId);
    // Neither by PDF nor by uid a second time.
    expect((await placeOrder(t, inlineOrder(customer.id, pdf))).status).toBe(422);
    expect((await placeOrder(t, redeeming(customer.id, prescriptionId))).status).toBe(422);
  });

  it("records a PDF twice in one order once: one prescription with the lines of both fulfillments", async () => {
    const customer = await newCustomer();
    const pdf = (await signedPdf("Twice in one order")).toString("base64");
    const body = orderBody(t, [], { customer: { id: customer.id } });
    body.fulfillments = ["f-a", "f-b"].map((externalId) => ({
      external_id: externalId,
      items: [item(refs.rxReference, { prescription_reference: "rx", total_paid: { amount: 2999, currency: "EUR" } })],
      prescriptions: [{ id: "rx", pdf_base64: pdf }],
    })) as unknown as typeof body.fulfillments;
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    const uids = new Set(r.json.items.map((i: any) => i.prescription_uid));
    expect(uids.size).toBe(1);
    expect(await redemptionShown([...uids][0] as string)).toEqual([
      { quantity: 1, redeemed: 1, remaining: 0 },
      { quantity: 1, redeemed: 1, remaining: 0 },
    ]);
  });

  it("lets one of two concurrent intakes of the same new PDF win", async () => {
    const customer = await newCustomer();
    const pdf = await signedPdf("Raced");
    const answers = await Promise.all(Array.from({ length: 4 }, () => placeOrder(t, inlineOrder(customer.id, pdf))));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([201, 422, 422, 422]);
    const sha256 = createHash("sha256").update(pdf).digest("hex");
    expect(await t.db.prescription.count({ where: { organisationId: t.organisation.id, signedFileSha256: sha256 } })).toBe(1);
  });
});

describe("GET /v1/management/prescriptions/{uid}", () => {
  it("shows per line what is redeemed and what is left; a SKU's lines are filled in line order", async () => {
    const customer = await newCustomer();
    const prescription = await signedPrescription(customer.patientId, [{ quantity: 2 }, { quantity: 1 }, { skuId: t.sku.id, quantity: 1 }]);
    const lines = async () => {
      const r = await get(`${M}/prescriptions/${prescription.id}`, { key: t.keys.management });
      expect(r.status, r.text).toBe(200);
      return r.json.lines as { uid: string; sku_uid: string; quantity: number; redeemed_quantity: number; remaining_quantity: number }[];
    };
    expect((await lines()).map((l) => [l.redeemed_quantity, l.remaining_quantity])).toEqual((await lines()).map((l) => [0, l.quantity]));
    expect((await placeOrder(t, redeeming(customer.id, prescription.id, [2]))).status).toBe(201);
    const rx = (await lines()).filter((l) => l.sku_uid === t.rxSku.id);
    // Lines come in uid order; the first Rx line is filled before the second.
    const firstFill = Math.min(2, rx[0].quantity);
    expect(rx.map((l) => [l.quantity, l.redeemed_quantity, l.remaining_quantity])).toEqual([
      [rx[0].quantity, firstFill, rx[0].quantity - firstFill],
      [rx[1].quantity, 2 - firstFill, rx[1].quantity - (2 - firstFill)],
    ]);
    expect((await lines()).find((l) => l.sku_uid === t.sku.id)).toMatchObject({ quantity: 1, redeemed_quantity: 0, remaining_quantity: 1 });
  });
});
