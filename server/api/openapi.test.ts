import { isDeepStrictEqual } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { restApis } from "@/server/api/rest-apis";
import { PATIENT_FIELD_SOURCES } from "@/server/domain/patients/profile-fields";
import { MANAGEMENT } from "@/server/rest/families";
import { route } from "@/server/rest/kit";
import { documentedResponses, openApiDocument } from "@/server/rest/openapi";
import { reply } from "@/server/rest/responses";
import type { Family, Route } from "@/server/rest/types";
import { paginationQuery } from "@/server/wire/schemas";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { createTestOrder, item, routedOrderBody, withShopSkus } from "@/tests/orders";

/**
 * The API explorers (issue 14, item 9): every route of every family is in its family's OpenAPI
 * document with its parameters, its response schemas and its examples; a route that declares no
 * response schema fails here by name. Real answers are checked against the documents by
 * tests/http.ts on every call of every route test, and below for a set of list and detail routes.
 */

/** A response of the document, following its reference to the shared responses. */
const resolve = (doc: any, response: any) => (response.$ref ? doc.components.responses[response.$ref.split("/").pop()] : response);

const nameOf = (family: Family, r: Route) => `${r.method} ${family.basePath}${r.path}`;
const isSuccess = (status: number) => status >= 200 && status < 300;

/** A body validates against its schema, and names no field the schema lacks. */
function conforms(schema: z.ZodType, body: unknown): string | null {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return JSON.stringify(parsed.error.issues).slice(0, 500);
  return isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), body) ? null : "fields the schema does not name";
}

/** What keeps a route out of a complete explorer: no success response schema, an example that does not fit. */
function routeProblems(family: Family, r: Route): string[] {
  const name = nameOf(family, r);
  const problems: string[] = [];
  const successes = Object.keys(r.responses ?? {}).map(Number).filter(isSuccess);
  if (successes.length === 0) problems.push(`${name} declares no success response schema (responses: {200: schema})`);
  if (r.body && r.examples?.body === undefined) problems.push(`${name} has a body but no request example (examples.body)`);
  if (r.body && r.examples?.body !== undefined && !r.body.safeParse(r.examples.body).success) {
    problems.push(`${name}: its request example does not validate against its body schema`);
  }
  for (const [status, example] of Object.entries(r.examples?.responses ?? {})) {
    const schema = r.responses?.[Number(status)];
    if (!schema) problems.push(`${name}: an example for ${status}, which has no schema`);
    else {
      const problem = conforms(schema, example);
      if (problem) problems.push(`${name}: its ${status} example does not validate: ${problem}`);
    }
  }
  return problems;
}

describe("route declarations", () => {
  it("every route of every family declares its response schemas, and its examples validate", () => {
    const problems = restApis.flatMap((api) => api.routes.flatMap((r) => routeProblems(api.family, r)));
    expect(problems).toEqual([]);
  });

  it("names a route that declares no response schema", () => {
    const bare = route({ method: "GET", path: "/bare", summary: "no schemas", handle: async () => reply(200, {}) });
    expect(routeProblems(MANAGEMENT, bare)).toEqual(["GET /v1/management/bare declares no success response schema (responses: {200: schema})"]);
    // Its document still shows the operation, with a success the explorer marks undocumented.
    const op = (openApiDocument(MANAGEMENT, [bare]).paths["/v1/management/bare/"] as any).get;
    expect(op.responses["200"]).toEqual({ description: "Success (body not documented)" });
  });
});

