/**
 * The fuzzing corpus as a test: every route of every REST route table, every tRPC procedure, Apple's
 * PassKit web service and what next-auth is handed (its gate: next-auth itself needs Next.js's
 * request scope, so e2e/fuzz-pages.spec.ts fuzzes it with the portal pages through the built server)
 * get malformed path parameters, queries and bodies (tests/fuzz.ts), sent with a valid key or a
 * pharmacist's session so the handlers really run. Each test also asserts how many requests it sent. Never a 5xx; a case carrying input no request may
 * hold is refused with a 4xx; and a refused request writes nothing (row counts of every table before
 * and after each refused write request). Seeded: FUZZ_SEED=<n> replays a run, FUZZ_CASES=<n> sets
 * the cases per route (bounded so the file stays well under a minute on PGlite).
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as passkitRoute from "@/app/wallet/passkit/[...path]/route";
import * as shopifyRoute from "@/app/api/shopify/webhooks/[shop]/route";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { saveShopifyConnection } from "@/server/domain/shopify/connection";
import { paidOrderPayload, shopifyHmac } from "@/tests/shopify-stand-in";
import { checkedAuthRequest } from "@/server/api/portal-auth";
import { restApis } from "@/server/api/rest-apis";
import { passkitAuthenticationToken } from "@/server/domain/wallet-passes/secrets";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
import type { RestApi } from "@/server/rest/kit";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { appRouter } from "@/server/trpc/router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { fillPath, malformedBody, malformedForm, malformedQuery, seededRandom, shapeOf, templateFor, type IdsByName, type Random } from "@/tests/fuzz";
import { item, placeOrder, routedOrderBody, withShopSkus } from "@/tests/orders";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";
import { createPortalUser } from "@/tests/webhook-logs";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 16);
const CASES_PER_PROCEDURE = Number(process.env.FUZZ_CASES ?? 12);

let t: Tenant;
let pharmacist: PortalSessionUser;
let ids: IdsByName;
let bodyTemplates: Record<string, unknown>;
let walletPassUid: string;

beforeAll(async () => {
  t = await createTenant();
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  const { otcReference } = await withShopSkus(t);
  const order = routedOrderBody(t, "fuzz-order", t.pharmacy.id, [item(otcReference)]);
  const placed = await placeOrder(t, order);
  expect(placed.status).toBe(201);
  const pharmacyOrder = await t.db.pharmacyOrder.findFirstOrThrow({ where: { order: { id: placed.json.uid } } });
  const shopSku = await t.db.shopSku.findFirstOrThrow({ where: { shopId: t.shop.id } });
  // A patient with a profile field, so patient-data requests reach their checks.
  await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: "phone", displayName: "Phone", type: "phone" } });
  await t.db.$transaction((tx) => findOrCreateShopCustomer(tx, t.organisation.id, t.shop.id, { id: "fuzz-customer" }));
  // A wallet pass, so PassKit requests that name it reach their checks.
  const templates = await createWalletTemplates(t);
  const { shopCustomerId } = await createCustomer(t);
  const { restApiFor } = await import("@/server/api/rest-apis");
  const issued = await restApiFor("/v1/management/wallet-passes")!.handle(
    new Request("http://localhost:3000/v1/management/wallet-passes", {
      method: "POST",
      headers: { "x-api-key": t.keys.management, "content-type": "application/json" },
      body: JSON.stringify({ wallet_pass_template_uid: templates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier }),
    }),
  );
  expect(issued.status).toBe(201);
  walletPassUid = ((await issued.json()) as { uid: string }).uid;
  // Field and parameter names (snake_case or camelCase) to the tenant's real ids.
  const known: Record<string, string> = {
    skuuid: t.sku.id,
    productuid: t.product.id,
    shopuid: t.shop.id,
    shopproductuid: t.shopProduct.id,
    shopskuuid: shopSku.id,
    pharmacyskuuid: t.pharmacySku.id,
    pharmacyuid: t.pharmacy.id,
    pharmacyorderuid: pharmacyOrder.id,
    orderuid: placed.json.uid,
    orderexternalid: "fuzz-order",
    fulfillmentexternalid: "fuzz-order-f1",
    shopidentifier: t.shop.identifier,
    shopcustomerid: "fuzz-customer",
    field: "phone",
  };
  ids = (name) => known[name.replace(/_/g, "").toLowerCase()];
  // Valid bodies to start from, so a single broken value reaches the deeper checks.
  bodyTemplates = {
    "POST /v1/management/orders": routedOrderBody(t, "fuzz-new-order", t.pharmacy.id, [item(otcReference)]),
    "POST /v1/management/orders/:order_external_id/fulfillments": { external_id: "f-new", destination_pharmacy_uid: t.pharmacy.id, items: [item(otcReference)] },
    "POST /v1/management/skus": { product_uid: t.product.id, display_name: "Fuzz", pcs: 1, weight: 1.5 },
    "POST /v1/management/shop-skus": { shop_uid: t.shop.id, shop_product_uid: t.shopProduct.id, sku_uid: t.sku.id, price: 100, shop_variation_id: "fuzz-var", last_synced_stock: 3 },
    "POST /v1/external_pharmacy_api/webhooks": { notification_type: "pharmacy_order_created", target: "https://127.0.0.1/hook" },
    "POST /v1/management/notification-subscriptions": { notification_type: "order_created", target: "https://127.0.0.1/hook", meta_data: { a: 1 } },
    "POST /v1/external_pharmacy_api/pharmacy_orders/:pharmacy_order_uid/complete_order": { tracking_links: ["https://track.example/1"] },
    "POST /api/v0/patient/properties": { field: "phone", value: "+49 30 1234567" },
  };
});

type Failure = { request: string; case: string; status: number; problem: string; body: string };

/** The statement counting the rows of every table (the tables do not change during the run: built once). */
let rowCountsSql: string | null = null;

