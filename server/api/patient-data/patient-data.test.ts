import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { holdRateLimitWindowForTests } from "@/server/rest/rate-limit";
import { createApiKey } from "@/server/auth/api-keys";
import { createPatientTokenSecret } from "@/server/domain/patient-tokens/secrets";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { call, get, post } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { mintPatientToken, type TokenSecret } from "@/tests/patient-tokens";
import { placeWaitingOrder } from "@/tests/prescription-orders";

const P = "/api/v0/patient";
const TOKEN_HEADER = "X-Service-Booking-Token";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let secret: TokenSecret;
let noPermissionKey: string;

const FIELDS = [
  { key: "first_name", displayName: "First name", type: "text" },
  { key: "last_name", displayName: "Last name", type: "text" },
  { key: "date_of_birth", displayName: "Date of birth", type: "date" },
  { key: "phone", displayName: "Phone", type: "phone" },
  { key: "weight", displayName: "Weight (kg)", type: "number" },
  { key: "selfie", displayName: "Selfie", type: "picture", source: "user" },
];

let customers = 0;
const newCustomerId = () => `pd-customer-${++customers}-${Math.random().toString(36).slice(2, 8)}`;

/** A customer of `shop` (its patient created through the Management API). */
async function customerOf(tenant: Tenant, shop = tenant.shop) {
  const id = newCustomerId();
  const created = await post("/v1/management/patients", { key: tenant.keys.management, body: { shop_uid: shop.id, shop_customer_id: id } });
  expect(created.status, created.text).toBe(201);
  return { shop_identifier: shop.identifier, shop_customer_id: id, patientId: created.json.patient_profile_uid as string };
}

type Customer = { shop_identifier: string; shop_customer_id: string };
const who = (c: Customer) => ({ shop_identifier: c.shop_identifier, shop_customer_id: c.shop_customer_id });
const tokenHeaders = (token: string) => ({ [TOKEN_HEADER]: token });

const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
const setProperty = (c: Customer, fields: Record<string, string>, auth: { key?: string; headers?: Record<string, string> } = { key: t.keys.public }) =>
  post(`${P}/properties`, { key: auth.key, query: who(c), raw: form(fields).raw, headers: { ...form(fields).headers, ...auth.headers } });
const getProperty = (c: Customer, field: string, auth: { key?: string; headers?: Record<string, string> } = { key: t.keys.public }) =>
  get(`${P}/properties`, { ...auth, query: { ...who(c), field } });
const getIntent = (c: Customer, intent: string, auth: { key?: string; headers?: Record<string, string> } = { key: t.keys.public }) =>
  get(`${P}/intent`, { ...auth, query: { ...who(c), intent } });

const propertyRows = () => t.db.patientProperty.count();

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  for (const tenant of [t, other]) {
    await tenant.db.patientFieldDefinition.createMany({ data: FIELDS.map((f) => ({ organisationId: tenant.organisation.id, ...f })) });
  }
  const created = await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "Shop backend" });
  secret = { kid: created.id, secret: created.secret, audience: created.audience };
  noPermissionKey = (await createApiKey({ family: "PUBLIC", displayName: "no patient data", permissions: ["product:read"], organisationId: t.organisation.id })).plaintext;
});