describe.each(restApis.map((api) => [api.family.title, api] as const))("the %s API document", (_title, api) => {
  let doc: any;
  beforeAll(async () => {
    const r = await get(`${api.family.basePath}/apidocs/openapi.json`);
    expect(r.status).toBe(200);
    doc = r.json;
  });

  it("is an OpenAPI 3.1 document whose operations, parameters and security are well formed", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe(`${api.family.title} API`);
    expect(typeof doc.info.version).toBe("string");
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      for (const op of Object.values<any>(item)) {
        expect(operationIds.has(op.operationId), op.operationId).toBe(false);
        operationIds.add(op.operationId);
        const inPath = op.parameters.filter((p: any) => p.in === "path");
        expect(inPath.map((p: any) => p.name)).toEqual(templated);
        for (const p of op.parameters) {
          expect(["path", "query"]).toContain(p.in);
          expect(typeof p.schema).toBe("object");
          if (p.in === "path") expect(p.required).toBe(true);
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          expect(status).toMatch(/^[1-5]\d\d$/);
          expect(typeof resolve(doc, response).description).toBe("string");
        }
      }
    }
    // zod's dialect marker has no place inside the document; every reference resolves to a shared response.
    const text = JSON.stringify(doc.paths);
    expect(text).not.toContain('"$schema"');
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(ref).toMatch(/^#\/components\/responses\/\w+$/);
      expect(doc.components.responses, ref).toHaveProperty(ref.split("/").pop()!);
    }
    expect(JSON.stringify(doc.components.responses)).not.toContain('"$ref"');
    for (const requirement of doc.security) for (const name of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(name);
  });

  it("shows every route with its method, path and query parameters, its success schemas and the family's error bodies", () => {
    for (const r of api.routes) {
      const name = nameOf(api.family, r);
      const op = doc.paths[api.family.basePath + r.path.replace(/:(\w+)/g, "{$1}") + "/"]?.[r.method.toLowerCase()];
      expect(op, name).toBeDefined();
      const queryNames = [
        ...(r.paginated ? Object.keys(paginationQuery(api.family.maxLimit)) : []),
        ...Object.keys((r.query as z.ZodObject | undefined)?.shape ?? {}),
      ];
      expect(op.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name), name).toEqual(queryNames);
      const successes = Object.entries<any>(op.responses).filter(([status]) => isSuccess(Number(status)));
      expect(successes.length, name).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        if (status === "204") expect(response.content, name).toBeUndefined();
        else expect(response.content["application/json"].schema.type, `${name} ${status}`).toBeDefined();
      }
      const response = (status: string) => resolve(doc, op.responses[status]);
      expect(response("401").content["application/json"].schema.properties.code.enum).toContain("invalid_api_key");
      expect(Object.keys(response("404").content).sort()).toEqual(["application/json", "text/html"]);
      expect(Object.keys(response("429").content)).toEqual(["text/html"]);
      expect(Object.keys(response("405").content)).toEqual(["text/html"]);
      if (r.permission) expect(op.description, name).toContain(r.permission);
      expect(op.responses["403"] !== undefined, name).toBe(r.permission !== undefined);
      if (r.body) expect(op.requestBody.content[r.bodyFormat === "form" ? "multipart/form-data" : "application/json"].example, name).toBeDefined();
    }
  });

  it("declares X-API-Key on every family, the legacy headers on the Public API only, the patient token where accepted", () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.ApiKey).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }));
    const isPublic = api.family.name === "public";
    expect(schemes.ServiceAuthorization?.name).toBe(isPublic ? "X-Service-Authorization" : undefined);
    expect(schemes.Bearer?.scheme).toBe(isPublic ? "bearer" : undefined);
    expect(schemes.PatientToken?.name).toBe(api.family.name === "patient_data" ? "X-Service-Booking-Token" : undefined);
  });
});

describe("webhooks in the documents", () => {
  it("Management shows the order and prescription events, each with its body's schema and an example that validates", async () => {
    const management = restApis.find((api) => api.family.basePath === "/v1/management")!;
    expect(management.webhooks.map((w) => w.event)).toEqual(["order_created", "order_updated", "prescription_created", "prescription_updated"]);
    for (const w of management.webhooks) expect(conforms(w.payload, w.example), w.event).toBeNull();
    const doc = (await get("/v1/management/apidocs/openapi.json")).json;
    expect(Object.keys(doc.webhooks)).toEqual(management.webhooks.map((w) => w.event));
    const updated = doc.webhooks.prescription_updated.post;
    expect(updated.requestBody.content["application/json"].schema.properties.data.properties.change.required).toEqual([
      "from_status",
      "to_status",
      "reason",
      "from_doctor_uid",
      "to_doctor_uid",
      "doctor_assignment_reason",
    ]);
    expect(updated.requestBody.content["application/json"].example).toMatchObject({ event_type: "prescription_updated", data: { change: { to_status: "signed" } } });
    expect(updated.parameters.map((p: { name: string }) => p.name)).toEqual(["X-Webhook-Signature", "X-Webhook-Event", "X-Webhook-Test"]);
    // The registration's notification_type lists every event type a Management subscription takes.
    const register = doc.paths["/v1/management/notification-subscriptions/"].post;
    expect(register.requestBody.content["application/json"].schema.properties.notification_type.enum).toContain("prescription_updated");
  });

  it("the External Pharmacy API shows none of them, and lists only the pharmacy events for registration", async () => {
    const doc = (await get("/v1/external_pharmacy_api/apidocs/openapi.json")).json;
    expect(doc.webhooks).toBeUndefined();
    const register = doc.paths["/v1/external_pharmacy_api/webhooks/"].post;
    expect(register.requestBody.content["application/json"].schema.properties.notification_type.enum).toEqual([
      "pharmacy_order_created",
      "pharmacy_order_updated",
      "pharmacy_sku_stock_updated",
    ]);
  });
});

