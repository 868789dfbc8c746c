import { z } from "zod";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { reloadConfig } from "@/server/config";
import { holdRateLimitWindowForTests } from "@/server/rest/rate-limit";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { call, get, patch, post } from "@/tests/http";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
});

const SKUS = "/v1/management/skus";
const PHARMACY_SKUS = "/v1/external_pharmacy_api/pharmacy_skus/";

describe("authentication", () => {
  it("answers 401 authorization_header_missing without any key header", async () => {
    for (const path of [SKUS, "/v2/public-api/health/", PHARMACY_SKUS]) {
      const r = await get(path);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ code: "authorization_header_missing", description: expect.any(String) });
    }
  });

  it("accepts only X-API-Key on the Management and External Pharmacy APIs", async () => {
    const forms: Record<string, string>[] = [{ authorization: `Bearer ${t.keys.management}` }, { "x-service-authorization": t.keys.management }];
    for (const headers of forms) {
      const r = await get(SKUS, { headers });
      expect(r.status).toBe(401);
      expect(r.json.code).toBe("api_key_missing");
    }
    const r = await get(PHARMACY_SKUS, { headers: { authorization: `Bearer ${t.keys.pharmacy}` } });
    expect(r.json.code).toBe("api_key_missing");
  });

  it("accepts X-API-Key, X-Service-Authorization and a bearer token on the Public API", async () => {
    const forms: Record<string, string>[] = [
      { "x-api-key": t.keys.public },
      { "x-service-authorization": t.keys.public },
      { authorization: `Bearer ${t.keys.public}` },
    ];
    for (const headers of forms) expect((await get("/v2/public-api/health", { headers })).status).toBe(200);
    const malformed = await get("/v2/public-api/health", { headers: { authorization: `Basic ${t.keys.public}` } });
    expect(malformed.status).toBe(401);
    expect(malformed.json.code).toBe("invalid_header");
  });

  it("answers invalid_header for a blank X-API-Key and invalid_api_key for an unknown one", async () => {
    expect((await get(SKUS, { key: "  " })).json.code).toBe("invalid_header");
    const r = await get(SKUS, { key: "rxm_not-a-key" });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ code: "invalid_api_key", description: expect.any(String) });
  });

  it("rejects a key of another family as invalid_api_key", async () => {
    expect((await get(SKUS, { key: t.keys.public })).json.code).toBe("invalid_api_key");
    expect((await get(SKUS, { key: t.keys.pharmacy })).json.code).toBe("invalid_api_key");
    expect((await get("/v2/public-api/health", { key: t.keys.management })).json.code).toBe("invalid_api_key");
    expect((await get(PHARMACY_SKUS, { key: t.keys.management })).json.code).toBe("invalid_api_key");
  });

  it("rejects a revoked key with 401 invalid_api_key", async () => {
    const { id, plaintext } = await createApiKey({
      family: "MANAGEMENT",
      displayName: "to revoke",
      permissions: ["product:read"],
      organisationId: t.organisation.id,
    });
    expect((await get(SKUS, { key: plaintext })).status).toBe(200);
    await revokeApiKey(id);
    const r = await get(SKUS, { key: plaintext });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe("invalid_api_key");
  });

  it("stores only a hash of the key and records its last use", async () => {
    const { id, plaintext } = await createApiKey({
      family: "PHARMACY",
      displayName: "hash check",
      permissions: ["stock_read"],
      organisationId: t.organisation.id,
      pharmacyId: t.pharmacy.id,
    });
    const before = await t.db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(JSON.stringify(before)).not.toContain(plaintext);
    expect(before.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(before.lastUsedAt).toBeNull();
    await get(PHARMACY_SKUS, { key: plaintext });
    const after = await t.db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(after.lastUsedAt).toBeInstanceOf(Date);
  });

  it("refuses permissions that do not belong to the key's family", async () => {
    await expect(
      createApiKey({ family: "PHARMACY", displayName: "x", permissions: ["product:read"], organisationId: t.organisation.id, pharmacyId: t.pharmacy.id }),
    ).rejects.toThrow("Validation failed");
  });
});

