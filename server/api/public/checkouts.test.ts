/**
 * POST /v2/public-api/prescriptions/{shop_identifier} (G26) and the built-in connector behind it:
 * every G26 field adopted, the decisions of docs/decisions/intake.md#checkouts, the QES path with
 * a real signed PDF, reservations consumed (once, under a race), and completion through order intake
 * (once, under a race) with its pharmacy_order_created event.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/server/config";
import { completeCheckout, completeCheckoutByToken } from "@/server/domain/checkouts/complete-checkout";
import { checkoutByToken } from "@/server/domain/checkouts/queries";
import { createSku } from "@/server/domain/catalogue/skus";
import { ConflictError, ValidationError } from "@/server/domain/errors";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createApiKey } from "@/server/auth/api-keys";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { offerSku, withShopSkus } from "@/tests/orders";

let t: Tenant;
let other: Tenant;
let signed: Buffer;
let unsigned: Buffer;
/** Another PDF signed by the sandbox signer, for each checkout completed into an order: a signed PDF redeems its prescription once. */
let freshSigned: () => Promise<string>;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  await withShopSkus(t);
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  unsigned = await samplePrescriptionPdf({ patient: "Erika Mustermann" });
  const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
  signed = await signPdfWithP12(unsigned, readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
  let signings = 0;
  freshSigned = async () =>
    (await signPdfWithP12(await samplePrescriptionPdf({ patient: `Erika Mustermann ${++signings}` }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password)).toString("base64");
});

const url = (shop = t.shop.identifier) => `/v2/public-api/prescriptions/${shop}`;
const shipping = { first_name: "Erika", last_name: "Mustermann", address1: "Hauptstraße 5", city: "Berlin", province: null, country_code: "DE", zip: "10115" };
const patientData = { first_name: "Erika", last_name: "Mustermann", date_of_birth: 315532800, gender: "female" };

/** A checkout of one Rx line covered by a signed PDF and one OTC line. */
function body(overrides: Record<string, unknown> = {}) {
  return {
    prescriptions: [{ id: "rx-1", pdf_base64: signed.toString("base64") }],
    lines: [
      { sku_uid: t.rxSku.id, quantity: 1, prescription_id: "rx-1" },
      { sku_uid: t.sku.id, quantity: 2 },
    ],
    patient_data: patientData,
    shipping_address: shipping,
    ...overrides,
  };
}

const checkout = (b: unknown, key = t.keys.public, shop?: string) => post(url(shop), { key, body: b });
const tokenOf = (checkoutUrl: string) => checkoutUrl.split("/checkout/")[1];
const storedDraftFiles = () => {
  const dir = path.resolve(config().DATA_DIR, "prescriptions", "drafts");
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith(".")).length : 0;
};

/** Counts of what a checkout writes, to show a refused one wrote nothing. */
async function footprint() {
  return {
    drafts: await t.db.draftOrder.count({ where: { organisationId: t.organisation.id } }),
    patients: await t.db.patientProfile.count({ where: { organisationId: t.organisation.id } }),
    files: storedDraftFiles(),
  };
}

async function reservation(overrides: { shopId?: string; organisationId?: string; holdExpiresAt?: Date; status?: string } = {}) {
  return t.db.draftOrder.create({
    data: {
      organisationId: overrides.organisationId ?? t.organisation.id,
      shopId: overrides.shopId ?? t.shop.id,
      kind: "RESERVATION",
      status: overrides.status ?? "reserved",
      holdExpiresAt: overrides.holdExpiresAt ?? new Date(Date.now() + 15 * 60_000),
      lines: { create: [{ skuId: t.sku.id, quantity: 5, unitPrice: 499 }] },
    },
  });
}