describe("typed query parameters and error bodies", () => {
  /** An operation with its shared responses resolved. */
  const operation = async (base: string, path: string, method = "get") => {
    const doc = (await get(`${base}/apidocs/openapi.json`)).json;
    const op = doc.paths[`${base}${path}`][method];
    return { ...op, responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, resolve(doc, r)])) };
  };
  const param = (op: any, name: string) => op.parameters.find((p: any) => p.name === name);

  it("types each parameter from the route's zod query schema: integers, enums, bounds, defaults, required", async () => {
    const orders = await operation("/v1/management", "/orders/");
    expect(param(orders, "created_at_from")).toEqual(
      expect.objectContaining({ required: false, schema: expect.objectContaining({ type: "integer", minimum: 0 }), description: "Unix seconds (inclusive)." }),
    );
    expect(param(orders, "limit").schema).toEqual(expect.objectContaining({ type: "integer", minimum: 1, default: 50 }));
    expect(param(orders, "limit").description).toContain("capped to 200");
    expect(param(orders, "search").schema.maxLength).toBe(100);
    const payouts = await operation("/v1/external-pharmacy-api-v1", "/payouts/");
    expect(param(payouts, "sort_direction")).toEqual(
      expect.objectContaining({ required: false, schema: expect.objectContaining({ enum: ["asc", "desc"], default: "desc" }) }),
    );
    expect(param(payouts, "status").schema.enum).toEqual(["projected", "routed"]);
    const patients = await operation("/v1/management", "/patients/");
    expect(param(patients, "email")).toEqual(expect.objectContaining({ required: true, schema: expect.objectContaining({ format: "email" }) }));
    // from and to: the route names them missing itself (its own 400 message), the document shows them required.
    const statistics = await operation("/v1/management", "/doctors/{doctor_uid}/statistics/");
    expect([param(statistics, "from").required, param(statistics, "to").required]).toEqual([true, true]);
    expect(param(statistics, "from").schema).toEqual(expect.objectContaining({ type: "integer" }));
    expect(JSON.stringify(statistics.parameters)).not.toContain("x-required");
  });

  it("shows the presenters' schemas and each family's error shapes per status", async () => {
    const order = await operation("/v1/management", "/orders/{order_id}/");
    const schema = order.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["uid", "status", "overall_status", "created_at", "items", "prescriptions"]));
    expect(schema.properties.created_at.type).toBe("integer");
    expect(schema.properties.shop_order.anyOf.map((s: any) => s.type)).toEqual(["object", "null"]);
    expect(order.responses["403"].content["application/json"].schema.properties.code.const).toBe("permission_denied");
    const epa = await operation("/v1/external_pharmacy_api", "/pharmacy_orders/{pharmacy_order_uid}/");
    expect(epa.responses["403"].content["application/json"].schema.properties.error.const).toBe("Permission denied");
    const create = await operation("/v1/management", "/orders/", "post");
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "404", "409", "413", "422", "429"]));
    expect(create.responses["409"].content["application/json"].schema.properties.error.type).toBe("string");
    const complete = await operation("/v1/external_pharmacy_api", "/pharmacy_orders/{pharmacy_order_uid}/complete_order/", "patch");
    expect(complete.requestBody.required).toBe(false);
    expect(complete.responses["400"].content["application/json"].schema.anyOf).toHaveLength(3);
  });
});

