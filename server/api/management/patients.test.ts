import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { submissionReturnCode } from "@/server/domain/patients/submissions";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { address, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";

const M = "/v1/management";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let readOnlyKey: string;

const FIELDS = [
  { key: "first_name", displayName: "First name", type: "text" },
  { key: "last_name", displayName: "Last name", type: "text" },
  { key: "date_of_birth", displayName: "Date of birth", type: "date" },
  { key: "phone", displayName: "Phone", type: "phone" },
  { key: "contact_email", displayName: "Contact e-mail", type: "email" },
  { key: "weight", displayName: "Weight (kg)", type: "number" },
  { key: "newsletter", displayName: "Newsletter", type: "boolean" },
  { key: "selfie", displayName: "Selfie", type: "picture" },
  { key: "nickname", displayName: "Nickname", type: "text" },
];

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  for (const tenant of [t, other]) {
    await tenant.db.patientFieldDefinition.createMany({ data: FIELDS.map((f) => ({ organisationId: tenant.organisation.id, ...f })) });
  }
  readOnlyKey = (await createApiKey({ family: "MANAGEMENT", displayName: "read", permissions: ["patient:read"], organisationId: t.organisation.id })).plaintext;
});

let customers = 0;
const newCustomerId = () => `customer-${++customers}-${Math.random().toString(36).slice(2, 8)}`;
const register = (body: Record<string, unknown>, key = t.keys.management) => post(`${M}/patients`, { key, body });
const profile = (uid: string, key = t.keys.management) => get(`${M}/patients/${uid}`, { key });

/** What one failed request could have written. */
const counts = async () => [await t.db.patientProfile.count(), await t.db.shopCustomer.count(), await t.db.patientProperty.count()];

