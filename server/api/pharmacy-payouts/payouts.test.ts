import { beforeAll, describe, expect, it } from "vitest";
import * as payoutsRoute from "@/app/v1/external-pharmacy-api-v1/[[...path]]/route";
import { unix } from "@/server/wire/format";
import type { Payout } from "@/server/db/generated/client";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { presentPayoutRow } from "./payout.presenters";

const BASE = "/v1/external-pharmacy-api-v1";
const PAYOUTS = `${BASE}/payouts`;

/** Calls the real route module with a real Request, the way tests/http.ts does for the other families. */
async function get(path: string, key: string | undefined, query: Record<string, string | number> = {}) {
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const headers = new Headers();
  if (key !== undefined) headers.set("x-api-key", key);
  const response = await payoutsRoute.GET(new Request(url, { method: "GET", headers }));
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("application/json") ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, json };
}

type Row = ReturnType<typeof presentPayoutRow>;
const list = async (key: string, query: Record<string, string | number> = {}) => {
  const r = await get(PAYOUTS, key, { limit: 200, ...query });
  expect(r.status, r.text).toBe(200);
  return r.json as { data: Row[]; totalRegistries: number; totalPages: number };
};
const uids = (rows: Row[]) => rows.map((r) => r.pharmacy_order_uid);

let t: Tenant;
let other: Tenant;

const at = (iso: string) => new Date(iso);
// Pharmacy A's orders: created at T1…T4, routed at R1 (with milliseconds) and R2.
const T1 = at("2024-01-10T08:00:00Z");
const T2 = at("2024-01-20T08:00:00Z");
const T3 = at("2024-03-01T08:00:00Z");
const T4 = at("2024-02-15T08:00:00Z");
const R1 = at("2024-02-01T00:00:00.500Z");
const R2 = at("2024-01-25T12:00:00Z");

type PO = { id: string; name: string };
let po1: PO; // A, completed: item_rest 450, item_markup 150, shipping 495 (routed at R1)
let po2: PO; // A, completed: item_rest 450, item_markup 550 (routed at R2)
let po3: PO; // A, open: two projected rows
let po4: PO; // B (same group), completed: B's routed rows, plus one projected row whose receiver is A
let foreign: PO; // another organisation's pharmacy, completed

/** Order `externalId`: one aspirin paid `paid` (and `shipping`), sent to `pharmacyId`; its pharmacy order. */
async function orderAt(tenant: Tenant, externalId: string, pharmacyId: string, paid: number, shipping?: number): Promise<PO> {
  const aspirin = item("var-aspirin", { external_id: `${externalId}-i1`, total_paid: eur(paid) });
  const body = routedOrderBody(tenant, externalId, pharmacyId, [aspirin], shipping ? { shipping_cost: eur(shipping) } : {});
  return (await createTestOrder(tenant, body)).pharmacyOrders[0];
}