describe("permissions", () => {
  it("answers 403 permission_denied naming the permission on the Management API", async () => {
    const r = await post(SKUS, { key: t.keys.managementReadOnly, body: { product_uid: t.product.id, display_name: "X" } });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe("permission_denied");
    expect(r.json.description).toContain("product:write");
    expect(await t.db.sku.count({ where: { displayName: "X" } })).toBe(0);
  });

  it("answers 403 {error: Permission denied} on the External Pharmacy API", async () => {
    const r = await get(PHARMACY_SKUS, { key: t.keys.pharmacyOrdersRead });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ error: "Permission denied" });
  });

  it("lets any valid key of the family reach health", async () => {
    expect((await get("/v1/management/health", { key: t.keys.managementNoPermissions })).status).toBe(200);
    expect((await get("/v1/external_pharmacy_api/health/", { key: t.keys.pharmacyOrdersRead })).status).toBe(200);
    const r = await get("/v1/external_pharmacy_api/health/", { key: t.keys.pharmacyGroup });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: "ok", version: expect.any(String), database: { status: "ok" } });
  });
});

describe("paths and methods", () => {
  it("serves both trailing-slash forms without a redirect", async () => {
    for (const path of [SKUS, `${SKUS}/`, "/v1/management/health", "/v1/management/health/"]) {
      expect((await get(path, { key: t.keys.management })).status).toBe(200);
    }
  });

  it("answers an unknown path with a text/html 404 page, before authentication", async () => {
    for (const path of ["/v1/management/nope", "/v1/management/skus/a/b/c", "/v1/management", "/v2/public-api/x"]) {
      const r = await get(path, { key: t.keys.management });
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      expect(r.text).toContain("<html");
    }
  });

  it("answers an unknown method with a text/html 405 page listing the allowed ones", async () => {
    const r = await call("PUT", `${SKUS}/${t.sku.id}`, { key: t.keys.management });
    expect(r.status).toBe(405);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.headers.get("allow")).toBe("GET, PATCH, DELETE");
    expect((await call("DELETE", SKUS, { key: t.keys.management })).status).toBe(405);
  });
});

describe("request bodies", () => {
  const path = () => `${SKUS}/${t.sku.id}`;

  it("refuses invalid JSON and a missing JSON content type in the family's format", async () => {
    const headers = { "content-type": "application/json" };
    let r = await patch(path(), { key: t.keys.management, raw: "{not json", headers });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "Invalid JSON in request body" });
    r = await patch(path(), { key: t.keys.management, raw: JSON.stringify({ display_name: "Y" }), headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "Content-Type must be application/json" });
    r = await patch(path(), { key: t.keys.management, raw: JSON.stringify({ display_name: "Y" }) });
    expect(r.status).toBe(400);

    const epa = `${PHARMACY_SKUS}${t.pharmacySku.id}/stock`;
    r = await patch(epa, { key: t.keys.pharmacy, raw: "{", headers });
    expect(r.json).toEqual({ error: "Bad request" });
    r = await patch(epa, { key: t.keys.pharmacy, raw: '{"stock": 1}', headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "Bad request" });
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock).toBe(10);
  });

  it("accepts a JSON content type with a charset", async () => {
    const r = await patch(path(), { key: t.keys.management, body: { dosage: "1 daily" }, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(r.status).toBe(200);
  });

  it("answers a body that is not an object with a validation error", async () => {
    const r = await patch(path(), { key: t.keys.management, raw: "[1,2]", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json.error.non_field_errors).toBeDefined();
  });

  it("refuses a declared body over 32 MiB at once with 413", async () => {
    const r = await patch(path(), {
      key: t.keys.management,
      raw: "{}",
      headers: { "content-type": "application/json", "content-length": String(32 * 1024 * 1024 + 1) },
    });
    expect(r.status).toBe(413);
    expect(r.json.error).toMatch(/32 MiB/);
  });

  it("refuses a declared body over 32 MiB without reading any of it, and closes the connection", async () => {
    let pulled = 0;
    // highWaterMark 0: the stream is pulled only when someone reads it.
    const stream = new ReadableStream<Uint8Array>({ pull: (controller) => void (pulled++, controller.enqueue(new Uint8Array(1024))) }, { highWaterMark: 0 });
    const r = await patch(path(), {
      key: t.keys.management,
      raw: stream,
      headers: { "content-type": "application/json", "content-length": String(33 * 1024 * 1024) },
    });
    expect(r.status).toBe(413);
    expect(r.headers.get("connection")).toBe("close");
    expect(pulled).toBe(0);
  });

  it("stops reading a streamed body as soon as it passes 32 MiB", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 64) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const r = await patch(path(), { key: t.keys.management, raw: stream, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(pulled).toBeLessThan(40);
  });
});

describe("validation errors", () => {
  it("lists every invalid field as {error: {field: [messages]}}", async () => {
    const r = await post(SKUS, {
      key: t.keys.management,
      body: { product_uid: t.product.id, display_name: "", pcs: 1.5, weight: "heavy", digital: "yes" },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        display_name: ["This field may not be blank."],
        pcs: ["A valid integer is required."],
        weight: ["A valid number is required."],
        digital: ["Must be a valid boolean."],
      },
    });
  });
});