describe("POST /v1/management/patients", () => {
  it("creates a profile for a new shop customer (201) and resolves the same one afterwards (200)", async () => {
    const shopCustomerId = newCustomerId();
    const first = await register({
      shop_uid: t.shop.id,
      shop_customer_id: shopCustomerId,
      email: "ada@example.com",
      fields: [
        { field: "first_name", value: "Ada", source: "shop" },
        { field: "last_name", value: "Lovelace" },
        { field: "date_of_birth", value: "1990-01-15", source: "User" },
        { field: "phone", value: "+49 (30) 123-4567" },
      ],
    });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({ patient_profile_uid: expect.any(String) });
    const uid = first.json.patient_profile_uid;

    const again = await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId });
    expect(again).toMatchObject({ status: 200, json: { patient_profile_uid: uid } });

    const shown = await profile(uid);
    expect(shown.status).toBe(200);
    expect(shown.json).toEqual({
      uid,
      data: { display_name: "Ada Lovelace", email: "ada@example.com", date_of_birth: "1990-01-15", first_name: "Ada", last_name: "Lovelace" },
      shop_customers: [{ shop_uid: t.shop.id, shop_identifier: t.shop.identifier, shop_customer_id: shopCustomerId, email: "ada@example.com" }],
      fields: [
        { field: "date_of_birth", display_name: "Date of birth", value: "1990-01-15", source: "user", updated_at: expect.any(Number) },
        { field: "first_name", display_name: "First name", value: "Ada", source: "shop", updated_at: expect.any(Number) },
        { field: "last_name", display_name: "Last name", value: "Lovelace", source: "shop", updated_at: expect.any(Number) },
        { field: "phone", display_name: "Phone", value: "+49301234567", source: "shop", updated_at: expect.any(Number) },
      ],
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });

    // The same customer id at another shop of the organisation is another customer: a new profile.
    const elsewhere = await register({ shop_uid: t.otherShop.id, shop_customer_id: shopCustomerId });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.json.patient_profile_uid).not.toBe(uid);
  });

  it("on resolve, replaces the e-mail of the shop customer and the profile and the given fields, keeping the names in step", async () => {
    const shopCustomerId = newCustomerId();
    const { json } = await register({
      shop_uid: t.shop.id,
      shop_customer_id: shopCustomerId,
      email: "old@example.com",
      fields: [{ field: "first_name", value: "Max" }, { field: "last_name", value: "Muster" }, { field: "weight", value: 80 }],
    });
    const resolved = await register({
      shop_uid: t.shop.id,
      shop_customer_id: shopCustomerId,
      email: "New@Example.com",
      fields: [{ field: "last_name", value: "Mustermann", source: "user" }, { field: "weight", value: "81.50" }, { field: "newsletter", value: true }],
    });
    expect(resolved).toMatchObject({ status: 200, json: { patient_profile_uid: json.patient_profile_uid } });
    const shown = (await profile(json.patient_profile_uid)).json;
    expect(shown.data).toMatchObject({ display_name: "Max Mustermann", email: "New@Example.com", first_name: "Max", last_name: "Mustermann" });
    expect(shown.shop_customers[0].email).toBe("New@Example.com");
    expect(shown.fields.map((f: { field: string; value: string; source: string }) => [f.field, f.value, f.source])).toEqual([
      ["first_name", "Max", "shop"],
      ["last_name", "Mustermann", "user"],
      ["newsletter", "true", "shop"],
      ["weight", "81.50", "shop"],
    ]);
    // Without an e-mail, a resolve keeps the stored one.
    await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId });
    expect((await profile(json.patient_profile_uid)).json.data.email).toBe("New@Example.com");
  });

  it("creates exactly one profile when the same new customer is registered concurrently", async () => {
    const shopCustomerId = newCustomerId();
    const body = { shop_uid: t.shop.id, shop_customer_id: shopCustomerId, email: "race@example.com", fields: [{ field: "first_name", value: "Rita" }] };
    const results = await Promise.all(Array.from({ length: 6 }, () => register(body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.patient_profile_uid)).size).toBe(1);
    const customers = await t.db.shopCustomer.findMany({ where: { shopId: t.shop.id, shopCustomerId } });
    expect(customers).toHaveLength(1);
    expect(await t.db.patientProfile.count({ where: { organisationId: t.organisation.id, email: "race@example.com" } })).toBe(1);
    expect(await t.db.patientProperty.count({ where: { patientId: customers[0].patientId } })).toBe(1);
  });

  it("answers 404 for a shop of another organisation or an unknown shop, and writes nothing", async () => {
    const before = await counts();
    for (const shopUid of [other.shop.id, "no-such-shop"]) {
      const r = await register({ shop_uid: shopUid, shop_customer_id: newCustomerId() });
      expect(r).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses unknown or repeated fields and values their type refuses, at fields.<i>, writing nothing", async () => {
    const known = newCustomerId();
    const { json } = await register({ shop_uid: t.shop.id, shop_customer_id: known, fields: [{ field: "first_name", value: "Kept" }] });
    const before = await counts();
    const invalid: [Record<string, unknown>, string][] = [
      [{ field: "shoe_size", value: "42" }, "field"],
      [{ field: "date_of_birth", value: "1990-02-30" }, "value"],
      [{ field: "date_of_birth", value: "15.01.1990" }, "value"],
      [{ field: "phone", value: "call me" }, "value"],
      [{ field: "phone", value: "123" }, "value"],
      [{ field: "contact_email", value: "not-an-email" }, "value"],
      [{ field: "weight", value: "80kg" }, "value"],
      [{ field: "newsletter", value: "yes" }, "value"],
      [{ field: "selfie", value: "data:image/png;base64,AAAA" }, "value"],
      [{ field: "first_name", value: "   " }, "value"],
      [{ field: "first_name", value: "x".repeat(1001) }, "value"],
    ];
    for (const [field, at] of invalid) {
      for (const shopCustomerId of [newCustomerId(), known]) {
        const r = await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId, email: "x@example.com", fields: [{ field: "nickname", value: "Valid" }, field] });
        expect(r.status, JSON.stringify(field)).toBe(400);
        expect(r.json).toEqual({ error: { fields: { 1: { [at]: [expect.any(String)] } } } });
      }
    }
    const repeated = await register({
      shop_uid: t.shop.id,
      shop_customer_id: known,
      fields: [{ field: "first_name", value: "A" }, { field: "first_name", value: "B" }],
    });
    expect(repeated.json).toEqual({ error: { fields: { 1: { field: ["This field is given more than once."] } } } });
    // Every problem at once.
    const several = await register({ shop_uid: t.shop.id, shop_customer_id: known, fields: [{ field: "nope", value: "1" }, { field: "weight", value: "heavy" }] });
    expect(Object.keys(several.json.error.fields)).toEqual(["0", "1"]);

    expect(await counts()).toEqual(before);
    expect((await profile(json.patient_profile_uid)).json).toMatchObject({ data: { display_name: "Kept", email: null } });
  });

  it("refuses malformed bodies in the validation shape, and bodies that are not JSON, writing nothing", async () => {
    const before = await counts();
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { shop_uid: [expect.any(String)], shop_customer_id: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, shop_customer_id: "  " }, { shop_customer_id: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, shop_customer_id: 42 }, { shop_customer_id: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", email: "nope" }, { email: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", fields: "first_name=Ada" }, { fields: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", fields: [{ value: "Ada" }] }, { fields: { 0: { field: [expect.any(String)] } } }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", fields: [{ field: "first_name", value: null }] }, { fields: { 0: { value: [expect.any(String)] } } }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", fields: [{ field: "first_name", value: { a: 1 } }] }, { fields: { 0: { value: [expect.any(String)] } } }],
      [{ shop_uid: t.shop.id, shop_customer_id: "c", fields: [{ field: "first_name", value: "A", source: "robot" }] }, { fields: { 0: { source: ["Must be one of: shop, survey, user."] } } }],
      [
        { shop_uid: t.shop.id, shop_customer_id: "c", fields: Array.from({ length: 101 }, () => ({ field: "first_name", value: "A" })) },
        { fields: [expect.any(String)] },
      ],
      [[], { non_field_errors: [expect.any(String)] }],
    ];
    for (const [body, error] of cases) {
      const r = await register(body as Record<string, unknown>);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(r.json).toEqual({ error });
    }
    const notJson = await post(`${M}/patients`, { key: t.keys.management, raw: "{shop_uid:", headers: { "content-type": "application/json" } });
    expect(notJson).toMatchObject({ status: 400, json: { error: "Invalid JSON in request body" } });
    expect(await counts()).toEqual(before);
  });

  it("needs patient:write (403 with patient:read only) and a key (401)", async () => {
    const body = { shop_uid: t.shop.id, shop_customer_id: newCustomerId() };
    const denied = await register(body, readOnlyKey);
    expect(denied).toMatchObject({ status: 403, json: { code: "permission_denied", description: expect.stringContaining("patient:write") } });
    expect((await post(`${M}/patients`, { body })).status).toBe(401);
  });
});

