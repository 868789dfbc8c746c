import { randomInt, randomUUID } from "node:crypto";
import { createApiKey } from "@/server/auth/api-keys";
import { hashPassword } from "@/server/auth/password";
import type { Db } from "@/server/db/client";
import { newPharmacyOrderName } from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { pharmacyOrderSearchText } from "@/server/domain/pharmacy-orders/search-text";
import { compactPharmacyOrderTally } from "@/server/domain/pharmacy-orders/tally";
import { compactOrderTally } from "@/server/domain/orders/tally";
import { PHARMACY_ORDER_STATUS, type PharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";

/**
 * The orders scenario: one organisation with a shop, two pharmacies, 50 SKUs and BENCH_ORDERS
 * (default 100,000) pharmacy orders at the first pharmacy plus 5 % as many at the second, each with
 * its order, shop order, fulfillment, 1–3 order items and pharmacy order items and its history;
 * patients from a pool (one per five orders, at most 20,000), each a shop customer.
 *
 * The bulk rows go in a chunk of BATCH orders at a time, one multi-row INSERT … SELECT FROM
 * jsonb_populate_recordset per table and chunk, through the app's Prisma client ($executeRawUnsafe).
 * Not createMany: Prisma 6.19's client engine builds a createMany row by row on this process's
 * thread, about five times slower than the JSON route.
 */
const DEFAULT_ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const SKUS = 50;
const BATCH = 2_000;
const DAY = 86_400_000;

/** Concurrency of this scenario unless --concurrency overrides it (the targets are at 20 clients). */
export const ORDERS_CONCURRENCY = 20;

const FIRST_NAMES = [
  "Anna", "Maria", "Sophie", "Laura", "Julia", "Lea", "Lena", "Hannah", "Sarah", "Katharina", "Johanna", "Emma",
  "Mia", "Clara", "Paula", "Greta", "Ida", "Frieda", "Sabine", "Petra", "Andrea", "Claudia", "Monika", "Ursula",
  "Thomas", "Michael", "Andreas", "Stefan", "Christian", "Markus", "Alexander", "Daniel", "Jan", "Lukas", "Felix",
  "Jonas", "Paul", "Max", "Tobias", "Florian", "Sebastian", "Matthias", "Wolfgang", "Klaus", "Jürgen", "Peter",
];
const LAST_NAMES = [
  "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann",
  "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt", "Werner", "Schmitz", "Krause", "Meier",
  "Lehmann", "Schmid", "Schulze", "Maier", "Köhler", "Herrmann", "König", "Walter", "Mayer", "Huber",
  "Kaiser", "Fuchs", "Peters", "Lang", "Scholz", "Möller", "Weiß", "Jung", "Hahn", "Schubert",
  "Vogel", "Friedrich", "Keller", "Günther", "Frank", "Berger", "Winkler", "Roth", "Beck", "Lorenz",
  "Baumann", "Franke", "Albrecht", "Schuster", "Simon", "Ludwig", "Böhm", "Winter", "Kraus", "Martin",
];
const CITIES = [
  ["Berlin", "10115"], ["Hamburg", "20095"], ["München", "80331"], ["Köln", "50667"], ["Frankfurt am Main", "60311"],
  ["Stuttgart", "70173"], ["Düsseldorf", "40213"], ["Leipzig", "04109"], ["Dortmund", "44135"], ["Essen", "45127"],
] as const;
const STREETS = ["Hauptstraße", "Schulstraße", "Gartenstraße", "Bahnhofstraße", "Dorfstraße", "Bergstraße", "Lindenstraße"];

/** Status mix (weights in %): mostly waiting, in progress and completed. */
export const STATUS_WEIGHTS: [PharmacyOrderStatus, number][] = [
  [PHARMACY_ORDER_STATUS.waitingForPharmacy, 20],
  [PHARMACY_ORDER_STATUS.pendingReview, 4],
  [PHARMACY_ORDER_STATUS.onHold, 3],
  [PHARMACY_ORDER_STATUS.inProgress, 18],
  [PHARMACY_ORDER_STATUS.readyForPickup, 3],
  [PHARMACY_ORDER_STATUS.completed, 50],
  [PHARMACY_ORDER_STATUS.cancelled, 2],
];

function pickStatus(): PharmacyOrderStatus {
  let r = randomInt(100);
  for (const [status, weight] of STATUS_WEIGHTS) {
    if (r < weight) return status;
    r -= weight;
  }
  return PHARMACY_ORDER_STATUS.completed;
}

function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)];
}