describe("pagination", () => {
  // An organisation with more SKUs than the largest page, so that a wrong default or cap shows.
  let many: Tenant;
  const MANY_SKUS = 3 + 203;
  beforeAll(async () => {
    many = await createTenant();
    await many.db.sku.createMany({
      data: Array.from({ length: MANY_SKUS - 3 }, (_, i) => ({ organisationId: many.organisation.id, productId: many.product.id, displayName: `Bulk ${i}` })),
    });
  });

  it("returns 50 rows without a limit", async () => {
    const r = await get(SKUS, { key: many.keys.management });
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(50);
    expect(r.json).toMatchObject({ totalRegistries: MANY_SKUS, totalPages: Math.ceil(MANY_SKUS / 50) });
  });

  it("caps a huge limit at 200 and computes totalPages from the capped limit", async () => {
    for (const limit of ["201", "99999999999999999999"]) {
      const r = await get(SKUS, { key: many.keys.management, query: { limit } });
      expect(r.status).toBe(200);
      expect(r.json.data).toHaveLength(200);
      expect(r.json).toMatchObject({ totalRegistries: MANY_SKUS, totalPages: 2 });
    }
    expect((await get(SKUS, { key: many.keys.management, query: { limit: 200 } })).json.data).toHaveLength(200);
  });

  it("refuses a negative page, a zero limit and non-integers", async () => {
    const queries: Record<string, string | number>[] = [{ page: -1 }, { limit: 0 }, { limit: "ten" }, { page: "1.5" }];
    for (const query of queries) {
      const r = await get(SKUS, { key: t.keys.management, query });
      expect(r.status).toBe(400);
      expect(Object.keys(r.json.error)).toEqual(Object.keys(query));
    }
  });

  it("pages from 0 with totalPages = ceil(totalRegistries / limit)", async () => {
    const page0 = await get(SKUS, { key: t.keys.management, query: { limit: 2 } });
    expect(page0.json).toMatchObject({ totalRegistries: 3, totalPages: 2 });
    expect(page0.json.data).toHaveLength(2);
    const page1 = await get(SKUS, { key: t.keys.management, query: { limit: 2, page: 1 } });
    expect(page1.json.data).toHaveLength(1);
    const beyond = await get(SKUS, { key: t.keys.management, query: { limit: 2, page: 7 } });
    expect(beyond.json).toEqual({ data: [], totalRegistries: 3, totalPages: 2 });
  });
});

describe("pharmacy scope", () => {
  it("requires pharmacy_uid from a group key, inside its group", async () => {
    let r = await get(PHARMACY_SKUS, { key: t.keys.pharmacyGroup });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "Bad request" });
    r = await get(PHARMACY_SKUS, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.loosePharmacy.id } });
    expect(r).toMatchObject({ status: 400, json: { error: "Bad request" } });
    r = await get(PHARMACY_SKUS, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: other.pharmacy.id } });
    expect(r).toMatchObject({ status: 400, json: { error: "Bad request" } });
    r = await get(PHARMACY_SKUS, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id } });
    expect(r.status).toBe(200);
    expect(r.json.data.map((s: { uid: string }) => s.uid)).toEqual([t.groupPharmacySku.id]);
  });

  it("refuses a single-pharmacy key naming another pharmacy", async () => {
    const r = await get(PHARMACY_SKUS, { key: t.keys.pharmacy, query: { pharmacy_uid: t.groupPharmacy.id } });
    expect(r).toMatchObject({ status: 400, json: { error: "Bad request" } });
    expect((await get(PHARMACY_SKUS, { key: t.keys.pharmacy, query: { pharmacy_uid: t.pharmacy.id } })).status).toBe(200);
  });
});