describe("creating a prescription checkout", () => {
  it("answers 201 with the draft order, its checkout URL and expiry; stores the draft, its lines, the PDF and the patient", async () => {
    const r = await checkout(body({ shop_customer_id: "cust-1", prepaid: true, external_order_id: "ext-created" }));
    expect(r.status, r.text).toBe(201);
    expect(r.json).toEqual({
      draft_order_id: expect.stringMatching(/^\d+$/),
      checkout_type: "draft_order",
      status: "open",
      checkout_url: expect.stringMatching(new RegExp(`^${config().baseUrl}/checkout/[A-Za-z0-9_-]{43}$`)),
      expires_at: expect.any(Number),
    });
    const now = Math.floor(Date.now() / 1000);
    expect(r.json.expires_at).toBeGreaterThanOrEqual(now + 7 * 24 * 3600 - 5);
    expect(r.json.expires_at).toBeLessThanOrEqual(now + 7 * 24 * 3600 + 5);

    const token = tokenOf(r.json.checkout_url);
    const draft = await t.db.draftOrder.findUniqueOrThrow({
      where: { legacyId: BigInt(r.json.draft_order_id) },
      include: { lines: true, prescriptions: true, patient: true },
    });
    expect(draft).toMatchObject({ kind: "PRESCRIPTION_CHECKOUT", status: "open", holdExpiresAt: null, checkoutType: "draft_order", shopCustomerId: "cust-1" });
    // Only the token's hash is kept.
    expect(draft.checkoutTokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(draft, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(token);
    expect(draft.lines.map((l) => [l.skuId, l.quantity, l.unitPrice, l.prescriptionRef]).sort()).toEqual(
      [
        [t.rxSku.id, 1, 2999, "rx-1"],
        [t.sku.id, 2, 499, null],
      ].sort(),
    );
    expect(draft.prescriptions).toHaveLength(1);
    expect(draft.prescriptions[0]).toMatchObject({ externalRef: "rx-1", sha256: createHash("sha256").update(signed).digest("hex") });
    const file = readFileSync(path.resolve(config().DATA_DIR, "prescriptions", draft.prescriptions[0].fileKey));
    expect(file.equals(signed)).toBe(true);
    expect(draft.patient).toMatchObject({ firstName: "Erika", lastName: "Mustermann", displayName: "Erika Mustermann" });
    expect(draft.patient!.dateOfBirth!.toISOString()).toBe("1980-01-01T00:00:00.000Z");
    expect(draft.request).toMatchObject({ prepaid: true, externalOrderId: "ext-created", patientData: { gender: "female", dateOfBirth: 315532800 } });
    const shopCustomer = await t.db.shopCustomer.findUniqueOrThrow({ where: { shopId_shopCustomerId: { shopId: t.shop.id, shopCustomerId: "cust-1" } } });
    expect(shopCustomer.patientId).toBe(draft.patientId);
  });

  it("checkout_link also answers with a checkout URL; prepaid defaults to false", async () => {
    const r = await checkout(body({ checkout_type: "checkout_link" }));
    expect(r.status, r.text).toBe(201);
    expect(r.json.checkout_type).toBe("checkout_link");
    expect(r.json.checkout_url).toContain("/checkout/");
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) } });
    expect(draft.request).toMatchObject({ prepaid: false, checkoutType: "checkout_link" });
  });

  it("draft_order_without_checkout_request needs buyerIdentity, and makes no checkout URL", async () => {
    const before = await footprint();
    const refused = await checkout(body({ checkout_type: "draft_order_without_checkout_request" }));
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: { buyerIdentity: ["Required for checkout_type draft_order_without_checkout_request."] } });
    expect(await footprint()).toEqual(before);

    const r = await checkout(
      body({
        checkout_type: "draft_order_without_checkout_request",
        buyerIdentity: { email: "Buyer@Example.com", phone: "+4930123456", countryCode: "DE", customerAccessToken: "shpat-secret-token" },
      }),
    );
    expect(r.status, r.text).toBe(201);
    expect(r.json.checkout_url).toBeNull();
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) }, include: { patient: true } });
    expect(draft.checkoutTokenHash).toBeNull();
    // The shop customer is the buyer's e-mail when no shop_customer_id is sent; the access token is never stored.
    expect(draft.shopCustomerId).toBe("buyer@example.com");
    expect(draft.patient?.email).toBe("Buyer@Example.com");
    expect(JSON.stringify(draft.request)).not.toContain("shpat-secret-token");
  });

  it("without shop_customer_id or buyer e-mail the patient is a guest of this checkout; a known customer keeps its profile", async () => {
    const guest = await checkout(body());
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(guest.json.draft_order_id) } });
    expect(draft.shopCustomerId).toBe(`checkout-${draft.id}`);

    const first = await checkout(body({ shop_customer_id: "cust-known" }));
    const again = await checkout(body({ shop_customer_id: "cust-known", patient_data: { ...patientData, first_name: "Other", date_of_birth: 0 } }));
    const [a, b] = await Promise.all(
      [first, again].map((r) => t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) }, include: { patient: true } })),
    );
    expect(b.patientId).toBe(a.patientId);
    expect(b.patient).toMatchObject({ firstName: "Erika", dateOfBirth: new Date("1980-01-01T00:00:00Z") });
  });

  it("validates each G26 field in the validation body shape", async () => {
    const before = await footprint();
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ patient_data: undefined }, { patient_data: ["This field is required."] }],
      [{ patient_data: { ...patientData, gender: "x" } }, { patient_data: { gender: ["Must be one of: male, female, divers."] } }],
      [{ patient_data: { ...patientData, date_of_birth: "1980-01-01" } }, { patient_data: { date_of_birth: ["A valid number is required."] } }],
      [{ patient_data: { ...patientData, first_name: "" } }, { patient_data: { first_name: ["This field may not be blank."] } }],
      [{ checkout_type: "invoice" }, { checkout_type: ["Must be one of: checkout_link, draft_order, draft_order_without_checkout_request."] }],
      [{ prepaid: "yes" }, { prepaid: ["Must be a valid boolean."] }],
      [{ lines: [{ sku_uid: t.sku.id, quantity: 0 }] }, { lines: { 0: { quantity: ["Ensure this value is greater than or equal to 1."] } } }],
      [{ lines: [] }, { lines: ["Provide at least 1 item(s)."] }],
      [{ lines: [{ sku_uid: t.sku.id, quantity: 1, prescription_id: "nope" }] }, { lines: { 0: { prescription_id: ["No prescription with this id in the checkout's prescriptions."] } } }],
      [{ prescriptions: [{ id: "rx-1" }] }, { prescriptions: { 0: { pdf_base64: ["This field is required."] } } }],
      [{ delivery: { delivery_type: "pickup", delivery_price: 1.5 } }, { delivery: { delivery_price: ["A valid integer is required."] } }],
      [{ transaction: { transaction_id: "t", transaction_amount: -1 } }, { transaction: { transaction_amount: ["Ensure this value is greater than or equal to 0."] } }],
      [{ shipping_address: { ...shipping, country_code: "Germany" } }, { shipping_address: { country_code: ["Enter a 2-letter ISO country code, e.g. DE."] } }],
      [{ shipping_address: undefined }, { shipping_address: ["Send shipping_address (or billing_address): the order is delivered there."] }],
      [{ buyerIdentity: { email: "not-an-email" } }, { buyerIdentity: { email: [expect.any(String)] } }],
    ];
    for (const [overrides, error] of cases) {
      const r = await checkout(body(overrides));
      expect(r.status, JSON.stringify(overrides)).toBe(400);
      expect(r.json, JSON.stringify(overrides)).toEqual({ error });
    }
    expect(await footprint()).toEqual(before);
  });

  it("accepts billing_address alone, delivery and transaction, and keeps them for the order", async () => {
    const r = await checkout(
      body({
        shipping_address: undefined,
        billing_address: shipping,
        delivery: { delivery_type: "pickup", delivery_price: 495 },
        transaction: { transaction_id: "tx-1", transaction_amount: 6492 },
      }),
    );
    expect(r.status, r.text).toBe(201);
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) } });
    expect(draft.request).toMatchObject({
      billingAddress: { address1: "Hauptstraße 5", countryCode: "DE" },
      shippingAddress: null,
      delivery: { deliveryType: "pickup", deliveryPrice: 495 },
      transaction: { transactionId: "tx-1", transactionAmount: 6492 },
    });
  });

  it("refuses SKUs the shop does not sell, and a prescription-only product without a prescription", async () => {
    const before = await footprint();
    const r = await checkout(
      body({
        prescriptions: [],
        lines: [
          { sku_uid: t.rxSku.id, quantity: 1 },
          { sku_uid: other.sku.id, quantity: 1 },
          { sku_uid: t.digitalSku.id, quantity: 1 }, // the organisation's, but no shop SKU in this shop
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        lines: {
          0: { non_field_errors: ["This product requires a prescription: set prescription_id to one of the checkout's prescriptions."] },
          1: { sku_uid: ["No SKU with this uid in the shop."] },
          2: { sku_uid: ["No SKU with this uid in the shop."] },
        },
      },
    });
    expect(await footprint()).toEqual(before);
  });

  it("validates inline prescriptions with intake's QES validation: malformed Base64 400, unsigned 422, nothing written", async () => {
    const before = await footprint();
    const malformed = await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: "not base64!" }] }));
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ error: { prescriptions: { 0: { pdf_base64: ["Enter the PDF as standard, padded Base64."] } } } });

    const r = await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: unsigned.toString("base64") }] }));
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/^Prescription "rx-1": /);
    expect(r.json.error.prescriptions[0].pdf_base64[0]).toBe(r.json.message);

    const corrupt = await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: Buffer.from("%PDF-1.7 garbage").toString("base64") }] }));
    expect(corrupt.status).toBe(422);
    // Shop and lines are checked first, as intake checks references before PDFs.
    expect((await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: "bad" }] }), t.keys.public, other.shop.identifier)).status).toBe(404);
    const both = await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: unsigned.toString("base64") }], lines: [{ sku_uid: other.sku.id, quantity: 1 }] }));
    expect(both.status).toBe(400);
    expect(both.json).toEqual({ error: { lines: { 0: { sku_uid: ["No SKU with this uid in the shop."] } } } });
    expect(await footprint()).toEqual(before);
  });

  it("404 for an unknown shop or another organisation's shop; 401 and 403 in the auth body; Bearer and X-Service-Authorization work", async () => {
    for (const shop of ["no-such-shop", other.shop.identifier]) {
      const r = await checkout(body(), t.keys.public, shop);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "Resource not found" });
    }
    const none = await post(url(), { body: body() });
    expect(none.status).toBe(401);
    expect(none.json.code).toBe("authorization_header_missing");
    const readOnly = (await createApiKey({ family: "PUBLIC", displayName: "ro", permissions: ["product:read"], organisationId: t.organisation.id })).plaintext;
    const denied = await checkout(body(), readOnly);
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ code: "permission_denied", description: "The API key lacks the permission create_prescription_checkout." });
    const management = await checkout(body(), t.keys.management);
    expect(management.status).toBe(401);
    const bearer = await post(url(), { headers: { authorization: `Bearer ${t.keys.public}` }, body: body() });
    expect(bearer.status).toBe(201);
    const legacy = await post(url(), { headers: { "x-service-authorization": t.keys.public }, body: body() });
    expect(legacy.status).toBe(201);
  });

  it("an external_order_id already used by an order or another checkout is a 409", async () => {
    const first = await checkout(body({ external_order_id: "ext-dup" }));
    expect(first.status).toBe(201);
    const again = await checkout(body({ external_order_id: "ext-dup" }));
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ code: "checkout_already_exists", draft_order_id: first.json.draft_order_id, error: "A checkout with this external_order_id already exists" });

    const { orderId } = await completeCheckoutByToken(tokenOf(first.json.checkout_url));
    const third = await checkout(body({ external_order_id: "ext-dup" }));
    expect(third.status).toBe(409);
    expect(third.json).toMatchObject({ code: "order_already_exists", order_uid: orderId });
  });
});

