import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { getPharmacyOrderView } from "@/server/domain/pharmacy-orders/queries";
import { paginated } from "@/server/wire/format";
import { address, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { laterThanAnyStampSoFar, onPostgres, untilWaitingForLock } from "@/tests/locks";
import { createSubscription } from "@/tests/webhook-logs";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { presentPharmacyOrder } from "./pharmacy-order.presenters";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
});

const BASE = "/v1/external_pharmacy_api/pharmacy_orders";

/** Places an order routed to pharmacy A and returns its pharmacy order. */
async function newPharmacyOrder(overrides: Record<string, unknown> = {}, quantity = 1) {
  const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity, total_paid: { amount: 499 * quantity, currency: "EUR" } })], overrides));
  expect(r.status).toBe(201);
  return t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
}

const setStatus = (id: string, body: Record<string, unknown>, key = t.keys.pharmacy) => patch(`${BASE}/${id}/status`, { key, body });
const complete = (id: string, body?: Record<string, unknown>, key = t.keys.pharmacy) => patch(`${BASE}/${id}/complete_order`, { key, body });
const stockOf = async (id = t.pharmacySku.id) => (await t.db.pharmacySku.findUniqueOrThrow({ where: { id } })).stock;

describe("list and detail", () => {
  it("lists the pharmacy's orders in the spec's shape, newest first", async () => {
    await t.db.pharmacyShippingMethodMapping.deleteMany({});
    const po = await newPharmacyOrder({
      name: "#1001",
      shipping_methods: ["standard", "express"],
      shipping_cost: { amount: 495, currency: "EUR" },
      priority: 3,
    });
    const standard = await t.db.shopShippingMethod.findFirstOrThrow({ where: { shopId: t.shop.id, externalId: "standard" } });
    await t.db.pharmacyShippingMethodMapping.create({ data: { pharmacyId: t.pharmacy.id, shopShippingMethodId: standard.id, identifierForPharmacy: "DHL_STD" } });
    const r = await get(`${BASE}/`, { key: t.keys.pharmacy });
    expect(r.status).toBe(200);
    const entry = r.json.data[0];
    expect(entry).toEqual({
      uid: po.id,
      status: "waiting for pharmacy",
      name: po.name,
      shop_order_name: "#1001",
      external_status: "OPEN",
      pharmacy: { uid: t.pharmacy.id, display_name: "Apotheke A" },
      order: {
        uid: po.orderId,
        delivery_address: expect.objectContaining({ first_name: "Erika", country: "Germany", additional_address: null, province: null }),
        invoice_address: expect.objectContaining({ country: "Germany" }),
        priority: 3,
      },
      order_items: [{ uid: expect.any(String), amount: 1, sku: { uid: t.sku.id, display_name: "Aspirin 500 mg", pzn: "11111111" }, total_paid_amount: 499 }],
      shop_shipping_methods: [
        { uid: expect.any(String), display_name: "express", external_id: "express", pharmacy_mapping: null },
        { uid: standard.id, display_name: "standard", external_id: "standard", pharmacy_mapping: { pharmacy_uid: t.pharmacy.id, shipping_method_identifier_for_pharmacy: "DHL_STD" } },
      ],
      shipping_costs_amount: 495,
      shipping_costs_currency: "EUR",
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
  });

  it("builds list entries in the database byte for byte as the presenter shows the same orders", async () => {
    // The list's JSON is built in SQL (server/domain/pharmacy-orders/queries.ts); every other response presents in JavaScript.
    await newPharmacyOrder({
      name: 'Café "7" \\ ü',
      shipping_methods: ["standard", "express"],
      invoice_address: { ...address, country: "CI", additional_address: "Hinterhaus\n2. OG", province: "Lagunes" },
      customer: { id: "unicode-customer" },
      delivery_address: { ...address, first_name: "Zoë", last_name: "O'Brien ☃", country: "AT" },
    });
    const twoItems = await placeOrder(
      t,
      orderBody(t, [item(refs.otcReference, { external_id: "i-1" }), item(refs.otcReference, { external_id: "i-2", quantity: 3 })]),
    );
    expect(twoItems.status).toBe(201);
    const r = await get(`${BASE}/`, { key: t.keys.pharmacy, query: { limit: 5 } });
    expect(r.status).toBe(200);
    const views = await Promise.all(r.json.data.map((e: { uid: string }) => getPharmacyOrderView(t.pharmacy.id, e.uid)));
    expect(r.json.data.length).toBeGreaterThanOrEqual(3);
    expect(r.text).toBe(JSON.stringify(paginated(views.map(presentPharmacyOrder), r.json.totalRegistries, { page: 0, limit: 5 })));
  });

  it("returns the detail with patient, doctor, prescription file, prepaid, shipments and payouts", async () => {
    const po = await newPharmacyOrder();
    const r = await get(`${BASE}/${po.id}`, { key: t.keys.pharmacyOrdersRead });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      uid: po.id,
      patient_data: { uid: expect.any(String), display_name: "Erika Mustermann", email: "erika@example.com", date_of_birth: null },
      doctor_data: null,
      prescription_file: null,
      prepaid: 0,
      shipments: [],
      payouts: [],
    });
  });

  it("filters by status, search (names and uids, any case), creation time, and pages", async () => {
    const a = await newPharmacyOrder({ name: "#SHOPNAME-77", customer: { id: "c-77" }, delivery_address: { ...orderBody(t, []).delivery_address, first_name: "Zelda", last_name: "Quackenbush" } });
    const b = await newPharmacyOrder();
    await setStatus(b.id, { status: "in-progress" });
    const list = async (query: Record<string, string | number>) =>
      (await get(BASE, { key: t.keys.pharmacy, query })).json as { data: { uid: string }[]; totalRegistries: number; totalPages: number };
    const uids = async (query: Record<string, string | number>) => (await list(query)).data.map((d) => d.uid);

    expect(await uids({ status: "in-progress" })).toEqual([b.id]);
    expect(await uids({ search: "shopname-7" })).toEqual([a.id]);
    expect(await uids({ search: "QUACKEN" })).toEqual([a.id]);
    expect(await uids({ search: a.name.slice(3, 12).toLowerCase() })).toEqual([a.id]);
    expect(await uids({ search: a.orderId })).toEqual([a.id]);
    expect(await uids({ search: a.id.toUpperCase() })).toEqual([a.id]);
    expect(await uids({ search: "%" })).toEqual([]);

    const created = Math.floor(a.createdAt.getTime() / 1000);
    expect(await uids({ start_date: created, end_date: created, search: "quackenbush" })).toEqual([a.id]);
    expect(await uids({ start_date: created + 1, search: "quackenbush" })).toEqual([]);
    expect(await uids({ end_date: created - 1, search: "quackenbush" })).toEqual([]);

    const total = (await list({})).totalRegistries;
    const page = await list({ limit: 1, page: 1 });
    expect(page.totalPages).toBe(total);
    expect(page.data).toHaveLength(1);
  });

  it("caps a larger limit at 200 (spec: max 200) when there are more than 200 rows", async () => {
    const many = await createTenant();
    const manyRefs = await withShopSkus(many);
    const r = await placeOrder(many, orderBody(many, [item(manyRefs.otcReference)]));
    expect(r.status).toBe(201);
    const po = await many.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    // 230 more pharmacy orders of the same order, each on a fulfillment of its own (written in SQL:
    // placing them one by one would cost a minute); the tally trigger counts them.
    await many.db.$executeRaw`
      INSERT INTO "Fulfillment" ("id", "orderId", "externalId", "status", "destinationPharmacyId", "updatedAt")
      SELECT gen_random_uuid()::text, ${po.orderId}, 'cap-' || g, 'OPEN', ${po.pharmacyId}, now() FROM generate_series(1, 230) g`;
    await many.db.$executeRaw`
      INSERT INTO "PharmacyOrder" ("id", "name", "organisationId", "orderId", "fulfillmentId", "activeFulfillmentId", "pharmacyId", "status", "searchText", "updatedAt")
      SELECT gen_random_uuid()::text, 'PO-CAP-' || f."externalId", ${po.organisationId}, ${po.orderId}, f."id", f."id", ${po.pharmacyId}, ${po.status}, '', now()
        FROM "Fulfillment" f WHERE f."orderId" = ${po.orderId} AND f."externalId" LIKE 'cap-%'`;
    const total = await many.db.pharmacyOrder.count({ where: { pharmacyId: many.pharmacy.id } });
    expect(total).toBe(231);
    const first = await get(`${BASE}/`, { key: many.keys.pharmacy, query: { limit: "1000" } });
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(200);
    expect([first.json.totalRegistries, first.json.totalPages]).toEqual([total, 2]);
    const last = await get(`${BASE}/`, { key: many.keys.pharmacy, query: { limit: "1000", page: "1" } }); // pages count from 0
    expect(last.json.data).toHaveLength(total - 200);
  });

  it("refuses unknown filter values with field errors", async () => {
    const queries: Record<string, string | number>[] = [{ status: "shipped" }, { start_date: "yesterday" }, { end_date: -5 }];
    for (const query of queries) {
      const r = await get(BASE, { key: t.keys.pharmacy, query });
      expect(r.status).toBe(400);
      expect(Object.keys(r.json.error)).toEqual(Object.keys(query));
    }
  });

  it("hides other pharmacies' orders (404) and scopes group keys by pharmacy_uid", async () => {
    const po = await newPharmacyOrder();
    expect((await get(`${BASE}/${po.id}`, { key: t.keys.loosePharmacy })).status).toBe(404);
    expect((await setStatus(po.id, { status: "in-progress" }, t.keys.loosePharmacy)).status).toBe(404);
    expect((await complete(po.id, undefined, t.keys.loosePharmacy)).status).toBe(404);
    expect((await get(`${BASE}/${po.id}`, { key: t.keys.pharmacyGroup })).status).toBe(400);
    // complete_order names its own refusals, but a pharmacy out of the key's reach is the generic one.
    for (const query of [{}, { pharmacy_uid: t.loosePharmacy.id }] as Record<string, string>[]) {
      const refused = await patch(`${BASE}/${po.id}/complete_order`, { key: t.keys.pharmacyGroup, query, body: {} });
      expect([refused.status, refused.json]).toEqual([400, { error: "Bad request" }]);
    }
    expect((await get(`${BASE}/${po.id}`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.pharmacy.id } })).status).toBe(200);
    expect((await get(`${BASE}/${po.id}`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id } })).status).toBe(404);
    const listed = await get(BASE, { key: t.keys.loosePharmacy });
    expect(listed.json.totalRegistries).toBe(0);
  });

  it("needs orders_read to read and orders_write to change", async () => {
    const po = await newPharmacyOrder();
    expect((await get(BASE, { key: t.keys.pharmacyStockRead })).json).toEqual({ error: "Permission denied" });
    expect((await setStatus(po.id, { status: "in-progress" }, t.keys.pharmacyOrdersRead)).status).toBe(403);
    expect((await complete(po.id, undefined, t.keys.pharmacyOrdersRead)).status).toBe(403);
  });
});