describe("order intake and the patient of a shop customer", () => {
  it("places the order of a registered customer on the same profile, and fills the customer's e-mail and names it lacked", async () => {
    const shopCustomerId = newCustomerId();
    const { json } = await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId });
    expect((await profile(json.patient_profile_uid)).json.data).toMatchObject({ display_name: "", email: null });

    const order = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: { id: shopCustomerId, email: "Order@Example.com" } }));
    expect(order.status, order.text).toBe(201);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: order.json.uid } })).patientId).toBe(json.patient_profile_uid);
    const shown = (await profile(json.patient_profile_uid)).json;
    expect(shown.shop_customers).toEqual([
      { shop_uid: t.shop.id, shop_identifier: t.shop.identifier, shop_customer_id: shopCustomerId, email: "Order@Example.com" },
    ]);
    expect(shown.data).toMatchObject({
      display_name: `${address.first_name} ${address.last_name}`,
      email: "Order@Example.com",
      first_name: address.first_name,
      last_name: address.last_name,
    });

    // A later order with another address and e-mail changes nothing that is already known.
    const later = await placeOrder(t, orderBody(t, [item(refs.otcReference)], {
      customer: { id: shopCustomerId, email: "other@example.com" },
      delivery_address: { ...address, first_name: "Someone", last_name: "Else" },
    }));
    expect((await t.db.order.findUniqueOrThrow({ where: { id: later.json.uid } })).patientId).toBe(json.patient_profile_uid);
    const after = (await profile(json.patient_profile_uid)).json;
    expect(after.shop_customers[0].email).toBe("Order@Example.com");
    expect(after.data).toMatchObject({ display_name: `${address.first_name} ${address.last_name}`, email: "Order@Example.com" });
  });

  it("resolves a customer that intake created first (200, the same profile)", async () => {
    const shopCustomerId = newCustomerId();
    const order = await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: { id: shopCustomerId } }));
    const { patientId } = await t.db.order.findUniqueOrThrow({ where: { id: order.json.uid } });
    const r = await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId, email: "later@example.com" });
    expect(r).toMatchObject({ status: 200, json: { patient_profile_uid: patientId } });
  });
});