describe("the documents say what the server enforces (issue 36)", () => {
  const documentOf = async (base: string) => (await get(`${base}/apidocs/openapi.json`)).json;
  /** Every schema object in the document whose property `name` is declared, with that property's schema. */
  const propertiesNamed = (node: any, name: string, found: any[] = []): any[] => {
    if (node && typeof node === "object") {
      if (node.properties?.[name]) found.push(node.properties[name]);
      for (const child of Object.values(node)) propertiesNamed(child, name, found);
    }
    return found;
  };

  it("formats: country and currency codes as enums, http(s) URLs as uri, profile-field source, non-blank strings", async () => {
    const management = await documentOf("/v1/management");
    const countries = propertiesNamed(management.paths["/v1/management/orders/"].post.requestBody, "country");
    expect(countries.length).toBeGreaterThan(0);
    for (const c of countries) expect(c.enum).toEqual(expect.arrayContaining(["DE", "AT", "FR"]));
    expect(countries[0].enum).not.toContain("ZZ");
    const currencies = propertiesNamed(management.paths["/v1/management/orders/"].post.requestBody, "currency");
    expect(currencies.every((c) => c.enum?.includes("EUR") && !c.enum.includes("eur"))).toBe(true);
    const externalIds = propertiesNamed(management.paths["/v1/management/orders/"].post.requestBody, "external_id");
    expect(externalIds.every((e) => e.pattern === "\\S" && e.minLength === 1)).toBe(true);
    const sources = propertiesNamed(management.paths["/v1/management/patients/"].post.requestBody, "source");
    expect(sources[0].enum).toEqual([...PATIENT_FIELD_SOURCES]);
    const pharmacy = await documentOf("/v1/external_pharmacy_api");
    const tracking = propertiesNamed(pharmacy.paths["/v1/external_pharmacy_api/pharmacy_orders/{pharmacy_order_uid}/complete_order/"].patch.requestBody, "tracking_link");
    expect(tracking.length).toBeGreaterThan(0);
    for (const link of tracking) expect(link).toMatchObject({ format: "uri", pattern: expect.stringContaining("[Hh][Tt][Tt][Pp][Ss]?://") });
  });

  it("page and limit carry no maximum (a larger value is capped, not refused), and the intake 409 names order_uid", async () => {
    const management = await documentOf("/v1/management");
    const list = management.paths["/v1/management/orders/"].get.parameters;
    for (const name of ["page", "limit"]) {
      const schema = list.find((p: any) => p.name === name).schema;
      expect(schema.type).toBe("integer");
      expect(schema.maximum).toBeUndefined();
    }
    const conflict = resolve(management, management.paths["/v1/management/orders/"].post.responses["409"]).content["application/json"].schema;
    expect(conflict.properties.order_uid).toMatchObject({ type: "string" });
    expect(management.info.description).toContain("NUL character or an unpaired surrogate");
  });

  it("the Public checkout's address rule and the patient data's one-credential rule", async () => {
    const publicApi = await documentOf("/v2/public-api");
    const checkouts = ["/v2/public-api/prescriptions/{shop_identifier}/", "/v2/public-api/treatments/{shop_identifier}/"].map((path) => publicApi.paths[path].post);
    for (const op of checkouts) {
      expect(op.requestBody.content["application/json"].schema.anyOf).toEqual([{ required: ["shipping_address"] }, { required: ["billing_address"] }]);
    }
    const patientData = await documentOf("/api/v0/patient");
    expect(patientData.components.securitySchemes.PatientToken.description).toContain("refused (401 invalid_header)");
  });

  it("names no host unless PUBLIC_BASE_URL is set: a client resolves / against the document's own address", async () => {
    expect((await documentOf("/v2/public-api")).servers).toEqual([{ url: "/", description: expect.any(String) }]);
  });

  it("links each create to its read, and following the link reads what was created", async () => {
    const management = await documentOf("/v1/management");
    const created = management.paths["/v1/management/orders/"].post.responses["201"];
    expect(created.links.read_order_id).toEqual({ operationId: "get_orders_by_order_id", parameters: { order_id: "$response.body#/uid" }, description: expect.any(String) });
    const read = Object.values<any>(management.paths).flatMap((ops) => Object.values<any>(ops)).find((op) => op.operationId === "get_orders_by_order_id");
    expect(read).toBeTruthy();
    expect(management.paths["/v1/management/skus/"].post.responses["201"].links.read_sku_uid.parameters).toEqual({ sku_uid: "$response.body#/uid" });

    const t = await createTenant();
    const refs = await withShopSkus(t);
    const order = await post("/v1/management/orders", { key: t.keys.management, body: routedOrderBody(t, "oapi-link", t.pharmacy.id, [item(refs.otcReference)]) });
    expect(order.status, order.text).toBe(201);
    const followed = await get(`/v1/management/orders/${order.json.uid}`, { key: t.keys.management });
    expect([followed.status, followed.json.uid]).toEqual([200, order.json.uid]);
  });
});