describe("authentication: a Public key with patient_data in X-API-Key, or a patient token", () => {
  it("accepts a Public key with patient_data in X-API-Key; 403 permission_denied without it", async () => {
    const c = await customerOf(t);
    expect(await getProperty(c, "phone")).toMatchObject({ status: 200 });
    expect(await getProperty(c, "phone", { key: noPermissionKey })).toMatchObject({
      status: 403,
      json: { code: "permission_denied", description: expect.stringContaining("patient_data") },
    });
  });

  it("does not accept the key as Authorization: Bearer or X-Service-Authorization (Public API only): 401 api_key_missing", async () => {
    const c = await customerOf(t);
    const legacy: Record<string, string>[] = [{ authorization: `Bearer ${t.keys.public}` }, { "x-service-authorization": t.keys.public }];
    for (const headers of legacy) {
      const answer = await getProperty(c, "phone", { headers });
      expect(answer).toMatchObject({ status: 401, json: { code: "api_key_missing", description: expect.any(String) } });
    }
  });

  it("answers 401 authorization_header_missing without credentials, invalid_api_key for a key of another family or unknown", async () => {
    const c = await customerOf(t);
    expect(await getProperty(c, "phone", {})).toMatchObject({ status: 401, json: { code: "authorization_header_missing" } });
    expect(await getProperty(c, "phone", { key: t.keys.management })).toMatchObject({ status: 401, json: { code: "invalid_api_key" } });
    expect(await getProperty(c, "phone", { key: "rxp_unknown" })).toMatchObject({ status: 401, json: { code: "invalid_api_key" } });
  });

  it("refuses a key and a token together, and a blank token header, with 401 invalid_header", async () => {
    const c = await customerOf(t);
    const token = await mintPatientToken(secret, who(c));
    expect(await getProperty(c, "phone", { key: t.keys.public, headers: tokenHeaders(token) })).toMatchObject({ status: 401, json: { code: "invalid_header" } });
    expect(await getProperty(c, "phone", { headers: tokenHeaders(" ") })).toMatchObject({ status: 401, json: { code: "invalid_header" } });
  });
});