describe("rate limiting", () => {
  // Each test's requests in one window, however slowly they are served (the window's end is tested
  // with a faked clock in rate-limit.test.ts).
  beforeEach(() => holdRateLimitWindowForTests(3600));
  afterEach(() => {
    holdRateLimitWindowForTests();
    process.env.RATE_LIMIT_PER_SECOND = "1000000";
    reloadConfig();
  });

  it("answers 429 with an HTML page and no rate headers over the per-key limit", async () => {
    process.env.RATE_LIMIT_PER_SECOND = "3";
    reloadConfig();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(await get("/v1/management/health", { key: t.keys.management, headers: { "x-forwarded-for": `10.0.0.${i}` } }));
    }
    expect(statuses.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    const limited = statuses[3];
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/^text\/html/);
    expect(limited.headers.get("retry-after")).toBeNull();
    expect([...limited.headers.keys()].filter((h) => h.startsWith("x-ratelimit"))).toEqual([]);
  });

  it("limits per client address across keys, and counts requests without a key", async () => {
    process.env.RATE_LIMIT_PER_SECOND = "2";
    reloadConfig();
    const headers = { "x-forwarded-for": "192.0.2.7" };
    expect((await get("/v1/management/health", { key: t.keys.management, headers })).status).toBe(200);
    expect((await get(SKUS, { headers })).status).toBe(401);
    expect((await get("/v1/management/health", { key: t.keys.managementReadOnly, headers })).status).toBe(429);
  });
});

describe("API explorer", () => {
  it("serves an OpenAPI document generated from the route table, without a key", async () => {
    const r = await get("/v1/management/apidocs/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    const create = r.json.paths["/v1/management/skus/"].post;
    expect(create.description).toContain("product:write");
    expect(create.requestBody.content["application/json"].schema.required).toEqual(["product_uid", "display_name"]);
    expect(Object.keys(r.json.paths["/v1/management/skus/{sku_uid}/"]).sort()).toEqual(["delete", "get", "patch"]);
    const list = r.json.paths["/v1/external_pharmacy_api/pharmacy_skus/"] ?? null;
    expect(list).toBeNull();
    const epa = await get("/v1/external_pharmacy_api/apidocs/openapi.json");
    expect(epa.json.paths["/v1/external_pharmacy_api/pharmacy_skus/"].get.parameters.map((p: { name: string }) => p.name)).toEqual(["page", "limit", "pharmacy_uid"]);
    const pub = await get("/v2/public-api/apidocs/openapi.json");
    expect(Object.keys(pub.json.components.securitySchemes)).toEqual(["ApiKey", "ServiceAuthorization", "Bearer"]);
  });

  it("serves the Swagger UI page and its assets", async () => {
    const page = await get("/v2/public-api/apidocs");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    // The page starts Swagger UI from a file of its own (its policy allows no inline script).
    expect(page.text).toContain('<script src="/v2/public-api/apidocs/explorer.js"></script>');
    expect((await get("/v2/public-api/apidocs/explorer.js")).text).toContain('"/v2/public-api/apidocs/openapi.json"');
    const js = await get("/v2/public-api/apidocs/swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript");
    expect((await get("/v2/public-api/apidocs/../../package.json")).status).toBe(404);
    expect((await get("/v2/public-api/apidocs/index.html")).status).toBe(404);
  });
});

describe("overload", () => {
  it("answers 503 with the family's error shape when no database connection can be had in time", async () => {
    const { createRestApi, route } = await import("./kit");
    const { MANAGEMENT } = await import("./families");
    const { Prisma } = await import("@/server/db/client");
    const api = createRestApi(MANAGEMENT, [
      route({
        method: "GET",
        path: "/busy",
        summary: "always busy",
        async handle() {
          throw new Prisma.PrismaClientKnownRequestError("Unable to start a transaction in the given time.", { code: "P2028", clientVersion: "6.19.3" });
        },
      }),
    ]);
    const t = await createTenant();
    const r = await api.handle(new Request("http://localhost:3000/v1/management/busy", { headers: { "x-api-key": t.keys.management } }));
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ error: "The service is busy; retry the request in a moment." });
  });
});