/**
 * Inserts rows (objects keyed by column; every row with the same keys, every NOT NULL column without
 * a default given, ids included) in batches of BATCH: one statement per batch, the rows as one JSON
 * parameter read with the table's own row type, so the database does the type conversions.
 */
async function insertRows(db: Db, table: string, rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const columns = Object.keys(batch[0])
      .map((c) => `"${c}"`)
      .join(", ");
    await db.$executeRawUnsafe(
      `INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::"${table}", $1::jsonb)`,
      JSON.stringify(batch),
    );
  }
}

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `orders` at pharmacy A (default BENCH_ORDERS); `label` prefixes the log lines (another scenario may reuse this seed). */
export async function seedOrders(db: Db, { orders: ORDERS = DEFAULT_ORDERS, label = "orders" }: { orders?: number; label?: string } = {}) {
  const SECOND_PHARMACY_ORDERS = Math.round(ORDERS * 0.05);
  const PATIENTS = Math.max(10, Math.min(20_000, Math.floor(ORDERS / 5)));
  const started = performance.now();
  const now = Date.now();
  const organisation = await db.organisation.create({ data: { displayName: "Bench orders organisation" } });
  const organisationId = organisation.id;
  const shop = await db.shop.create({
    data: { organisationId, identifier: `bench-orders-${randomUUID().slice(0, 8)}`, displayName: "Bench orders shop" },
  });
  const pharmacyA = await db.pharmacy.create({ data: { organisationId, displayName: "Bench pharmacy A" } });
  const pharmacyB = await db.pharmacy.create({ data: { organisationId, displayName: "Bench pharmacy B" } });

  // Catalogue: 25 products × 2 SKUs, OTC (no prescription), at both pharmacies with ample stock; A is cheaper.
  const products = Array.from({ length: SKUS / 2 }, (_, i) => ({
    id: randomUUID(),
    organisationId,
    displayName: `OTC product ${i}`,
    handle: `otc-${i}`,
    prescriptionRequired: false,
  }));
  const shopProducts = products.map((p, i) => ({ id: randomUUID(), shopId: shop.id, productId: p.id, externalId: `osp-${i}` }));
  const skus = Array.from({ length: SKUS }, (_, i) => ({
    id: randomUUID(),
    organisationId,
    productId: products[i >> 1].id,
    displayName: `${products[i >> 1].displayName} ${i % 2 === 0 ? "50 ml" : "100 ml"}`,
    pzn: String(20_000_000 + i),
    unit: "pcs",
    standardSellingUnit: 1,
  }));
  const shopSkus = skus.map((s, i) => ({
    id: randomUUID(),
    shopId: shop.id,
    shopProductId: shopProducts[i >> 1].id,
    skuId: s.id,
    shopVariationId: `ov-${i}`,
    price: 1299,
  }));
  const pharmacySkus = [pharmacyA, pharmacyB].flatMap((pharmacy, p) =>
    skus.map((s, i) => ({
      id: randomUUID(),
      pharmacyId: pharmacy.id,
      skuId: s.id,
      externalId: `PMS-${p}-${i}`,
      price: 800 + i + p * 100,
      stock: 10_000_000,
    })),
  );
  await db.product.createMany({ data: products });
  await db.shopProduct.createMany({ data: shopProducts });
  await db.sku.createMany({ data: skus });
  await db.shopSku.createMany({ data: shopSkus });
  await db.pharmacySku.createMany({ data: pharmacySkus });
  const pharmacySkuOf = (pharmacyIndex: number, skuIndex: number) => pharmacySkus[pharmacyIndex * SKUS + skuIndex].id;

  // Patients, each a customer of the shop.
  const patients = Array.from({ length: PATIENTS }, (_, i) => {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const [city, zip] = pick(CITIES);
    return {
      id: randomUUID(),
      shopCustomerId: `cust-${i}`,
      organisationId,
      displayName: `${firstName} ${lastName}`,
      firstName,
      lastName,
      email: `patient${i}@example.com`,
      dateOfBirth: new Date(Date.UTC(1940 + randomInt(65), randomInt(12), 1 + randomInt(28))),
      address: {
        first_name: firstName,
        last_name: lastName,
        street: pick(STREETS),
        house_number: String(1 + randomInt(120)),
        zip_code: zip,
        city,
        country: "DE",
      },
    };
  });
  const seededAt = new Date(now);
  await insertRows(
    db,
    "PatientProfile",
    patients.map(({ address: _a, shopCustomerId: _c, ...p }) => ({ ...p, createdAt: seededAt, updatedAt: seededAt })),
  );
  await insertRows(
    db,
    "ShopCustomer",
    patients.map((p) => ({ id: randomUUID(), shopId: shop.id, shopCustomerId: p.shopCustomerId, patientId: p.id, email: p.email })),
  );
  const setupMs = performance.now() - started;

  // Orders, a chunk of BATCH at a time: order → shop order → fulfillment → items → pharmacy order → its items and history.
  const total = ORDERS + SECOND_PHARMACY_ORDERS;
  const names = new Set<string>();
  const sampleA: { id: string; name: string; status: string }[] = [];
  const statusCounts = new Map<string, number>();
  let orderItemCount = 0;
  let historyCount = 0;
  const ordersStarted = performance.now();
  for (let from = 0; from < total; from += BATCH) {
    const chunk = Array.from({ length: Math.min(BATCH, total - from) }, (_, k) => {
      const i = from + k;
      // Pharmacy B's orders are spread through the sequence (every 21st), so both pharmacies span the whole year.
      const atB = i % 21 === 20 && Math.floor(i / 21) < SECOND_PHARMACY_ORDERS;
      const patient = patients[randomInt(patients.length)];
      // Created over the last 365 days in insertion order (as a live table grows), with jitter.
      const createdAt = new Date(now - 365 * DAY + (i / total) * 365 * DAY + randomInt(600_000));
      const status = pickStatus();
      let name = newPharmacyOrderName();
      while (names.has(name)) name = newPharmacyOrderName();
      names.add(name);
      const items = Array.from({ length: 1 + randomInt(3) }, () => {
        const sku = randomInt(SKUS);
        const quantity = 1 + (randomInt(4) === 0 ? 1 : 0);
        return { sku, quantity, amount: 1299 * quantity };
      });
      return {
        i,
        atB,
        patient,
        createdAt,
        updatedAt: status === PHARMACY_ORDER_STATUS.waitingForPharmacy ? createdAt : new Date(createdAt.getTime() + randomInt(3 * DAY)),
        status,
        orderId: randomUUID(),
        fulfillmentId: randomUUID(),
        pharmacyOrderId: randomUUID(),
        shopOrderName: `#${1001 + i}`,
        name,
        items: items.map((item) => ({ ...item, orderItemId: randomUUID() })),
      };
    });

    await insertRows(
      db,
      "Order",
      chunk.map((o) => ({
        id: o.orderId,
        organisationId,
        externalId: `bench-order-${o.i}`,
        name: o.shopOrderName,
        status:
          o.status === PHARMACY_ORDER_STATUS.completed
            ? ORDER_STATUS.completed
            : o.status === PHARMACY_ORDER_STATUS.cancelled
              ? ORDER_STATUS.cancelled
              : ORDER_STATUS.waitingForPharmacy,
        patientId: o.patient.id,
        customerEmail: o.patient.email,
        deliveryAddress: o.patient.address,
        invoiceAddress: o.patient.address,
        shippingCostAmount: 495,
        shippingCostCurrency: "EUR",
        createdAt: o.createdAt,
        updatedAt: o.updatedAt,
      })),
    );
    await insertRows(
      db,
      "ShopOrder",
      chunk.map((o) => ({
        id: randomUUID(),
        orderId: o.orderId,
        shopId: shop.id,
        externalId: `bench-order-${o.i}`,
        name: o.shopOrderName,
        createdAt: o.createdAt,
      })),
    );
    await insertRows(
      db,
      "Fulfillment",
      chunk.map((o) => ({
        id: o.fulfillmentId,
        orderId: o.orderId,
        externalId: "f-1",
        createdAt: o.createdAt,
        updatedAt: o.updatedAt,
      })),
    );
    // The pharmacy order before its order items: the items' trigger (Fulfillment.needsPharmacy) then finds it at a pharmacy.
    await insertRows(
      db,
      "PharmacyOrder",
      chunk.map((o) => ({
        id: o.pharmacyOrderId,
        name: o.name,
        organisationId,
        orderId: o.orderId,
        fulfillmentId: o.fulfillmentId,
        activeFulfillmentId: o.fulfillmentId,
        pharmacyId: o.atB ? pharmacyB.id : pharmacyA.id,
        status: o.status,
        prepaid: 0,
        shippingCostsAmount: 495,
        shippingCostsCurrency: "EUR",
        searchText: pharmacyOrderSearchText({ shopOrderName: o.shopOrderName, name: o.name, patientName: o.patient.displayName, orderId: o.orderId, id: o.pharmacyOrderId }),
        createdAt: o.createdAt,
        updatedAt: o.updatedAt,
      })),
    );
    const orderItems = chunk.flatMap((o) =>
      o.items.map((item, n) => ({
        id: item.orderItemId,
        orderId: o.orderId,
        fulfillmentId: o.fulfillmentId,
        externalId: `item-${n + 1}`,
        skuId: skus[item.sku].id,
        shopSkuId: shopSkus[item.sku].id,
        quantity: item.quantity,
        totalPaidAmount: item.amount,
        totalPaidCurrency: "EUR",
        createdAt: o.createdAt,
      })),
    );
    orderItemCount += orderItems.length;
    await insertRows(db, "OrderItem", orderItems);
    await insertRows(
      db,
      "PharmacyOrderItem",
      chunk.flatMap((o) =>
        o.items.map((item) => ({
          id: randomUUID(),
          pharmacyOrderId: o.pharmacyOrderId,
          orderItemId: item.orderItemId,
          pharmacySkuId: pharmacySkuOf(o.atB ? 1 : 0, item.sku),
          amount: item.quantity,
          totalPaidAmount: item.amount,
        })),
      ),
    );
    // History: the creation, then (unless still waiting) the move to the current status.
    const history = chunk.flatMap((o) => [
      {
        id: randomUUID(),
        pharmacyOrderId: o.pharmacyOrderId,
        fromStatus: null,
        toStatus: PHARMACY_ORDER_STATUS.waitingForPharmacy,
        actorType: "SYSTEM",
        createdAt: o.createdAt,
      },
      ...(o.status === PHARMACY_ORDER_STATUS.waitingForPharmacy
        ? []
        : [
            {
              id: randomUUID(),
              pharmacyOrderId: o.pharmacyOrderId,
              fromStatus: PHARMACY_ORDER_STATUS.waitingForPharmacy,
              toStatus: o.status,
              actorType: "SYSTEM",
              createdAt: o.updatedAt,
            },
          ]),
    ]);
    historyCount += history.length;
    await insertRows(db, "PharmacyOrderHistory", history);

    for (const o of chunk) {
      statusCounts.set(o.status, (statusCounts.get(o.status) ?? 0) + 1);
      if (!o.atB) sampleA.push({ id: o.pharmacyOrderId, name: o.name, status: o.status });
    }
  }
  // The PharmacyOrder and Order triggers wrote one tally delta per row; a service folds them every minute.
  await compactPharmacyOrderTally();
  await compactOrderTally();
  const ordersMs = performance.now() - ordersStarted;

  const management = await createApiKey({
    family: "MANAGEMENT",
    displayName: "bench orders",
    permissions: ["order:write", "order:read"],
    organisationId,
  });
  const pharmacyKey = await createApiKey({
    family: "PHARMACY",
    displayName: "bench orders",
    permissions: ["orders_read", "orders_write"],
    organisationId,
    pharmacyId: pharmacyA.id,
  });

  // A pharmacist of pharmacy A, for the portal's queue (tRPC pharmacyOrders.list) beside the REST list.
  const pharmacist = { email: `bench-pharmacist-${randomUUID().slice(0, 8)}@example.com`, password: randomUUID() };
  await db.user.create({
    data: {
      email: pharmacist.email,
      displayName: "Bench Pharmacist",
      passwordHash: await hashPassword(pharmacist.password),
      role: "PHARMACIST",
      organisationId,
      pharmacyId: pharmacyA.id,
    },
  });

  // Request material: real uids, PO-name fragments (middle group), last-name fragments (4 letters, ASCII).
  const shuffled = [...sampleA].sort(() => Math.random() - 0.5);
  const detailUids = shuffled.slice(0, 1_000).map((o) => o.id);
  const nameFragments = shuffled.slice(0, 1_000).map((o) => o.name.split("-")[2]);
  const patchUids = shuffled.filter((o) => o.status === PHARMACY_ORDER_STATUS.waitingForPharmacy).slice(0, 1_000).map((o) => o.id);
  const usedLastNames = [...new Set(patients.map((p) => p.lastName))];
  const lastNameFragments = usedLastNames
    .map((n) => n.toLowerCase().slice(1, 5))
    .filter((f) => f.length === 4 && /^[a-z]+$/.test(f));

  const totalMs = performance.now() - started;
  const breakdown = [...statusCounts.entries()].map(([s, n]) => `${s} ${n}`).join(", ");
  console.log(
    `[${label}] seeded ${total} pharmacy orders (${ORDERS} at pharmacy A, ${SECOND_PHARMACY_ORDERS} at B), ` +
      `${orderItemCount} order items, ${historyCount} history rows, ${PATIENTS} patients in ${seconds(totalMs)} ` +
      `(catalogue and patients ${seconds(setupMs)}, orders ${seconds(ordersMs)}, ${Math.round(total / (ordersMs / 1000))} orders/s)`,
  );
  console.log(`[${label}] statuses: ${breakdown}`);

  return {
    managementKey: management.plaintext,
    managementKeyId: management.id,
    pharmacyKey: pharmacyKey.plaintext,
    pharmacist,
    shopIdentifier: shop.identifier,
    skuReferences: shopSkus.map((s) => s.shopVariationId),
    customerCount: PATIENTS,
    detailUids,
    patchUids,
    nameFragments,
    lastNameFragments,
    orderCount: total,
    seedMs: totalMs,
    organisationId,
    pharmacyId: pharmacyA.id,
    /** Every order at pharmacy A with its seeded status. */
    ordersAtPharmacyA: sampleA,
  };
}