describe("consuming a reservation (reserved_draft_order_id)", () => {
  it("turns the reservation into the checkout: same id, hold released, lines replaced", async () => {
    const held = await reservation();
    const r = await checkout(body({ reserved_draft_order_id: held.legacyId.toString() }));
    expect(r.status, r.text).toBe(201);
    expect(r.json.draft_order_id).toBe(held.legacyId.toString());
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { id: held.id }, include: { lines: true } });
    expect(draft).toMatchObject({ kind: "PRESCRIPTION_CHECKOUT", status: "open", holdExpiresAt: null });
    expect(draft.lines.map((l) => l.quantity).sort()).toEqual([1, 2]);
  });

  it("refuses an unknown, foreign or malformed id (400), an expired or used reservation (409), writing nothing", async () => {
    const otherShop = await reservation({ shopId: t.otherShop.id });
    const foreign = await t.db.draftOrder.create({
      data: { organisationId: other.organisation.id, shopId: other.shop.id, kind: "RESERVATION", status: "reserved", holdExpiresAt: new Date(Date.now() + 60_000) },
    });
    const expired = await reservation({ holdExpiresAt: new Date(Date.now() - 1000) });
    const expiredStatus = await reservation({ status: "expired" });
    const used = await reservation();
    expect((await checkout(body({ reserved_draft_order_id: used.legacyId.toString() }))).status).toBe(201);

    const before = await footprint();
    for (const id of ["999999999", "abc", otherShop.legacyId.toString(), foreign.legacyId.toString()]) {
      const r = await checkout(body({ reserved_draft_order_id: id }));
      expect(r.status, id).toBe(400);
      expect(r.json).toEqual({ error: { reserved_draft_order_id: ["No reservation with this id in the shop."] } });
    }
    for (const draft of [expired, expiredStatus]) {
      const r = await checkout(body({ reserved_draft_order_id: draft.legacyId.toString() }));
      expect(r.status).toBe(409);
      expect(r.json).toEqual({ code: "reservation_expired", error: "The reservation has expired." });
    }
    const r = await checkout(body({ reserved_draft_order_id: used.legacyId.toString() }));
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ code: "reservation_already_used", error: "The reservation has already been used by a checkout." });
    expect(await footprint()).toEqual(before);
    expect(await t.db.draftOrder.findUniqueOrThrow({ where: { id: expired.id } })).toMatchObject({ kind: "RESERVATION", status: "reserved" });
  });

  it("concurrent checkouts naming one reservation: exactly one wins", async () => {
    const held = await reservation();
    const before = await footprint();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => checkout(body({ reserved_draft_order_id: held.legacyId.toString(), shop_customer_id: `racer-${i}` }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.code === "reservation_already_used")).toBe(true);
    const after = await footprint();
    expect(after.drafts).toBe(before.drafts);
    expect(after.files).toBe(before.files + 1);
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { id: held.id }, include: { prescriptions: true } });
    expect(draft.prescriptions).toHaveLength(1);
  });
});