async function complete(tenant: Tenant, pharmacyId: string, order: PO, createdAt: Date, routedAt: Date) {
  await completePharmacyOrder(pharmacyId, order.id, [], { type: "SYSTEM" });
  await tenant.db.pharmacyOrder.update({ where: { id: order.id }, data: { createdAt } });
  await tenant.db.payout.updateMany({ where: { pharmacyOrderId: order.id }, data: { routingCreatedAt: routedAt } });
  // A route id per component, as a provider's answer would set it (server/domain/payouts/create-route.ts), so provider_route_id has values to show and search.
  await tenant.db.$executeRaw`UPDATE "Payout" SET "providerRouteId" = 'tr_' || "componentType" || '_' || "amount" WHERE "pharmacyOrderId" = ${order.id}`;
}

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
  await offerSku(other, { shopVariationId: "var-aspirin", price: 600 });

  po1 = await orderAt(t, "o-1", t.pharmacy.id, 600, 495);
  await complete(t, t.pharmacy.id, po1, T1, R1);
  po2 = await orderAt(t, "o-2", t.pharmacy.id, 1000);
  await complete(t, t.pharmacy.id, po2, T2, R2);
  po4 = await orderAt(t, "o-4", t.groupPharmacy.id, 700);
  await complete(t, t.groupPharmacy.id, po4, T4, R2);
  foreign = await orderAt(other, "o-x", other.pharmacy.id, 600);
  await complete(other, other.pharmacy.id, foreign, T2, R2);

  po3 = await orderAt(t, "o-3", t.pharmacy.id, 800, 300);
  await t.db.pharmacyOrder.update({ where: { id: po3.id }, data: { createdAt: T3 } });
  await t.db.payout.createMany({
    data: [
      // A projected row never shows a provider route, even if the column holds a stale value.
      { pharmacyOrderId: po3.id, receiverPharmacyId: t.pharmacy.id, status: "PROJECTED", amount: 450, currency: "EUR", componentType: "item_rest", routingDescription: "Projected items", providerRouteId: "tr_stale_1" },
      { pharmacyOrderId: po3.id, receiverPharmacyId: t.pharmacy.id, status: "PROJECTED", amount: 300, currency: "EUR", componentType: "shipping", routingDescription: "Projected shipping costs" },
      { pharmacyOrderId: po4.id, receiverPharmacyId: t.pharmacy.id, status: "PROJECTED", amount: 77, currency: "EUR", componentType: "referral", routingDescription: null },
    ],
  });
});


describe("rows", () => {
  it("lists the rows the pharmacy receives, in the spec's shape, newest pharmacy order first", async () => {
    const r = await list(t.keys.pharmacy);
    expect(r.totalRegistries).toBe(8);
    expect(r.totalPages).toBe(1);
    expect(uids(r.data)).toEqual([po3.id, po3.id, po4.id, po2.id, po2.id, po1.id, po1.id, po1.id]);
    const rest = r.data.find((row) => row.pharmacy_order_uid === po1.id && row.component_type === "item_rest");
    expect(rest).toEqual({
      status: "routed",
      amount: 450,
      currency: "EUR",
      component_type: "item_rest",
      routing_description: "Items at the pharmacy's price",
      provider_route_id: "tr_item_rest_450",
      pharmacy_order_uid: po1.id,
      pharmacy_order_name: po1.name,
      pharmacy_order_created_at: unix(T1),
      routing_created_at: unix(R1),
    });
    expect(r.data.filter((row) => row.pharmacy_order_uid === po1.id).map((row) => [row.component_type, row.amount]).sort()).toEqual([
      ["item_markup", 150],
      ["item_rest", 450],
      ["shipping", 495],
    ]);
    const projected = r.data.find((row) => row.pharmacy_order_uid === po3.id && row.component_type === "item_rest");
    expect(projected).toEqual({
      status: "projected",
      amount: 450,
      currency: "EUR",
      component_type: "item_rest",
      routing_description: "Projected items",
      provider_route_id: null,
      pharmacy_order_uid: po3.id,
      pharmacy_order_name: po3.name,
      pharmacy_order_created_at: unix(T3),
      routing_created_at: null,
    });
    for (const row of r.data) {
      expect(Number.isInteger(row.amount)).toBe(true);
      expect(Number.isInteger(row.pharmacy_order_created_at)).toBe(true);
    }
  });

  it("presentPayoutRow takes a whole Payout row with its pharmacy order", async () => {
    const payout: Payout = await t.db.payout.findFirstOrThrow({ where: { pharmacyOrderId: po3.id, componentType: "item_rest" } });
    const row = presentPayoutRow({ ...payout, routingCreatedAt: R1, pharmacyOrder: { id: po3.id, name: po3.name, createdAt: T3 } });
    expect(row).toMatchObject({ status: "projected", provider_route_id: null, routing_created_at: null, pharmacy_order_created_at: unix(T3) });
    const routed = presentPayoutRow({ ...payout, status: "ROUTED", routingCreatedAt: R1, pharmacyOrder: { id: po3.id, name: null, createdAt: T3 } });
    expect(routed).toMatchObject({ status: "routed", provider_route_id: "tr_stale_1", routing_created_at: unix(R1), pharmacy_order_name: null });
  });

  it("pages with page and limit, stable and complete", async () => {
    const first = await list(t.keys.pharmacy, { limit: 3 });
    expect(first).toMatchObject({ totalRegistries: 8, totalPages: 3 });
    const pages = [first.data];
    for (const page of [1, 2]) pages.push((await list(t.keys.pharmacy, { limit: 3, page })).data);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(pages.flat()).toEqual((await list(t.keys.pharmacy)).data);
    expect((await list(t.keys.pharmacy, { limit: 3, page: 3 })).data).toEqual([]);
    const defaults = await get(PAYOUTS, t.keys.pharmacy);
    expect(defaults.json).toMatchObject({ totalRegistries: 8, totalPages: 1 });
  });

  describe("with more rows than the largest page", () => {
    // Another organisation's pharmacy with 205 payout rows, so that a wrong default or cap shows.
    let bulk: Tenant;
    const ROWS = 205;
    beforeAll(async () => {
      bulk = await createTenant();
      await offerSku(bulk, { shopVariationId: "var-aspirin", price: 600 });
      const order = await orderAt(bulk, "o-bulk", bulk.pharmacy.id, 600);
      await bulk.db.payout.deleteMany({ where: { pharmacyOrderId: order.id } });
      await bulk.db.payout.createMany({
        data: Array.from({ length: ROWS }, (_, i) => ({
          pharmacyOrderId: order.id,
          receiverPharmacyId: bulk.pharmacy.id,
          status: "PROJECTED" as const,
          amount: 100 + i,
          currency: "EUR",
          componentType: "item_rest",
        })),
      });
    });

    it("returns 50 rows without a limit", async () => {
      const r = await get(PAYOUTS, bulk.keys.pharmacy);
      expect(r.status, r.text).toBe(200);
      expect(r.json.data).toHaveLength(50);
      expect(r.json).toMatchObject({ totalRegistries: ROWS, totalPages: Math.ceil(ROWS / 50) });
    });

    it("caps a larger limit at 200", async () => {
      for (const limit of [201, 5000]) {
        const r = await get(PAYOUTS, bulk.keys.pharmacy, { limit });
        expect(r.status, r.text).toBe(200);
        expect(r.json.data).toHaveLength(200);
        expect(r.json).toMatchObject({ totalRegistries: ROWS, totalPages: 2 });
      }
    });
  });
});