describe("status changes", () => {
  const history = (id: string) => t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: id }, orderBy: { createdAt: "asc" } });
  const updates = (id: string) => t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_updated", subjectId: id } });

  it("stamps a change that waited for the order's row lock with the time it was made, not when its transaction began", async () => {
    const po = await newPharmacyOrder();
    let changed: ReturnType<typeof setStatus> | undefined;
    let released = 0;
    // Another command holds the order's lock while the PATCH arrives. On PostgreSQL the PATCH's
    // transaction begins and waits for the row lock (seen in pg_locks), so a stamp taken when its
    // transaction began (now()) would fall before the release. On PGlite (one connection) the PATCH
    // cannot begin before the holder commits: there the test proves only that the change is stamped
    // after the holder's release, not the race.
    await t.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "PharmacyOrder" WHERE "id" = ${po.id} FOR UPDATE`;
        changed = setStatus(po.id, { status: "in-progress" });
        if (onPostgres) await untilWaitingForLock(t.db);
        released = await laterThanAnyStampSoFar();
      }
    );
    expect((await changed!).status).toBe(200);
    const order = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } });
    const entry = (await history(po.id)).at(-1)!;
    const event = await t.db.outboxEvent.findFirstOrThrow({ where: { eventType: "pharmacy_order_updated", subjectId: po.id } });
    expect(entry.toStatus).toBe("in-progress");
    for (const stamp of [order.updatedAt, entry.createdAt, event.createdAt]) expect(stamp.getTime()).toBeGreaterThanOrEqual(released);
  });

  it("moves between the settable statuses, with history and pharmacy_order_updated", async () => {
    const po = await newPharmacyOrder();
    for (const status of ["pending review", "in-progress", "ready_for_pickup", "waiting for pharmacy"]) {
      const r = await setStatus(po.id, { status, comment: "ignored" });
      expect(r.status).toBe(200);
      expect(r.json.status).toBe(status);
    }
    const entries = await history(po.id);
    expect(entries.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "waiting for pharmacy"],
      ["waiting for pharmacy", "pending review"],
      ["pending review", "in-progress"],
      ["in-progress", "ready_for_pickup"],
      ["ready_for_pickup", "waiting for pharmacy"],
    ]);
    expect(entries.slice(1).every((h) => h.actorType === "API_KEY" && h.actorApiKeyId && h.comment === null)).toBe(true);
    expect(await updates(po.id)).toBe(4);
  });

  it("re-sending the current status changes nothing but sends pharmacy_order_updated (the table's first row)", async () => {
    const po = await newPharmacyOrder();
    await setStatus(po.id, { status: "in-progress" });
    const r = await setStatus(po.id, { status: "in-progress" });
    expect(r).toMatchObject({ status: 200, json: { status: "in-progress" } });
    expect(await updates(po.id)).toBe(2);
    expect((await history(po.id)).map((h) => h.toStatus)).toEqual(["waiting for pharmacy", "in-progress"]);
  });

  it("puts an order on hold only with a comment, opening an admin issue thread; re-sending on-hold needs none", async () => {
    const po = await newPharmacyOrder();
    for (const body of [{ status: "on-hold" }, { status: "on-hold", comment: "   " }, { status: "on-hold", comment: null }]) {
      const r = await setStatus(po.id, body);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: { comment: ["A comment is required when setting an order on hold"] } });
    }
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status).toBe("waiting for pharmacy");
    const held = await setStatus(po.id, { status: "on-hold", comment: "Patient's date of birth is missing" });
    expect(held.json.status).toBe("on-hold");
    const threads = await t.db.adminIssueThread.findMany({ where: { pharmacyOrderId: po.id } });
    expect(threads).toMatchObject([{ description: "Patient's date of birth is missing", status: "OPEN", openedByType: "API_KEY" }]);
    expect((await history(po.id)).at(-1)).toMatchObject({ toStatus: "on-hold", comment: "Patient's date of birth is missing" });
    const sent = await updates(po.id);
    const again = await setStatus(po.id, { status: "on-hold" });
    expect(again).toMatchObject({ status: 200, json: { status: "on-hold" } });
    // Idempotent: no comment needed, no second thread, no history entry; the event is sent as for every PATCH.
    expect(await t.db.adminIssueThread.count({ where: { pharmacyOrderId: po.id } })).toBe(1);
    expect((await history(po.id)).filter((h) => h.toStatus === "on-hold")).toHaveLength(1);
    expect(await updates(po.id)).toBe(sent + 1);
  });

  it("sends pharmacy_order_updated on the moves to on-hold and to cancelled: outbox events and deliveries", async () => {
    const po = await newPharmacyOrder();
    // Earlier tests' events go out first: subscriptions are matched when events are dispatched.
    while ((await dispatchOutboxEvents()).events > 0);
    const subscription = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    try {
      expect((await setStatus(po.id, { status: "on-hold", comment: "Which strength?" })).status).toBe(200);
      expect((await setStatus(po.id, { status: "cancelled" })).status).toBe(200);
      const events = await t.db.outboxEvent.findMany({
        where: { eventType: "pharmacy_order_updated", subjectId: po.id },
        orderBy: { createdAt: "asc" },
        select: { id: true, organisationId: true, pharmacyId: true },
      });
      expect(events).toEqual([
        { id: expect.any(String), organisationId: t.organisation.id, pharmacyId: t.pharmacy.id },
        { id: expect.any(String), organisationId: t.organisation.id, pharmacyId: t.pharmacy.id },
      ]);
      while ((await dispatchOutboxEvents()).events > 0);
      const deliveries = await t.db.webhookDelivery.findMany({ where: { subscriptionId: subscription.id }, select: { outboxEventId: true, eventType: true } });
      expect(deliveries.sort((a, b) => events.findIndex((e) => e.id === a.outboxEventId) - events.findIndex((e) => e.id === b.outboxEventId))).toEqual(
        events.map((e) => ({ outboxEventId: e.id, eventType: "pharmacy_order_updated" })),
      );
    } finally {
      await t.db.webhookSubscription.update({ where: { id: subscription.id }, data: { deletedAt: new Date() } });
    }
  });

  it("keeps a cancelled order cancelled: every change answers 400 Bad request", async () => {
    const po = await newPharmacyOrder();
    expect((await setStatus(po.id, { status: "cancelled" })).json.status).toBe("cancelled");
    for (const status of ["waiting for pharmacy", "in-progress", "cancelled", "on-hold"]) {
      const r = await setStatus(po.id, { status, comment: "x" });
      expect(r).toMatchObject({ status: 400, json: { error: "Bad request" } });
    }
    const r = await complete(po.id);
    expect(r.status).toBe(400);
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status).toBe("cancelled");
    // Routed automatically, the fulfillment the pharmacy gave back went on to another pharmacy (docs/decisions/intake.md#re-routing).
    const order = await t.db.order.findUniqueOrThrow({ where: { id: po.orderId } });
    expect(order.status).toBe("waiting for pharmacy");
    const active = await t.db.pharmacyOrder.findUniqueOrThrow({ where: { activeFulfillmentId: po.fulfillmentId } });
    expect(active).toMatchObject({ pharmacyId: t.groupPharmacy.id, status: "waiting for pharmacy" });
  });

  it("never sets completed through PATCH status, and refuses unknown statuses and bodies", async () => {
    const po = await newPharmacyOrder();
    for (const body of [{ status: "completed" }, { status: "shipped" }, {}, { status: 3 }]) {
      const r = await setStatus(po.id, body);
      expect(r.status).toBe(400);
      expect(r.json.error.status).toBeDefined();
    }
    const bad = await patch(`${BASE}/${po.id}/status`, { key: t.keys.pharmacy, raw: "{oops", headers: { "content-type": "application/json" } });
    expect(bad).toMatchObject({ status: 400, json: { error: "Bad request" } });
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status).toBe("waiting for pharmacy");
  });
});

describe("completion", () => {
  it("completes with stock reduced, movements, events, shipments and routed payouts", async () => {
    const po = await newPharmacyOrder({ shipping_cost: { amount: 495, currency: "EUR" } }, 3);
    const before = await stockOf();
    const r = await complete(po.id, {
      tracking_links: [
        { tracking_link: "https://tracking.example/dhl/123", carrier: "DHL" },
        { tracking_link: "https://tracking.example/ups/456", carrier: "UPS" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ uid: po.id, status: "completed", name: po.name, external_status: "OPEN", pharmacy: { uid: t.pharmacy.id } });
    expect(await stockOf()).toBe(before - 3);
    const moves = await t.db.stockMovement.findMany({ where: { pharmacyOrderId: po.id } });
    expect(moves).toMatchObject([{ pharmacySkuId: t.pharmacySku.id, delta: -3, stockAfter: before - 3, reason: "ORDER_COMPLETION" }]);
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: t.pharmacySku.id, createdAt: { gte: po.createdAt } } })).toBe(1);
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_updated", subjectId: po.id } })).toBe(1);

    const detail = await get(`${BASE}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.shipments).toEqual([
      { uid: expect.any(String), sequence_number: 1, tracking_url: "https://tracking.example/dhl/123", tracking_number: null, carrier_name: "DHL", is_test: false, return_tracking_number: null, return_label_expiry: null },
      { uid: expect.any(String), sequence_number: 2, tracking_url: "https://tracking.example/ups/456", tracking_number: null, carrier_name: "UPS", is_test: false, return_tracking_number: null, return_label_expiry: null },
    ]);
    // 3 × 499 paid; the pharmacy's price is 450 → 1350 rest, 147 markup; shipping 495.
    expect(detail.json.payouts.map((p: any) => [p.status, p.component_type, p.amount, p.currency, p.provider_route_id, typeof p.routing_created_at])).toEqual([
      ["routed", "item_markup", 147, "EUR", null, "number"],
      ["routed", "item_rest", 1350, "EUR", null, "number"],
      ["routed", "shipping", 495, "EUR", null, "number"],
    ]);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: po.orderId } });
    expect(order.status).toBe("completed");
    const management = await get(`/v1/management/orders/${po.orderId}`, { key: t.keys.management });
    expect(management.json.overall_status).toBe("completed");
  });

  it("sends one pharmacy_sku_stock_updated per SKU: two lines of the same SKU are one event, the stock reduced by both", async () => {
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference, { quantity: 2 }), item(refs.otcReference, { quantity: 3 })]));
    expect(r.status, r.text).toBe(201);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, include: { items: true } });
    expect(po.items).toHaveLength(2);
    const before = await stockOf();
    const events = () => t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: t.pharmacySku.id, createdAt: { gte: po.createdAt } } });
    expect(await events()).toBe(0);
    expect((await complete(po.id)).status).toBe(200);
    expect(await stockOf()).toBe(before - 5);
    expect(await events()).toBe(1);
  });

  it("accepts every carrier of the spec, each recorded on its own shipment", async () => {
    // The spec's list, written out here: a carrier dropped from the accepted values fails this test.
    const carriers = ["DHL", "DPD", "UPS", "Hermes", "FedEx", "Other"];
    const po = await newPharmacyOrder();
    const links = carriers.map((carrier, i) => ({ tracking_link: `https://tracking.example/${i}`, carrier }));
    const r = await complete(po.id, { tracking_links: links });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const detail = await get(`${BASE}/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.shipments.map((s: any) => [s.sequence_number, s.carrier_name, s.tracking_url])).toEqual(
      carriers.map((carrier, i) => [i + 1, carrier, `https://tracking.example/${i}`]),
    );
  });

  it("is idempotent without tracking data and refuses tracking data on a completed order", async () => {
    const po = await newPharmacyOrder();
    expect((await complete(po.id)).status).toBe(200);
    const stock = await stockOf();
    const again = await complete(po.id, {});
    expect(again).toMatchObject({ status: 200, json: { status: "completed" } });
    expect(await stockOf()).toBe(stock);
    const withTracking = await complete(po.id, { tracking_links: [{ tracking_link: "https://t.example/1", carrier: "DPD" }] });
    expect(withTracking.status).toBe(400);
    expect(typeof withTracking.json.error).toBe("string");
    expect(await t.db.shipment.count({ where: { pharmacyOrderId: po.id } })).toBe(0);
  });

  it("reduces stock and routes payouts at the first completion only, also when the order left completed and came back", async () => {
    const po = await newPharmacyOrder({}, 2);
    const before = await stockOf();
    expect((await complete(po.id)).status).toBe(200);
    expect(await stockOf()).toBe(before - 2);
    const payouts = await t.db.payout.count({ where: { pharmacyOrderId: po.id } });
    expect((await setStatus(po.id, { status: "in-progress" })).json.status).toBe("in-progress");
    const again = await complete(po.id, { tracking_links: [{ tracking_link: "https://t.example/2", carrier: "DHL" }] });
    expect(again).toMatchObject({ status: 200, json: { status: "completed" } });
    expect(await stockOf()).toBe(before - 2);
    expect(await t.db.payout.count({ where: { pharmacyOrderId: po.id } })).toBe(payouts);
    expect(await t.db.stockMovement.count({ where: { pharmacyOrderId: po.id } })).toBe(1);
    expect(await t.db.shipment.count({ where: { pharmacyOrderId: po.id } })).toBe(1); // the new parcel is recorded
  });

  it("answers the spec's own 400 shapes for invalid JSON and validation failures", async () => {
    const po = await newPharmacyOrder();
    const invalid = await patch(`${BASE}/${po.id}/complete_order`, { key: t.keys.pharmacy, raw: "{nope", headers: { "content-type": "application/json" } });
    expect(invalid).toMatchObject({ status: 400, json: { error: ["Invalid JSON in request body"] } });
    const carrier = await complete(po.id, { tracking_links: [{ tracking_link: "https://t.example/1", carrier: "Pigeon" }] });
    expect(carrier.status).toBe(400);
    expect(carrier.json).toEqual({
      error: { tracking_links: { "0": { carrier: [expect.stringContaining("DHL")] } } },
      pharmacy: { uid: t.pharmacy.id, display_name: "Apotheke A" },
    });
    const link = await complete(po.id, { tracking_links: [{ tracking_link: "not a url", carrier: "DHL" }] });
    expect(link.json.error.tracking_links["0"].tracking_link).toBeDefined();
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status).toBe("waiting for pharmacy");
  });

  it("reduces stock once under 20 concurrent completions of one order", async () => {
    const po = await newPharmacyOrder({}, 2);
    const before = await stockOf();
    const results = await Promise.all(Array.from({ length: 20 }, () => complete(po.id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await stockOf()).toBe(before - 2);
    expect(await t.db.stockMovement.count({ where: { pharmacyOrderId: po.id } })).toBe(1);
    expect(await t.db.payout.count({ where: { pharmacyOrderId: po.id, status: "ROUTED", componentType: "item_rest" } })).toBe(1);
  });

  it("reduces stock by exactly the sum under concurrent completions of different orders", async () => {
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await newPharmacyOrder({}, (i % 3) + 1));
    const sum = orders.reduce((s, _, i) => s + (i % 3) + 1, 0);
    const before = await stockOf();
    const results = await Promise.all(orders.map((po) => complete(po.id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await stockOf()).toBe(before - sum);
  });
});