describe("GET /v1/management/patients?email=", () => {
  it("finds the most recently created patient by profile, shop customer or order e-mail, without regard to case", async () => {
    const older = (await register({ shop_uid: t.shop.id, shop_customer_id: newCustomerId(), email: "twin@example.com" })).json.patient_profile_uid;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = (await register({ shop_uid: t.otherShop.id, shop_customer_id: newCustomerId(), email: "Twin@Example.com" })).json.patient_profile_uid;
    const r = await get(`${M}/patients`, { key: t.keys.management, query: { email: "TWIN@example.COM" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual((await profile(newer)).json);
    expect(r.json.uid).not.toBe(older);

    // Only the shop customer's e-mail matches (the profile's was changed behind it).
    const byCustomer = (await register({ shop_uid: t.shop.id, shop_customer_id: newCustomerId(), email: "customer-only@example.com" })).json.patient_profile_uid;
    await t.db.patientProfile.update({ where: { id: byCustomer }, data: { email: null } });
    expect((await get(`${M}/patients`, { key: t.keys.management, query: { email: "Customer-Only@example.com" } })).json.uid).toBe(byCustomer);

    // Only an order's customer e-mail matches: the shop customer kept the address it had.
    const shopCustomerId = newCustomerId();
    const byOrder = (await register({ shop_uid: t.shop.id, shop_customer_id: shopCustomerId, email: "first@example.com" })).json.patient_profile_uid;
    await placeOrder(t, orderBody(t, [item(refs.otcReference)], { customer: { id: shopCustomerId, email: "Via-Order@example.com" } }));
    expect((await get(`${M}/patients`, { key: t.keys.management, query: { email: "via-order@EXAMPLE.com" } })).json.uid).toBe(byOrder);
  });

  it("answers 404 when nothing matches (another organisation's patient included), 400 for a missing or invalid e-mail", async () => {
    await register({ shop_uid: other.shop.id, shop_customer_id: newCustomerId(), email: "foreign@example.com" }, other.keys.management);
    const search = (query: Record<string, string>, key = t.keys.management) => get(`${M}/patients`, { key, query });
    expect(await search({ email: "foreign@example.com" })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect((await search({ email: "foreign@example.com" }, other.keys.management)).status).toBe(200);
    expect(await search({ email: "nobody@example.com" })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await search({})).toMatchObject({ status: 400, json: { error: { email: ["This field is required."] } } });
    expect(await search({ email: "" })).toMatchObject({ status: 400, json: { error: { email: [expect.any(String)] } } });
    expect(await search({ email: "not an email" })).toMatchObject({ status: 400, json: { error: { email: [expect.any(String)] } } });
    expect((await search({ email: "foreign@example.com" }, t.keys.managementReadOnly)).status).toBe(403);
    expect((await get(`${M}/patients`, { query: { email: "foreign@example.com" } })).status).toBe(401);
  });
});

describe("GET /v1/management/patients/{patient_uid}", () => {
  it("answers 404 for another organisation's patient or an unknown uid, 403 without patient:read", async () => {
    const foreign = (await register({ shop_uid: other.shop.id, shop_customer_id: newCustomerId() }, other.keys.management)).json.patient_profile_uid;
    expect(await profile(foreign)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect((await profile("unknown")).status).toBe(404);
    expect((await profile(foreign, other.keys.management)).status).toBe(200);
    expect((await profile(foreign, other.keys.managementReadOnly)).status).toBe(403);
  });
});

describe("GET /v1/management/patients/{patient_uid}/intent/{intent}", () => {
  const intent = (uid: string, name: string, key = t.keys.management) => get(`${M}/patients/${uid}/intent/${encodeURIComponent(name)}`, { key });
  const monthsAgo = (months: number, days = 0) => {
    const date = new Date();
    date.setUTCMonth(date.getUTCMonth() - months);
    date.setUTCDate(date.getUTCDate() - days);
    return date;
  };

  /** An order waiting for a doctor whose anamnesis has `intent`, its prescription then signed at `signedAt` (or left in `status`). */
  async function submission(customerId: string, name: string, signedAt: Date | null, status = "signed") {
    const placed = await placeWaitingOrder(t, refs, { customerId });
    await t.db.questionnaireResponse.update({ where: { id: placed.anamnesisId }, data: { intent: name } });
    await t.db.prescription.update({ where: { id: placed.prescriptionId }, data: { status, signedAt } });
    const { patientId } = await t.db.questionnaireResponse.findUniqueOrThrow({ where: { id: placed.anamnesisId } });
    return { ...placed, patientId };
  }

  it("answers VALID for a submission signed within 12 months, EXPIRED when the newest is older, NOT_FOUND without one", async () => {
    const recent = await submission(newCustomerId(), "consultation", monthsAgo(11));
    expect(await intent(recent.patientId, "consultation")).toMatchObject({ status: 200, json: { return_code: "VALID" } });
    expect((await intent(recent.patientId, "hair-loss")).json).toEqual({ return_code: "NOT_FOUND" });

    const old = await submission(newCustomerId(), "consultation", monthsAgo(12, 1));
    expect((await intent(old.patientId, "consultation")).json).toEqual({ return_code: "EXPIRED" });
    // A second, newer signed submission of the same patient makes it valid again.
    const customerId = (await t.db.shopCustomer.findFirstOrThrow({ where: { patientId: old.patientId } })).shopCustomerId;
    await submission(customerId, "consultation", monthsAgo(1));
    expect((await intent(old.patientId, "consultation")).json).toEqual({ return_code: "VALID" });
  });

  it("counts a submission linked by the order item alone, and only completed ones that led to a signed prescription", async () => {
    const byItem = await submission(newCustomerId(), "consultation", monthsAgo(2));
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId: byItem.prescriptionId }, data: { anamnesisId: null } });
    expect((await intent(byItem.patientId, "consultation")).json).toEqual({ return_code: "VALID" });

    const approved = await submission(newCustomerId(), "consultation", null, "approved");
    expect((await intent(approved.patientId, "consultation")).json).toEqual({ return_code: "NOT_FOUND" });
    const declined = await submission(newCustomerId(), "consultation", monthsAgo(1), "declined");
    expect((await intent(declined.patientId, "consultation")).json).toEqual({ return_code: "NOT_FOUND" });
    const unfinished = await submission(newCustomerId(), "consultation", monthsAgo(1));
    await t.db.questionnaireResponse.update({ where: { id: unfinished.anamnesisId }, data: { status: "IN_PROGRESS" } });
    expect((await intent(unfinished.patientId, "consultation")).json).toEqual({ return_code: "NOT_FOUND" });
    const deleted = await submission(newCustomerId(), "consultation", monthsAgo(1));
    await t.db.prescription.update({ where: { id: deleted.prescriptionId }, data: { deletedAt: new Date() } });
    expect((await intent(deleted.patientId, "consultation")).json).toEqual({ return_code: "NOT_FOUND" });
  });

  it("answers 404 for another organisation's patient, 403 without patient:read", async () => {
    const mine = await submission(newCustomerId(), "consultation", monthsAgo(1));
    expect(await intent(mine.patientId, "consultation", other.keys.management)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect((await intent("unknown", "consultation")).status).toBe(404);
    expect((await intent(mine.patientId, "consultation", t.keys.managementReadOnly)).status).toBe(403);
  });

  it("draws the 12-month line at the same instant twelve calendar months back", () => {
    const now = new Date("2026-06-15T12:00:00Z");
    expect(submissionReturnCode(null, now)).toBe("NOT_FOUND");
    expect(submissionReturnCode(new Date("2025-06-15T12:00:00Z"), now)).toBe("VALID");
    expect(submissionReturnCode(new Date("2025-06-15T11:59:59Z"), now)).toBe("EXPIRED");
  });
});