describe("filters", () => {
  it("filters by status", async () => {
    const projected = await list(t.keys.pharmacy, { status: "projected" });
    expect(projected.totalRegistries).toBe(3);
    expect(projected.data.every((r) => r.status === "projected")).toBe(true);
    const routed = await list(t.keys.pharmacy, { status: "routed" });
    expect(routed.totalRegistries).toBe(5);
    expect(routed.data.every((r) => r.status === "routed" && r.routing_created_at !== null)).toBe(true);
  });

  it("searches case-insensitively in pharmacy order uid and name, routed provider route id and routing description", async () => {
    const count = async (search: string, extra: Record<string, string> = {}) =>
      (await list(t.keys.pharmacy, { search, ...extra })).totalRegistries;
    expect(uids((await list(t.keys.pharmacy, { search: po1.name.toLowerCase() })).data)).toEqual([po1.id, po1.id, po1.id]);
    expect(uids((await list(t.keys.pharmacy, { search: po2.id.slice(4, 16).toUpperCase() })).data)).toEqual([po2.id, po2.id]);
    expect(await count("TR_ITEM_MARKUP")).toBe(2);
    expect(await count("tr_shipping_495")).toBe(1);
    expect(await count("shipping costs")).toBe(2); // "Shipping costs" (routed) and "Projected shipping costs"
    // The stale provider route id of a projected row is not a provider route id.
    expect(await count("tr_stale")).toBe(0);
    // LIKE wildcards are literal characters: "_" only matches the routed rows' provider route ids.
    expect(await count("_")).toBe(5);
    expect(await count("%")).toBe(0);
    expect(await count("nothing like this")).toBe(0);
    expect(await count("")).toBe(8);
    expect(await count("projected", { status: "routed" })).toBe(0);
  });

  it("filters by date: routed rows by routing time, projected rows by pharmacy order creation, both ends inclusive", async () => {
    const rows = async (query: Record<string, number>) => (await list(t.keys.pharmacy, query)).data;
    // Exactly R1's second (R1 has milliseconds): PO1's three routed rows.
    expect(uids(await rows({ start_date: unix(R1), end_date: unix(R1) }))).toEqual([po1.id, po1.id, po1.id]);
    expect(await rows({ start_date: unix(R1) + 1, end_date: unix(R1) + 1 })).toEqual([]);
    // PO2 was created on Jan 20 and routed on Jan 25: only its routing time counts.
    expect(uids(await rows({ start_date: unix(at("2024-01-21T00:00:00Z")), end_date: unix(at("2024-01-31T00:00:00Z")) }))).toEqual([
      po2.id,
      po2.id,
    ]);
    expect(await rows({ start_date: unix(at("2024-01-19T00:00:00Z")), end_date: unix(at("2024-01-21T00:00:00Z")) })).toEqual([]);
    // From Feb 10: projected rows of orders created since (PO3, and A's row on PO4); PO1 was routed before.
    expect(uids(await rows({ start_date: unix(at("2024-02-10T00:00:00Z")) }))).toEqual([po3.id, po3.id, po4.id]);
    // Projected rows by their order's creation second, inclusive.
    expect(uids(await rows({ start_date: unix(T4), end_date: unix(T4) }))).toEqual([po4.id]);
    expect(uids(await rows({ end_date: unix(at("2024-01-31T00:00:00Z")) }))).toEqual([po2.id, po2.id]);
    expect((await list(t.keys.pharmacy, { start_date: 0, status: "projected" })).totalRegistries).toBe(3);
  });
});