export type OrdersContext = Awaited<ReturnType<typeof seedOrders>>;

/** Status codes seen per endpoint, with the first body of each unexpected one (for the report). */
export type StatusTally = Map<number, { count: number; sample?: string }>;

function tallied(tally: StatusTally, expect: number, send: () => Promise<Response>) {
  return async () => {
    const response = await send();
    let entry = tally.get(response.status);
    if (!entry) tally.set(response.status, (entry = { count: 0 }));
    entry.count++;
    if (response.status !== expect && entry.sample === undefined) {
      entry.sample = "";
      entry.sample = (await response.clone().text()).slice(0, 300);
    }
    return response;
  };
}

/**
 * A portal session cookie of `user`, through next-auth's own sign-in (CSRF token, then the
 * credentials callback), as a browser gets it.
 */
export async function portalSessionCookie(url: string, user: { email: string; password: string }): Promise<string> {
  const cookies = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies(csrf).join("; ") },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, json: "true" }),
  });
  const session = cookies(signIn).find((c) => c.includes("session-token="));
  if (!session) throw new Error(`bench: portal sign-in failed (${signIn.status})`);
  return session;
}

const P95_50 = "p95 < 50 ms";
const P95_100 = "p95 < 100 ms";

/** The endpoints measured, each a request factory against a running server. */
export function ordersEndpoints(url: string, ctx: OrdersContext) {
  const base = `${url}/v1/external_pharmacy_api/pharmacy_orders`;
  const read = { "x-api-key": ctx.pharmacyKey };
  const write = { "x-api-key": ctx.pharmacyKey, "content-type": "application/json" };
  const run = randomUUID().slice(0, 8);
  const patchPool = ctx.patchUids.length;
  let session: Promise<string> | undefined;
  const portal = async (procedure: string, input: unknown) =>
    fetch(`${url}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { cookie: await (session ??= portalSessionCookie(url, ctx.pharmacist)) },
    });

  const endpoints: { name: string; target: string; expectStatus: number; send: (i: number) => Promise<Response> }[] = [
    {
      // Calibration: the same key check and one database round trip, no order data. What any
      // authenticated request costs on this machine before it does its own work.
      name: "GET /v1/external_pharmacy_api/health (calibration: key check and a database ping)",
      target: "—",
      expectStatus: 200,
      send: () => fetch(`${url}/v1/external_pharmacy_api/health`, { headers: read }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_orders/ (limit 50, pages 0–199)",
      target: P95_50,
      expectStatus: 200,
      send: (i) => fetch(`${base}/?limit=50&page=${i % 200}`, { headers: read }),
    },
    {
      // The portal's queue: the same list statement, plus the per-status tally and the page's delivery types.
      name: "GET /api/trpc/pharmacy.orders.list (portal queue, limit 50, pages 0–199)",
      target: P95_50,
      expectStatus: 200,
      send: (i) => portal("pharmacy.orders.list", { limit: 50, page: i % 200 }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_orders/ (limit 200, pages 0–49)",
      target: P95_50,
      expectStatus: 200,
      send: (i) => fetch(`${base}/?limit=200&page=${i % 50}`, { headers: read }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_orders/?search=<last-name fragment>",
      target: P95_50,
      expectStatus: 200,
      send: (i) =>
        fetch(`${base}/?search=${encodeURIComponent(ctx.lastNameFragments[i % ctx.lastNameFragments.length])}`, { headers: read }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_orders/?search=<PO-name group>",
      target: P95_50,
      expectStatus: 200,
      send: (i) => fetch(`${base}/?search=${encodeURIComponent(ctx.nameFragments[i % ctx.nameFragments.length])}`, { headers: read }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_orders/{uid}",
      target: "—",
      expectStatus: 200,
      send: (i) => fetch(`${base}/${ctx.detailUids[i % ctx.detailUids.length]}`, { headers: read }),
    },
    {
      // Each order of the pool (all "waiting for pharmacy" at seeding) goes to in-progress on the first
      // pass and to pending review on the second, so every request is a real transition.
      name: "PATCH /v1/external_pharmacy_api/pharmacy_orders/{uid}/status",
      target: "—",
      expectStatus: 200,
      send: (i) =>
        fetch(`${base}/${ctx.patchUids[i % patchPool]}/status`, {
          method: "PATCH",
          headers: write,
          body: JSON.stringify({ status: Math.floor(i / patchPool) % 2 === 0 ? "in-progress" : "pending review" }),
        }),
    },
    {
      // A new order each time; three in four from a returning customer, one in four from a new one.
      name: "POST /v1/management/orders (intake)",
      target: P95_100,
      expectStatus: 201,
      send: (i) => {
        const firstName = FIRST_NAMES[i % FIRST_NAMES.length];
        const lastName = LAST_NAMES[(i * 7) % LAST_NAMES.length];
        const customerId = i % 4 === 3 ? `bench-new-${run}-${i}` : `cust-${(i * 7919) % ctx.customerCount}`;
        return fetch(`${url}/v1/management/orders`, {
          method: "POST",
          headers: { "x-api-key": ctx.managementKey, "content-type": "application/json" },
          body: JSON.stringify({
            shop_identifier: ctx.shopIdentifier,
            external_id: `bench-intake-${run}-${i}`,
            customer: { id: customerId, email: `${customerId}@example.com` },
            delivery_address: {
              first_name: firstName,
              last_name: lastName,
              street: "Hauptstraße",
              house_number: String(1 + (i % 120)),
              zip_code: "10115",
              city: "Berlin",
              country: "DE",
            },
            fulfillments: [
              {
                external_id: "f-1",
                items: [
                  {
                    external_id: "item-1",
                    sku_reference: ctx.skuReferences[i % ctx.skuReferences.length],
                    quantity: 1,
                    total_paid: { amount: 1299, currency: "EUR" },
                  },
                ],
              },
            ],
          }),
        });
      },
    },
  ];
  return endpoints.map((e) => {
    const statuses: StatusTally = new Map();
    return {
      name: e.name,
      target: e.target,
      expectStatus: e.expectStatus,
      statuses,
      request: (i: number) => tallied(statuses, e.expectStatus, () => e.send(i))(),
    };
  });
}