/** Rows per table: one statement, so a refused request can be checked for writes cheaply. */
async function rowCounts(): Promise<string> {
  if (!rowCountsSql) {
    const tables = await t.db.$queryRaw<{ name: string }[]>`
      SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;
    expect(tables.length).toBeGreaterThan(50);
    rowCountsSql = `SELECT ${tables.map((r) => `(SELECT count(*) FROM "${r.name}")::text AS "${r.name}"`).join(", ")}`;
  }
  const [row] = await t.db.$queryRawUnsafe<Record<string, string>[]>(rowCountsSql);
  return JSON.stringify(row);
}

/** The row counts after the last write request, while no accepted write has happened since (GETs write nothing). */
let knownCounts: string | null = null;

/** One case: answered, checked, and a failure recorded with the request that caused it. */
async function check(
  failures: Failure[],
  request: { label: string; case: string; mustRefuse: boolean; writes: boolean },
  send: () => Promise<Response>,
): Promise<number> {
  const before = request.writes ? (knownCounts ?? (await rowCounts())) : null;
  const response = await send();
  const body = (await response.text()).slice(0, 300);
  const fail = (problem: string) => failures.push({ request: request.label, case: request.case, status: response.status, problem, body });
  if (response.status >= 500) fail("5xx");
  else if (request.mustRefuse && (response.status < 400 || response.status >= 500)) fail("accepted input that must be refused");
  if (before !== null) {
    // An accepted write may change the counts; a refused one must not.
    knownCounts = response.status >= 400 ? await rowCounts() : null;
    if (response.status >= 400 && knownCounts !== before) fail("refused, yet rows were written");
  }
  return response.status;
}

function report(kind: string, failures: Failure[], total: number, refused: number, minimum: number) {
  console.log(`fuzz ${kind}: seed ${SEED}, ${total} requests, ${refused} refused with 4xx, ${failures.length} failures`);
  // A corpus that silently shrank (a table no longer found, a loop cut short) must not pass.
  expect(total).toBeGreaterThanOrEqual(minimum);
  expect(refused).toBeGreaterThan(0);
  // Shown whole on failure: each entry names the request to replay.
  expect(failures.slice(0, 25)).toEqual([]);
}

function keyFor(api: RestApi): string {
  if (api.family.keyFamily === "MANAGEMENT") return t.keys.management;
  if (api.family.keyFamily === "PUBLIC") return t.keys.public;
  return t.keys.pharmacy;
}

describe("fuzzing corpus (seeded, bounded)", () => {
  it("answers malformed REST requests on every route of every family with a 4xx, never a 5xx or a partial write", async () => {
    const random: Random = seededRandom(SEED);
    const failures: Failure[] = [];
    let total = 0;
    let refused = 0;
    for (const api of restApis) {
      for (const route of api.routes) {
        const queryKeys = [
          ...Object.keys(shapeOf(route.query) ?? {}),
          ...(route.paginated ? ["page", "limit"] : []),
          ...(api.family.pharmacyScoped ? ["pharmacy_uid"] : []),
        ];
        const routeName = `${route.method} ${api.family.basePath}${route.path}`;
        const template = bodyTemplates[routeName] ?? templateFor(route.body, ids);
        for (let i = 0; i < CASES_PER_ROUTE; i++) {
          const path = fillPath(random, route.path, ids);
          const query = malformedQuery(random, queryKeys);
          const body = !route.body ? null : route.bodyFormat === "form" ? malformedForm(random, template) : { ...malformedBody(random, template), contentType: "application/json" };
          // The route's query keys that name known things, with their real values, before the odd one (the first value wins).
          const known = new URLSearchParams(Object.keys(shapeOf(route.query) ?? {}).flatMap((key) => (ids(key) ? [[key, ids(key)!]] : [])));
          const search = [query.query, known.toString()].filter(Boolean).join("&");
          const url = `http://localhost:3000${api.family.basePath}${path.path}${search ? `?${search}` : ""}`;
          const headers: Record<string, string> = { "x-api-key": keyFor(api) };
          if (body) headers["content-type"] = body.contentType;
          const status = await check(
            failures,
            {
              label: `${route.method} ${url.slice(0, 300)}`,
              case: [path.label, query.label, body?.label].filter(Boolean).join("; "),
              mustRefuse: path.mustRefuse || query.mustRefuse || (body?.mustRefuse ?? false),
              writes: route.method !== "GET",
            },
            () => api.handle(new Request(url, { method: route.method, headers, body: body?.text })),
          );
          total++;
          if (status >= 400 && status < 500) refused++;
        }
      }
    }
    const routes = restApis.reduce((n, api) => n + api.routes.length, 0);
    expect(routes).toBeGreaterThanOrEqual(70);
    report("REST", failures, total, refused, routes * CASES_PER_ROUTE);
  });

  it("answers malformed input to every tRPC procedure with a 4xx, never a 5xx or a partial write", async () => {
    const random: Random = seededRandom(SEED + 1);
    const failures: Failure[] = [];
    let total = 0;
    let refused = 0;
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>;
    for (const [name, procedure] of Object.entries(procedures)) {
      const template = templateFor(procedure._def.inputs[0] as never, ids);
      const isQuery = procedure._def.type === "query";
      for (let i = 0; i < CASES_PER_PROCEDURE; i++) {
        const body = malformedBody(random, template);
        const base = `http://localhost:3000/api/trpc/${name}`;
        const request = isQuery
          ? new Request(`${base}?input=${encodeURIComponent(body.text)}`)
          : new Request(base, { method: "POST", headers: { "content-type": "application/json" }, body: body.text });
        const status = await check(
          failures,
          { label: `${isQuery ? "GET" : "POST"} ${base}`, case: body.label, mustRefuse: body.mustRefuse, writes: !isQuery },
          () => handleTrpcRequest(request, async () => pharmacist),
        );
        total++;
        if (status >= 400 && status < 500) refused++;
      }
    }
    const count = Object.keys(procedures).length;
    expect(count).toBeGreaterThanOrEqual(100);
    report("tRPC", failures, total, refused, count * CASES_PER_PROCEDURE);
  });

  it("answers malformed requests to Apple's PassKit web service with a 4xx, never a 5xx or a partial write", async () => {
    const random: Random = seededRandom(SEED + 2);
    const failures: Failure[] = [];
    let total = 0;
    let refused = 0;
    const TYPE = "pass.example.rx-sandbox";
    const known: Record<string, string> = { device: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", passType: TYPE, serial: walletPassUid };
    const routes = [
      { method: "POST", path: "/v1/devices/:device/registrations/:passType/:serial", body: { pushToken: "0123abcd" } },
      { method: "DELETE", path: "/v1/devices/:device/registrations/:passType/:serial" },
      { method: "GET", path: "/v1/devices/:device/registrations/:passType" },
      { method: "GET", path: "/v1/passes/:passType/:serial" },
      { method: "POST", path: "/v1/log", body: { logs: ["a device log line"] } },
    ] as const;
    for (const route of routes) {
      for (let i = 0; i < CASES_PER_ROUTE; i++) {
        const path = fillPath(random, route.path, (name) => known[name]);
        const query = malformedQuery(random, ["passesUpdatedSince"]);
        const body = "body" in route ? malformedBody(random, route.body) : null;
        const url = `http://localhost:3000/wallet/passkit${path.path}${query.query ? `?${query.query}` : ""}`;
        const headers: Record<string, string> = { authorization: `ApplePass ${passkitAuthenticationToken(walletPassUid)}` };
        if (body) headers["content-type"] = "application/json";
        // Next.js hands the route its segments decoded; one it cannot decode never reaches it (proxy.ts), sent raw here.
        const segments = path.path.split("/").slice(1).map((s) => {
          try {
            return decodeURIComponent(s);
          } catch {
            return s;
          }
        });
        const status = await check(
          failures,
          {
            label: `${route.method} ${url.slice(0, 300)}`,
            case: [path.label, query.label, body?.label].filter(Boolean).join("; "),
            // A bad query value is ignored by Apple's protocol (passesUpdatedSince is a tag): only the path and body must be refused.
            mustRefuse: path.mustRefuse || (body?.mustRefuse ?? false),
            writes: route.method !== "GET",
          },
          () => passkitRoute[route.method](new Request(url, { method: route.method, headers, body: body?.text }), { params: Promise.resolve({ path: segments }) }),
        );
        total++;
        if (status >= 400 && status < 500) refused++;
      }
    }
    report("PassKit", failures, total, refused, routes.length * CASES_PER_ROUTE);
  });

  it("answers signed malformed Shopify orders 200 and writes no order for a refused one; bad shop segments are a 404 (issue 36)", async () => {
    const random: Random = seededRandom(SEED + 4);
    const failures: Failure[] = [];
    let total = 0;
    let refused = 0;
    const secret = "fuzz-shopify-client-secret";
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    // No request of a malformed order reaches the store: a draft marker names no checkout of ours.
    await saveShopifyConnection(t.organisation.id, admin.id, t.shop.id, { storeUrl: "https://fuzz-store.myshopify.com", accessToken: "shpat_fuzz", clientSecret: secret });
    const shopSku = await t.db.shopSku.findFirstOrThrow({ where: { shopId: t.shop.id } });
    const url = `http://localhost:3000/api/shopify/webhooks/${t.shop.id}`;
    const orders = () => t.db.order.count({ where: { organisationId: t.organisation.id } });
    for (let i = 0; i < CASES_PER_ROUTE * 4; i++) {
      const template = paidOrderPayload({ id: 9_100_000 + i, variantId: 1, sku: shopSku.shopSku ?? shopSku.shopVariationId ?? undefined });
      (template.note_attributes as unknown[]).push({ name: "rx_draft_order_id", value: "no-such-draft" });
      const body = malformedBody(random, template);
      const before = await orders();
      const response = await shopifyRoute.POST(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-shopify-topic": "orders/paid", "x-shopify-webhook-id": `fuzz-${i}`, "x-shopify-hmac-sha256": shopifyHmac(body.text, secret) },
          body: body.text,
        }),
        { params: Promise.resolve({ shop: t.shop.id }) },
      );
      const text = await response.text();
      const fail = (problem: string) => failures.push({ request: `POST ${url}`, case: body.label, status: response.status, problem, body: text.slice(0, 300) });
      total++;
      // Signed: always acknowledged (Shopify would retry and then drop the subscription), never a 5xx.
      if (response.status !== 200) fail("not acknowledged");
      else if (text.includes("rejected")) {
        refused++;
        if ((await orders()) !== before) fail("refused, yet an order was written");
      } else if (body.mustRefuse) fail("accepted input that must be refused");
    }
    for (const segment of ["%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "%00", "%F0%9F", "x%00y"]) {
      const answer = await proxy(new NextRequest(`http://localhost:3000/api/shopify/webhooks/${segment}`, { method: "POST", body: "{}" }));
      total++;
      if (answer.status !== 404) failures.push({ request: `POST /api/shopify/webhooks/${segment}`, case: "shop segment", status: answer.status, problem: "not the 404", body: "" });
      else refused++;
    }
    report("Shopify webhooks", failures, total, refused, CASES_PER_ROUTE * 4 + 7);
  });

  it("answers malformed bodies to next-auth's routes with a 4xx before next-auth reads them, never a 5xx", async () => {
    const random: Random = seededRandom(SEED + 3);
    const failures: Failure[] = [];
    let total = 0;
    let refused = 0;
    const actions = [["callback", "credentials"], ["signin", "credentials"], ["signout"], ["session"], ["_log"], ["csrf"], ["%FF"]];
    const template = { email: "someone@example.com", password: "a password", csrfToken: "token", callbackUrl: "/admin", json: "true" };
    for (const action of actions) {
      for (let i = 0; i < CASES_PER_ROUTE; i++) {
        const asForm = random() < 0.5;
        const body = asForm ? malformedForm(random, template) : { ...malformedBody(random, template), contentType: "application/json" };
        const method = random() < 0.85 ? "POST" : "GET";
        const url = `http://localhost:3000/api/auth/${action.join("/")}`;
        const request = new Request(url, { method, headers: { "content-type": body.contentType }, body: method === "POST" ? body.text : undefined });
        const status = await check(
          failures,
          // next-auth takes JSON as well as forms: a form case sent as JSON may be accepted.
          { label: `${method} ${url}`, case: body.label, mustRefuse: method === "POST" && body.mustRefuse && !(asForm && body.contentType === "application/json"), writes: false },
          async () => {
            const checked = await checkedAuthRequest(request, action);
            // Handed on to next-auth: the gate accepted it.
            return checked instanceof Response ? checked : new Response(null, { status: 204 });
          },
        );
        total++;
        if (status >= 400 && status < 500) refused++;
      }
    }
    report("next-auth gate", failures, total, refused, actions.length * CASES_PER_ROUTE);
  });
});