describe("sorting", () => {
  it("sorts by pharmacy order creation, descending by default, ascending on request", async () => {
    expect(uids((await list(t.keys.pharmacy, { sort_direction: "asc" })).data)).toEqual([
      po1.id, po1.id, po1.id, po2.id, po2.id, po4.id, po3.id, po3.id,
    ]);
    const explicit = await list(t.keys.pharmacy, { sort_by: "pharmacy_order_created_at", sort_direction: "desc" });
    expect(explicit.data).toEqual((await list(t.keys.pharmacy)).data);
  });

  it("sorts by routing time, projected rows last in either direction", async () => {
    const desc = (await list(t.keys.pharmacy, { sort_by: "routing_created_at" })).data;
    expect(uids(desc)).toEqual([po1.id, po1.id, po1.id, po2.id, po2.id, po3.id, po3.id, po4.id]);
    const asc = (await list(t.keys.pharmacy, { sort_by: "routing_created_at", sort_direction: "asc" })).data;
    expect(uids(asc)).toEqual([po2.id, po2.id, po1.id, po1.id, po1.id, po4.id, po3.id, po3.id]);
  });

  it("sorts by amount, with a stable order for equal amounts", async () => {
    const asc = (await list(t.keys.pharmacy, { sort_by: "amount", sort_direction: "asc" })).data.map((r) => r.amount);
    expect(asc).toEqual([77, 150, 300, 450, 450, 450, 495, 550]);
    const desc = (await list(t.keys.pharmacy, { sort_by: "amount" })).data;
    expect(desc.map((r) => r.amount)).toEqual([550, 495, 450, 450, 450, 300, 150, 77]);
    // Equal amounts keep one order across pages.
    const paged = [];
    for (let page = 0; page < 4; page++) paged.push(...(await list(t.keys.pharmacy, { sort_by: "amount", limit: 2, page })).data);
    expect(paged).toEqual(desc);
  });
});