describe("patient tokens (HS256 JWT, kid of an organisation secret)", () => {
  let c: Awaited<ReturnType<typeof customerOf>>;
  beforeAll(async () => {
    c = await customerOf(t);
  });
  const withToken = (token: string) => getProperty(c, "phone", { headers: tokenHeaders(token) });
  const refusal = async (token: string) => {
    const answer = await withToken(token);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.json).toEqual({ code: expect.any(String), description: expect.any(String) });
    return answer.json.code as string;
  };

  it("accepts a valid token for its customer, and records the secret's last use", async () => {
    const answer = await withToken(await mintPatientToken(secret, who(c)));
    expect(answer.status, answer.text).toBe(200);
    expect((await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: secret.kid } })).lastUsedAt).not.toBeNull();
  });

  it("answers token_expired for an expired token (beyond 30 s of clock tolerance), and accepts one within it", async () => {
    expect(await refusal(await mintPatientToken(secret, { ...who(c), iat: -300, nbf: -300, exp: -31 }))).toBe("token_expired");
    expect((await withToken(await mintPatientToken(secret, { ...who(c), iat: -300, nbf: -300, exp: -20 }))).status).toBe(200);
    // Issued more than 15 minutes ago: expired, whatever its exp says.
    expect(await refusal(await mintPatientToken(secret, { ...who(c), iat: -16 * 60, nbf: -16 * 60, exp: 60 }))).toBe("token_expired");
  });

  it("answers invalid_claims for a wrong audience, a token not yet valid, an iat in the future, a lifetime over 15 minutes", async () => {
    expect(await refusal(await mintPatientToken(secret, { ...who(c), audience: "rxscale-scheduling" }))).toBe("invalid_claims");
    expect(await refusal(await mintPatientToken(secret, { ...who(c), nbf: 120 }))).toBe("invalid_claims");
    expect(await refusal(await mintPatientToken(secret, { ...who(c), iat: 120, nbf: 0, exp: 300 }))).toBe("invalid_claims");
    expect(await refusal(await mintPatientToken(secret, { ...who(c), exp: 16 * 60 }))).toBe("invalid_claims");
    expect((await withToken(await mintPatientToken(secret, { ...who(c), exp: 15 * 60 }))).status).toBe(200);
  });

  it("answers invalid_claims for a missing required claim or a customer claim that is not text", async () => {
    for (const claim of ["exp", "nbf", "iat", "aud", "shop_identifier", "shop_customer_id"]) {
      expect(await refusal(await mintPatientToken(secret, { ...who(c), claims: { [claim]: undefined } })), claim).toBe("invalid_claims");
    }
    for (const value of [42, "", " ", "a\u0000b", "x".repeat(256)]) {
      expect(await refusal(await mintPatientToken(secret, { ...who(c), shop_customer_id: value })), JSON.stringify(value)).toBe("invalid_claims");
    }
  });

  it("answers invalid_claims for a shop of another organisation or an unknown shop", async () => {
    const foreign = await customerOf(other);
    expect(await refusal(await mintPatientToken(secret, who(foreign)))).toBe("invalid_claims");
    expect(await refusal(await mintPatientToken(secret, { shop_identifier: "no-such-shop", shop_customer_id: c.shop_customer_id }))).toBe("invalid_claims");
    // Another organisation's secret for this organisation's shop: the same.
    const theirs = await createPatientTokenSecret({ organisationId: other.organisation.id, displayName: "theirs" });
    expect(await refusal(await mintPatientToken({ kid: theirs.id, secret: theirs.secret, audience: theirs.audience }, who(c)))).toBe("invalid_claims");
  });

  it("answers invalid_header for an unknown kid, a wrong secret, a tampered signature, alg none or another alg, and what is no JWT", async () => {
    expect(await refusal(await mintPatientToken(secret, { ...who(c), kid: "00000000-0000-0000-0000-000000000000" }))).toBe("invalid_header");
    expect(await refusal(await mintPatientToken({ ...secret, secret: "not-the-secret" }, who(c)))).toBe("invalid_header");
    const valid = await mintPatientToken(secret, who(c));
    const [header, payload, signature] = valid.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    expect(await refusal(`${header}.${payload}.${flipped}`)).toBe("invalid_header");
    // Another customer's claims under this token's signature.
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), shop_customer_id: "someone-else" })).toString("base64url");
    expect(await refusal(`${header}.${forged}.${signature}`)).toBe("invalid_header");
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    expect(await refusal(`${b64({ alg: "none", kid: secret.kid })}.${payload}.`)).toBe("invalid_header");
    expect(await refusal(await mintPatientToken(secret, { ...who(c), alg: "HS512" }))).toBe("invalid_header");
    expect(await refusal(`${b64({ alg: "HS256" })}.${payload}.${signature}`)).toBe("invalid_header");
    for (const garbage of ["abc", "a.b.c", "x".repeat(5000), `${b64({ alg: "HS256", kid: "a\u0000b" })}.${payload}.${signature}`]) {
      expect(await refusal(garbage)).toBe("invalid_header");
    }
  });

  it("scopes the request to the token's customer: another customer or shop in the query is not found (404)", async () => {
    const token = await mintPatientToken(secret, who(c));
    const neighbour = await customerOf(t);
    expect(await getProperty(neighbour, "phone", { headers: tokenHeaders(token) })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await getIntent(neighbour, "consultation", { headers: tokenHeaders(token) })).toMatchObject({ status: 404 });
    const before = await propertyRows();
    expect(await setProperty(neighbour, { field: "phone", value: "+4930123456" }, { headers: tokenHeaders(token) })).toMatchObject({ status: 404 });
    expect(await propertyRows()).toBe(before);
    expect(await getProperty({ ...who(c), shop_identifier: t.otherShop.identifier }, "phone", { headers: tokenHeaders(token) })).toMatchObject({ status: 404 });
  });

  it("answers 404 for a token naming a customer of another shop of the organisation (no such customer in its shop)", async () => {
    const elsewhere = await customerOf(t, t.otherShop);
    const token = await mintPatientToken(secret, { shop_identifier: t.shop.identifier, shop_customer_id: elsewhere.shop_customer_id });
    const answer = await getProperty({ shop_identifier: t.shop.identifier, shop_customer_id: elsewhere.shop_customer_id }, "phone", { headers: tokenHeaders(token) });
    expect(answer).toMatchObject({ status: 404, json: { error: "Resource not found" } });
  });

  describe("rate limit", () => {
    // The test's requests in one window, however slowly they are served (server/rest/rate-limit.test.ts).
    beforeEach(() => holdRateLimitWindowForTests(3600));
    afterEach(() => {
      holdRateLimitWindowForTests();
      process.env.RATE_LIMIT_PER_SECOND = "1000000";
      reloadConfig();
    });

    it("counts a token's requests per token, so other tokens of the same secret are not held back", async () => {
      process.env.RATE_LIMIT_PER_SECOND = "3";
      reloadConfig();
      const token = await mintPatientToken(secret, who(c));
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await getProperty(c, "phone", { headers: { ...tokenHeaders(token), "x-forwarded-for": `10.9.0.${i}` } })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const another = await mintPatientToken(secret, { ...who(c), exp: 299 });
      expect((await getProperty(c, "phone", { headers: { ...tokenHeaders(another), "x-forwarded-for": "10.9.1.1" } })).status).toBe(200);
    });
  });

  it("serves all three operations with a token", async () => {
    const token = await mintPatientToken(secret, who(c));
    expect(await getIntent(c, "consultation", { headers: tokenHeaders(token) })).toMatchObject({ status: 200, json: { return_code: "no_signed_submission" } });
    expect(await setProperty(c, { field: "weight", value: "72.5" }, { headers: tokenHeaders(token) })).toMatchObject({ status: 200, json: { value: "72.5" } });
    expect(await getProperty(c, "weight", { headers: tokenHeaders(token) })).toMatchObject({ status: 200, json: { value: "72.5" } });
  });
});