describe("real answers validate against their documented schemas", () => {
  let t: Tenant;
  let refs: Awaited<ReturnType<typeof withShopSkus>>;
  const check = (api: (typeof restApis)[number], method: string, path: string, status: number, body: unknown) => {
    const r = api.matchRoute(method, path)!;
    const schema = r.responses?.[status];
    expect(schema, `${method} ${path} ${status}`).toBeTruthy();
    expect(conforms(schema!, body), `${method} ${path}`).toBeNull();
  };
  const [management, publicApi, pharmacy, payouts] = restApis;

  beforeAll(async () => {
    t = await createTenant();
    refs = await withShopSkus(t);
  });

  it("Management: lists and details of products, SKUs, shop SKUs, orders and doctors; a created SKU", async () => {
    const order = await createTestOrder(t, routedOrderBody(t, "oapi-1", t.pharmacy.id, [item(refs.otcReference)]));
    const key = t.keys.management;
    const created = await post("/v1/management/skus", { key, body: { product_uid: t.product.id, display_name: "Aspirin 100 mg", pzn: "44444444" } });
    expect(created.status).toBe(201);
    check(management, "POST", "/v1/management/skus", 201, created.json);
    for (const path of [
      "/v1/management/products",
      `/v1/management/products/${t.product.id}`,
      "/v1/management/skus",
      `/v1/management/skus/${t.sku.id}`,
      "/v1/management/shop-skus",
      "/v1/management/orders",
      `/v1/management/orders/${order.orderId}`,
      "/v1/management/doctors",
      "/v1/management/prescriptions/statistics",
      "/v1/management/telemedicine-providers",
      "/v1/management/notification-subscriptions",
    ]) {
      const r = await get(path, { key });
      expect(r.status, path).toBe(200);
      check(management, "GET", path, 200, r.json);
    }
    expect((await get("/v1/management/orders", { key })).json.orders.length).toBeGreaterThan(0);
  });

  it("External Pharmacy: the database-built order list, an order's detail, a stock change; payouts; Public health", async () => {
    const order = await createTestOrder(t, routedOrderBody(t, "oapi-2", t.pharmacy.id, [item(refs.otcReference)]));
    const key = t.keys.pharmacy;
    const list = await get("/v1/external_pharmacy_api/pharmacy_orders", { key });
    expect(list.json.data.length).toBeGreaterThan(0);
    check(pharmacy, "GET", "/v1/external_pharmacy_api/pharmacy_orders", 200, list.json);
    const uid = order.pharmacyOrders[0].id;
    const detail = await get(`/v1/external_pharmacy_api/pharmacy_orders/${uid}`, { key });
    check(pharmacy, "GET", `/v1/external_pharmacy_api/pharmacy_orders/${uid}`, 200, detail.json);
    const stock = await patch(`/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, { key, body: { stock: 7 } });
    check(pharmacy, "PATCH", `/v1/external_pharmacy_api/pharmacy_skus/${t.pharmacySku.id}/stock`, 200, stock.json);
    const skus = await get("/v1/external_pharmacy_api/pharmacy_skus", { key });
    check(pharmacy, "GET", "/v1/external_pharmacy_api/pharmacy_skus", 200, skus.json);
    const rows = await get("/v1/external-pharmacy-api-v1/payouts", { key });
    check(payouts, "GET", "/v1/external-pharmacy-api-v1/payouts", 200, rows.json);
    const health = await get("/v2/public-api/health", { key: t.keys.public });
    check(publicApi, "GET", "/v2/public-api/health", 200, health.json);
  });

  it("error answers carry the family's documented bodies", async () => {
    const unknown = await get("/v1/management/skus/00000000-0000-4000-8000-000000000000", { key: t.keys.management });
    expect(unknown.status).toBe(404);
    expect(conforms(documentedResponses(MANAGEMENT, management.matchRoute("GET", "/v1/management/skus/x")!)[404].json!, unknown.json)).toBeNull();
    const denied = await get("/v1/external_pharmacy_api/pharmacy_orders", { key: t.keys.pharmacyStockRead });
    expect(denied.json).toEqual({ error: "Permission denied" });
    const invalid = await post("/v1/management/skus", { key: t.keys.management, body: {} });
    expect(invalid.status).toBe(400);
    const noKey = await get("/v2/public-api/health");
    expect(noKey.json.code).toBe("authorization_header_missing");
  });
});