describe("scope and access", () => {
  it("never shows another pharmacy's rows, nor another organisation's", async () => {
    const mine = new Set(uids((await list(t.keys.pharmacy)).data));
    expect(mine).toEqual(new Set([po1.id, po2.id, po3.id, po4.id]));
    expect(mine.has(foreign.id)).toBe(false);
    // B receives its own rows of PO4, but not A's projected row on that order.
    const b = await list(t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id });
    expect(b.totalRegistries).toBe(2);
    expect(b.data.map((r) => [r.pharmacy_order_uid, r.status, r.component_type, r.amount])).toEqual(
      expect.arrayContaining([
        [po4.id, "routed", "item_rest", 470],
        [po4.id, "routed", "item_markup", 230],
      ]),
    );
    expect((await list(t.keys.loosePharmacy)).totalRegistries).toBe(0);
    const theirs = await list(other.keys.pharmacy);
    expect(uids(theirs.data)).toEqual([foreign.id, foreign.id]);
  });

  it("needs pharmacy_uid within the group for group keys", async () => {
    const viaGroup = await list(t.keys.pharmacyGroup, { pharmacy_uid: t.pharmacy.id });
    expect(viaGroup).toEqual(await list(t.keys.pharmacy));
    expect(await get(PAYOUTS, t.keys.pharmacyGroup)).toMatchObject({ status: 400, json: { error: "Bad request" } });
    expect(await get(PAYOUTS, t.keys.pharmacyGroup, { pharmacy_uid: t.loosePharmacy.id })).toMatchObject({
      status: 400,
      json: { error: "Bad request" },
    });
    expect(await get(PAYOUTS, t.keys.pharmacyGroup, { pharmacy_uid: other.pharmacy.id })).toMatchObject({ status: 400 });
    // A single-pharmacy key may name its own pharmacy, not another.
    expect((await list(t.keys.pharmacy, { pharmacy_uid: t.pharmacy.id })).totalRegistries).toBe(8);
    expect(await get(PAYOUTS, t.keys.pharmacy, { pharmacy_uid: t.groupPharmacy.id })).toMatchObject({
      status: 400,
      json: { error: "Bad request" },
    });
  });

  it("needs orders_read and a pharmacy key", async () => {
    expect((await list(t.keys.pharmacyOrdersRead)).totalRegistries).toBe(8);
    expect(await get(PAYOUTS, t.keys.pharmacyStockRead)).toMatchObject({ status: 403, json: { error: "Permission denied" } });
    expect(await get(PAYOUTS, undefined)).toMatchObject({ status: 401, json: { code: "authorization_header_missing" } });
    expect(await get(PAYOUTS, t.keys.management)).toMatchObject({ status: 401, json: { code: "invalid_api_key" } });
  });

  it("serves health and the HTML 404 for unknown paths like the other families", async () => {
    expect(await get(`${BASE}/health`, t.keys.pharmacy)).toMatchObject({ status: 200, json: { status: "ok" } });
    expect((await get(`${PAYOUTS}/`, t.keys.pharmacy)).status).toBe(200);
    const unknown = await get(`${BASE}/pharmacy_orders`, t.keys.pharmacy);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("text/html");
  });
});

describe("bad input", () => {
  it("answers 400 with field errors", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ status: "foo" }, "status"],
      [{ status: "ROUTED" }, "status"],
      [{ sort_by: "foo" }, "sort_by"],
      [{ sort_by: "created_at" }, "sort_by"],
      [{ sort_direction: "up" }, "sort_direction"],
      [{ start_date: "abc" }, "start_date"],
      [{ start_date: "2024-01-01" }, "start_date"],
      [{ end_date: "1.5" }, "end_date"],
      [{ end_date: "-1" }, "end_date"],
      [{ start_date: "1700000000", end_date: "1600000000" }, "end_date"],
      [{ search: "x".repeat(101) }, "search"],
      [{ limit: "0" }, "limit"],
      [{ page: "-1" }, "page"],
    ];
    for (const [query, field] of cases) {
      const r = await get(PAYOUTS, t.keys.pharmacy, query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(Object.keys(r.json.error), JSON.stringify(query)).toEqual([field]);
      expect(Array.isArray(r.json.error[field])).toBe(true);
    }
    const status = await get(PAYOUTS, t.keys.pharmacy, { status: "foo" });
    expect(status.json).toEqual({ error: { status: ["Must be one of: projected, routed."] } });
    const date = await get(PAYOUTS, t.keys.pharmacy, { start_date: "abc" });
    expect(date.json).toEqual({ error: { start_date: ["A valid integer is required."] } });
  });
});