describe("GET /api/v0/patient/intent", () => {
  const monthsAgo = (months: number, days = 0) => {
    const date = new Date();
    date.setUTCMonth(date.getUTCMonth() - months);
    date.setUTCDate(date.getUTCDate() - days);
    return date;
  };

  /** An order waiting for a doctor whose anamnesis has `intent`, its prescription then signed at `signedAt`. */
  async function signedSubmission(customerId: string, intent: string, signedAt: Date) {
    const placed = await placeWaitingOrder(t, refs, { customerId });
    await t.db.questionnaireResponse.update({ where: { id: placed.anamnesisId }, data: { intent } });
    await t.db.prescription.update({ where: { id: placed.prescriptionId }, data: { status: "signed", signedAt } });
    return { shop_identifier: t.shop.identifier, shop_customer_id: customerId };
  }

  it("answers signed_within_12_months, signed_more_than_12_months_ago or no_signed_submission (the Management endpoint's 12-month rule)", async () => {
    const recent = await signedSubmission(newCustomerId(), "consultation", monthsAgo(11));
    expect(await getIntent(recent, "consultation")).toMatchObject({ status: 200, json: { return_code: "signed_within_12_months" } });
    expect((await getIntent(recent, "hair-loss")).json).toEqual({ return_code: "no_signed_submission" });
    const old = await signedSubmission(newCustomerId(), "consultation", monthsAgo(12, 1));
    expect((await getIntent(old, "consultation")).json).toEqual({ return_code: "signed_more_than_12_months_ago" });
  });

  it("answers 404 for an unknown patient, a customer of another shop, an unknown shop and another organisation's shop", async () => {
    const notFound = { status: 404, json: { error: "Resource not found" } };
    expect(await getIntent({ shop_identifier: t.shop.identifier, shop_customer_id: "nobody" }, "consultation")).toMatchObject(notFound);
    const elsewhere = await customerOf(t, t.otherShop);
    expect(await getIntent({ ...who(elsewhere), shop_identifier: t.shop.identifier }, "consultation")).toMatchObject(notFound);
    expect(await getIntent({ shop_identifier: "no-such-shop", shop_customer_id: elsewhere.shop_customer_id }, "consultation")).toMatchObject(notFound);
    const foreign = await customerOf(other);
    expect(await getIntent(foreign, "consultation")).toMatchObject(notFound);
  });

  it("requires shop_customer_id, shop_identifier and intent (400 naming each)", async () => {
    const answer = await get(`${P}/intent`, { key: t.keys.public });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.json.error).sort()).toEqual(["intent", "shop_customer_id", "shop_identifier"]);
  });
});