describe("completing a checkout (the built-in connector)", () => {
  it("creates the order through intake: inline prescription, routing, pharmacy_order_created; the draft completed with it", async () => {
    const r = await checkout(
      body({
        prescriptions: [{ id: "rx-1", pdf_base64: await freshSigned() }],
        shop_customer_id: "cust-complete",
        buyerIdentity: { email: "erika@example.com" },
        external_order_id: "ext-complete",
        prepaid: true,
        delivery: { delivery_type: "shipping", delivery_price: 495 },
        transaction: { transaction_id: "tx-9", transaction_amount: 4492 },
      }),
    );
    const token = tokenOf(r.json.checkout_url);
    const view = await checkoutByToken(token);
    expect(view).toMatchObject({ state: "open", shopName: "Shop", prescriptions: ["rx-1"] });

    const { orderId, alreadyCompleted } = await completeCheckoutByToken(token);
    expect(alreadyCompleted).toBe(false);
    const order = await t.db.order.findUniqueOrThrow({
      where: { id: orderId },
      include: { items: true, prescriptions: true, pharmacyOrders: true, shopOrder: true },
    });
    expect(order).toMatchObject({
      externalId: "ext-complete",
      status: "waiting for pharmacy",
      customerEmail: "erika@example.com",
      shippingCostAmount: 495,
      shippingCostCurrency: "EUR",
    });
    expect(order.deliveryAddress).toMatchObject({ street: "Hauptstraße", house_number: "5", zip_code: "10115", country: "DE" });
    expect(order.additionalDetails).toMatchObject({
      prepaid: "true",
      checkout: { draft_order_id: r.json.draft_order_id, checkout_type: "draft_order", transaction: { transaction_id: "tx-9", transaction_amount: 4492 } },
    });
    expect(order.items.map((i) => [i.skuId, i.quantity, i.totalPaidAmount]).sort()).toEqual(
      [
        [t.rxSku.id, 1, 2999],
        [t.sku.id, 2, 998],
      ].sort(),
    );
    expect(order.prescriptions).toHaveLength(1);
    expect(order.prescriptions[0]).toMatchObject({ status: "EXTERNALLY_SIGNED", source: "INLINE_PDF" });
    expect(order.pharmacyOrders).toHaveLength(1);
    const events = await t.db.outboxEvent.findMany({ where: { subjectId: order.pharmacyOrders[0].id, eventType: "pharmacy_order_created" } });
    expect(events).toHaveLength(1);
    // The order and its inline prescription as the Management API's subscribers hear of them.
    const created = await t.db.outboxEvent.findMany({ where: { subjectId: { in: [orderId, order.prescriptions[0].id] } }, orderBy: { eventType: "asc" } });
    expect(created.map((e) => [e.eventType, e.subjectId])).toEqual([
      ["order_created", orderId],
      ["prescription_created", order.prescriptions[0].id],
    ]);
    const customer = await t.db.shopCustomer.findUniqueOrThrow({ where: { shopId_shopCustomerId: { shopId: t.shop.id, shopCustomerId: "cust-complete" } } });
    expect(order.patientId).toBe(customer.patientId);

    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) } });
    expect(draft).toMatchObject({ status: "completed", orderId });
    expect(draft.completedAt).not.toBeNull();
    expect(await checkoutByToken(token)).toMatchObject({ state: "completed", order: { uid: orderId, name: "ext-complete" } });
    // Again: the same order, nothing new.
    expect(await completeCheckoutByToken(token)).toEqual({ orderId, alreadyCompleted: true });
  });

  it("derives the order's external_id from the draft when no external_order_id was sent", async () => {
    const r = await checkout(body({ prescriptions: [{ id: "rx-1", pdf_base64: await freshSigned() }] }));
    const { orderId } = await completeCheckoutByToken(tokenOf(r.json.checkout_url));
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.externalId).toBe(`checkout-${r.json.draft_order_id}`);
  });

  it("two confirmations at once make one order", async () => {
    const r = await checkout(body({ shop_customer_id: "cust-race", prescriptions: [{ id: "rx-1", pdf_base64: await freshSigned() }] }));
    const token = tokenOf(r.json.checkout_url);
    const results = await Promise.all([completeCheckoutByToken(token), completeCheckoutByToken(token), completeCheckoutByToken(token)]);
    expect(new Set(results.map((x) => x.orderId)).size).toBe(1);
    expect(results.filter((x) => !x.alreadyCompleted)).toHaveLength(1);
    const orders = await t.db.order.findMany({ where: { externalId: `checkout-${r.json.draft_order_id}` }, include: { pharmacyOrders: true } });
    expect(orders).toHaveLength(1);
    expect(orders[0].pharmacyOrders).toHaveLength(1);
    expect(await t.db.outboxEvent.count({ where: { subjectId: orders[0].id, eventType: "order_created" } })).toBe(1);
  });

  it("an expired checkout cannot be completed; an unknown or malformed token is not found", async () => {
    const r = await checkout(body());
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) } });
    await t.db.draftOrder.update({ where: { id: draft.id }, data: { request: { ...(draft.request as object), expiresAt: Math.floor(Date.now() / 1000) - 1 } } });
    const token = tokenOf(r.json.checkout_url);
    expect(await checkoutByToken(token)).toMatchObject({ state: "expired" });
    await expect(completeCheckout(draft.id)).rejects.toThrow(ConflictError);
    await expect(completeCheckout(draft.id)).rejects.toMatchObject({ code: "checkout_expired" });
    expect(await t.db.order.count({ where: { externalId: `checkout-${r.json.draft_order_id}` } })).toBe(0);

    expect(await checkoutByToken("A".repeat(43))).toBeNull();
    expect(await checkoutByToken("../etc")).toBeNull();
    await expect(completeCheckoutByToken("A".repeat(43))).rejects.toMatchObject({ message: "Resource not found" });
  });

  it("a shop SKU removed since the checkout: intake refuses, the checkout stays open", async () => {
    const sku = await createSku(t.organisation.id, t.product.id, { displayName: "Aspirin 100 mg", pzn: "44444444" }, { type: "SYSTEM" });
    const shopSku = await offerSku(t, { shopVariationId: "var-soon-gone", price: 299, skuId: sku.id });
    const r = await checkout(body({ lines: [{ sku_uid: sku.id, quantity: 1 }], prescriptions: [] }));
    expect(r.status, r.text).toBe(201);
    await t.db.shopSku.update({ where: { id: shopSku.id }, data: { deletedAt: new Date() } });
    const token = tokenOf(r.json.checkout_url);
    await expect(completeCheckoutByToken(token)).rejects.toThrow(ValidationError);
    expect(await checkoutByToken(token)).toMatchObject({ state: "open", order: null });
  });

  it("a paid checkout no pharmacy can stock completes into an order that waits as pharmacy not found", async () => {
    const r = await checkout(body({ lines: [{ sku_uid: t.sku.id, quantity: 1000 }], prescriptions: [] }));
    expect(r.status).toBe(201);
    const token = tokenOf(r.json.checkout_url);
    await completeCheckoutByToken(token);
    const completed = await checkoutByToken(token);
    expect(completed).toMatchObject({ state: "completed", order: { uid: expect.any(String) } });
    const order = await t.db.order.findUniqueOrThrow({ where: { id: completed!.order!.uid } });
    expect(order.status).toBe("pharmacy not found");
  });
});

describe("API explorer", () => {
  it("documents both checkouts with their bodies", async () => {
    const r = await get("/v2/public-api/apidocs/openapi.json");
    expect(r.status).toBe(200);
    const paths = r.json.paths as Record<string, Record<string, { requestBody?: unknown }>>;
    expect(paths["/v2/public-api/prescriptions/{shop_identifier}/"]?.post?.requestBody).toBeTruthy();
    expect(paths["/v2/public-api/treatments/{shop_identifier}/"]?.post?.requestBody).toBeTruthy();
  });
});