describe("bad input at the edge (docs/decisions/errors-and-validation.md#bad-input)", () => {
  const json = { "content-type": "application/json" };
  const unstorable = ["Text may not contain NUL characters or unpaired UTF-16 surrogates."];

  it("refuses NUL and lone surrogates in any JSON string or key with a field error, writing nothing", async () => {
    const path = `${SKUS}/${t.sku.id}`;
    const sku = await t.db.sku.findUniqueOrThrow({ where: { id: t.sku.id } });
    let r = await patch(path, { key: t.keys.management, body: { display_name: "a\u0000b" } });
    expect(r).toMatchObject({ status: 400, json: { error: { display_name: unstorable } } });
    r = await patch(path, { key: t.keys.management, raw: '{"dosage": "\\ud800"}', headers: json });
    expect(r).toMatchObject({ status: 400, json: { error: { dosage: unstorable } } });
    r = await patch(path, { key: t.keys.management, body: { "a\u0000": 1 } });
    expect(r).toMatchObject({ status: 400, json: { error: { non_field_errors: unstorable } } });
    r = await post(SKUS, { key: t.keys.management, body: { product_uid: t.product.id, display_name: "Nul", prescription_name: "x\u0000" } });
    expect(r.status).toBe(400);
    expect(await t.db.sku.count({ where: { displayName: "Nul" } })).toBe(0);
    expect(await t.db.sku.findUniqueOrThrow({ where: { id: t.sku.id } })).toEqual(sku);
    // The External Pharmacy family's validation shape, nested by position.
    r = await patch(`${PHARMACY_SKUS}${t.pharmacySku.id}/external_id`, { key: t.keys.pharmacy, body: { external_id: "\udfff" } });
    expect(r).toMatchObject({ status: 400, json: { error: { external_id: unstorable } } });
  });

  it("refuses JSON nested deeper than 32 levels without overflowing the stack", async () => {
    const deep = `{"dosage": ${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`;
    const r = await patch(`${SKUS}/${t.sku.id}`, { key: t.keys.management, raw: deep, headers: json });
    expect(r).toMatchObject({ status: 400, json: { error: { dosage: ["Nested too deeply: at most 32 levels."] } } });
  });

  it("refuses %00 in a query value or key with a field error, before the key's pharmacy is looked up", async () => {
    let r = await get(`${SKUS}?search=erika%00`, { key: t.keys.management });
    expect(r).toMatchObject({ status: 400, json: { error: { search: unstorable } } });
    r = await get(`${PHARMACY_SKUS}?pharmacy_uid=%00`, { key: t.keys.pharmacyGroup });
    expect(r).toMatchObject({ status: 400, json: { error: { pharmacy_uid: unstorable } } });
    r = await get(`${SKUS}?a%00=1`, { key: t.keys.management });
    expect(r).toMatchObject({ status: 400, json: { error: { non_field_errors: unstorable } } });
    // Undecodable query text is replaced (U+FFFD) by the URL parser: an ordinary search.
    expect((await get(`${SKUS}?search=%FF`, { key: t.keys.management })).status).toBe(200);
  });

  it("answers a path parameter that is not text (%00, %FF, %C0%AF) with the HTML 404 of an unknown path", async () => {
    for (const segment of ["%00", "a%00b", "%FF", "%C0%AF", "%ED%A0%80"]) {
      for (const key of [t.keys.management, undefined]) {
        const r = await get(`${SKUS}/${segment}`, { key });
        expect(r.status, segment).toBe(404);
        expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      }
    }
    const r = await patch(`${PHARMACY_SKUS}%00/stock`, { key: t.keys.pharmacy, body: { stock: 1 } });
    expect(r.status).toBe(404);
  });

  it("answers methods Next.js does not route (PROPFIND…) with the kit's HTML 405, in proxy.ts", async () => {
    const { proxy } = await import("@/proxy");
    const { NextRequest } = await import("next/server");
    const at = (method: string, path: string) => proxy(new NextRequest(`http://localhost:3000${path}`, { method }));
    let r = await at("PROPFIND", `${SKUS}/${t.sku.id}`);
    expect(r.status).toBe(405);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.headers.get("allow")).toBe("GET, PATCH, DELETE");
    expect(await r.text()).toContain("The method PROPFIND is not allowed");
    expect((await at("MKCOL", "/v1/management/nope")).status).toBe(404);
    r = await at("GET", `${SKUS}/%FF`);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    r = await at("POST", "/api/trpc/pharmacy%FFOrders.list");
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error: { data: { code: "NOT_FOUND", httpStatus: 404 } } });
    expect((await at("GET", "/pharmacy/orders/%C0%AF")).status).toBe(404);
    // Everything else goes on to the route file.
    expect((await at("GET", `${SKUS}/${t.sku.id}`)).headers.get("x-middleware-next")).toBe("1");
  });

  it("logs an unhandled error without query values, bodies or the values its message quotes", async () => {
    const { createRestApi, route } = await import("./kit");
    const { MANAGEMENT } = await import("./families");
    const api = createRestApi(MANAGEMENT, [
      route({
        method: "POST",
        path: "/fails",
        summary: "fails quoting its input",
        body: z.object({ email: z.string() }),
        async handle({ body }) {
          throw new Error(`\nInvalid \`db.patient.create()\` invocation:\n{ data: { email: "${body.email}" } }\nduplicate key value: Key (email)=(${body.email}) exists, "${body.email}"`);
        },
      }),
    ]);
    const written: string[] = [];
    const write = process.stderr.write;
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const r = await api.handle(
        new Request("http://localhost:3000/v1/management/fails?name=Erika+Mustermann&email=erika%40example.com", {
          method: "POST",
          headers: { "x-api-key": t.keys.management, "content-type": "application/json" },
          body: JSON.stringify({ email: "max@example.com" }),
        }),
      );
      expect(r.status).toBe(500);
    } finally {
      process.stderr.write = write;
      process.env.LOG_LEVEL = level;
    }
    const entry = JSON.parse(written.find((l) => l.includes("unhandled error in REST handler"))!);
    expect(entry.request).toEqual({ method: "POST", path: "/v1/management/fails", query: "name=[redacted]&email=[redacted]" });
    expect(entry.error.stack).toContain("kit.test.ts");
    const text = written.join("");
    for (const personal of ["Erika", "erika@example.com", "erika%40example.com", "max@example.com"]) expect(text).not.toContain(personal);
  });

  it("logs a body the client aborted mid-upload at info level without a stack, and answers a 4xx (REST and tRPC)", async () => {
    const { handleTrpcRequest } = await import("@/server/trpc/handler");
    /** A body that sends one chunk, then fails as a reset connection does under the entry. */
    const aborted = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"display_name": "'));
          controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
        },
      });
    const written: string[] = [];
    const write = process.stderr.write;
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    let statuses: number[];
    try {
      const rest = await call("POST", "/v1/management/skus", { key: t.keys.management, raw: aborted(), headers: { "content-type": "application/json" } });
      const trpc = await handleTrpcRequest(
        new Request("http://localhost:3000/api/trpc/admin.questionnaires.create", { method: "POST", body: aborted(), duplex: "half" } as RequestInit),
      );
      statuses = [rest.status, trpc.status];
    } finally {
      process.stderr.write = write;
      process.env.LOG_LEVEL = level;
    }
    expect(statuses).toEqual([400, 400]);
    const entries = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.level, e.message])).toEqual([
      ["info", "request body aborted by the client"],
      ["info", "request body aborted by the client"],
    ]);
    expect(JSON.stringify(entries)).not.toContain("stack");
  });
});