describe("GET /api/v0/patient/properties", () => {
  it("answers the field with the patient's value, or null while unset", async () => {
    const c = await customerOf(t);
    expect(await getProperty(c, "phone")).toMatchObject({
      status: 200,
      json: { field: "phone", display_name: "Phone", type: "phone", source: "shop", value: null, value_source: null, updated_at: null },
    });
    expect((await setProperty(c, { field: "phone", value: "+49 30 123 456" })).status).toBe(200);
    const shown = await getProperty(c, "phone");
    expect(shown.json).toEqual({
      field: "phone",
      display_name: "Phone",
      type: "phone",
      source: "shop",
      value: "+4930123456",
      value_source: "shop",
      updated_at: expect.any(Number),
    });
    expect(Math.abs(shown.json.updated_at - Date.now() / 1000)).toBeLessThan(60);
  });

  it("answers 400 on field for a key the organisation does not define, 404 for an unknown patient or another organisation's shop", async () => {
    const c = await customerOf(t);
    expect(await getProperty(c, "favourite_colour")).toMatchObject({ status: 400, json: { error: { field: [expect.any(String)] } } });
    expect(await getProperty({ ...who(c), shop_customer_id: "nobody" }, "phone")).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await getProperty(await customerOf(other), "phone")).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    const missing = await get(`${P}/properties`, { key: t.keys.public, query: who(c) });
    expect(missing).toMatchObject({ status: 400, json: { error: { field: [expect.any(String)] } } });
  });
});

describe("POST /api/v0/patient/properties", () => {
  it("sets a field from url-encoded form data and answers the field as GET shows it", async () => {
    const c = await customerOf(t);
    const answer = await setProperty(c, { field: "weight", value: " 81 " });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ ...(await getProperty(c, "weight")).json, value: "81" });
  });

  it("sets a field from multipart form data, and first_name, last_name, date_of_birth keep the profile in step", async () => {
    const c = await customerOf(t);
    const multipart = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) data.append(k, v);
      return post(`${P}/properties`, { key: t.keys.public, query: who(c), raw: data });
    };
    expect((await multipart({ field: "first_name", value: "Ada" })).json).toMatchObject({ field: "first_name", value: "Ada" });
    expect((await multipart({ field: "last_name", value: "Lovelace" })).status).toBe(200);
    expect((await multipart({ field: "date_of_birth", value: "1990-01-15" })).status).toBe(200);
    const profile = await get(`/v1/management/patients/${c.patientId}`, { key: t.keys.management });
    expect(profile.json.data).toMatchObject({ display_name: "Ada Lovelace", first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-15" });
  });

  it("checks the value against the field's type; an unknown key or a type set by no value is refused on its field; nothing written", async () => {
    const c = await customerOf(t);
    const before = await propertyRows();
    const cases: [Record<string, string>, string][] = [
      [{ field: "date_of_birth", value: "1990-02-30" }, "value"],
      [{ field: "phone", value: "call me" }, "value"],
      [{ field: "weight", value: "heavy" }, "value"],
      [{ field: "first_name", value: "   " }, "value"],
      [{ field: "first_name", value: "x".repeat(1001) }, "value"],
      [{ field: "selfie", value: "data:image/png;base64,AAAA" }, "value"],
      [{ field: "favourite_colour", value: "blue" }, "field"],
      [{ field: "phone" }, "value"],
      [{ value: "x" }, "field"],
      [{ field: "phone", value: "a\u0000b" }, "value"],
    ];
    for (const [fields, errorOn] of cases) {
      const answer = await setProperty(c, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(answer.json.error), JSON.stringify(fields)).toContain(errorOn);
    }
    expect(await propertyRows()).toBe(before);
  });

  it("refuses a body that is not form data of text fields: JSON, no content type, a file part (400, nothing written)", async () => {
    const c = await customerOf(t);
    const before = await propertyRows();
    const notForm = { status: 400, json: { error: expect.stringContaining("form data") } };
    expect(await post(`${P}/properties`, { key: t.keys.public, query: who(c), body: { field: "phone", value: "+4930123456" } })).toMatchObject(notForm);
    expect(await post(`${P}/properties`, { key: t.keys.public, query: who(c), raw: "field=phone&value=%2B4930123456" })).toMatchObject(notForm);
    const withFile = new FormData();
    withFile.append("field", "phone");
    withFile.append("value", new Blob(["+4930123456"]), "phone.txt");
    expect(await post(`${P}/properties`, { key: t.keys.public, query: who(c), raw: withFile })).toMatchObject(notForm);
    const broken = { raw: "--x\r\nnot a part", headers: { "content-type": "multipart/form-data; boundary=x" } };
    expect(await post(`${P}/properties`, { key: t.keys.public, query: who(c), ...broken })).toMatchObject(notForm);
    expect(await propertyRows()).toBe(before);
  });

  it("refuses a body over the 32 MiB cap with 413", async () => {
    const c = await customerOf(t);
    const answer = await post(`${P}/properties`, {
      key: t.keys.public,
      query: who(c),
      raw: "field=phone&value=1",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(33 * 1024 * 1024) },
    });
    expect(answer.status).toBe(413);
  });

  it("answers 404 for an unknown patient or another organisation's shop, writing nothing", async () => {
    const before = await propertyRows();
    expect(await setProperty({ shop_identifier: t.shop.identifier, shop_customer_id: "nobody" }, { field: "phone", value: "+4930123456" })).toMatchObject({ status: 404 });
    expect(await setProperty(await customerOf(other), { field: "phone", value: "+4930123456" })).toMatchObject({ status: 404 });
    expect(await propertyRows()).toBe(before);
  });

  it("leaves one row when the same field is set concurrently, holding one of the values", async () => {
    const c = await customerOf(t);
    const values = Array.from({ length: 8 }, (_, i) => `+49301234${String(i).padStart(2, "0")}`);
    const answers = await Promise.all(values.map((value) => setProperty(c, { field: "phone", value })));
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 200));
    const rows = await t.db.patientProperty.findMany({ where: { patientId: c.patientId, field: { key: "phone" } } });
    expect(rows).toHaveLength(1);
    expect(values).toContain(rows[0].value);
  });
});

describe("the family's paths", () => {
  it("answers an unknown path with the HTML 404 and an unrouted method with the HTML 405", async () => {
    const unknown = await get(`${P}/nothing`, { key: t.keys.public });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/text\/html/);
    const wrongMethod = await call("PUT", `${P}/properties`, { key: t.keys.public });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
  });

  it("documents the form body and the patient token in its OpenAPI document", async () => {
    const doc = (await get(`${P}/apidocs/openapi.json`)).json;
    expect(doc.components.securitySchemes.PatientToken).toMatchObject({ type: "apiKey", in: "header", name: TOKEN_HEADER });
    expect(doc.components.securitySchemes.Bearer).toBeUndefined();
    const postProperties = doc.paths[`${P}/properties/`].post;
    expect(Object.keys(postProperties.requestBody.content).sort()).toEqual(["application/x-www-form-urlencoded", "multipart/form-data"]);
    expect(postProperties.security).toEqual([{ ApiKey: [] }, { PatientToken: [] }]);
  });
});
