import pg from "pg";
import { reloadConfig } from "@/server/config";
import { closeDatabase, database, type Db } from "@/server/db/client";
import { compactOrderTally } from "@/server/domain/orders/tally";
import { pharmacyOrderSearchText, searchTextPattern } from "@/server/domain/pharmacy-orders/search-text";
import { compactPharmacyOrderTally } from "@/server/domain/pharmacy-orders/tally";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { cpuBetween, type CpuSample } from "../cpu";
import { runLoad } from "../load";
import { loadAverage } from "../run-info";
import { startServer } from "../server";
import { adminEndpoints, AUDIT_EVENTS, insertAuditEvents, type AdminContext } from "./admin";
import { ORDERS_CONCURRENCY, ordersEndpoints, STATUS_WEIGHTS } from "./orders";

/**
 * The tenfold scenario (PostgreSQL only; not part of "all"): the admin scenario's data (the orders
 * scenario's 105,000 pharmacy orders with their histories, audit events and open threads), and a copy
 * of that database grown to BENCH_TENFOLD_FACTOR (default 10) times its pharmacy orders and audit
 * events inside PostgreSQL, its tallies folded and VACUUM ANALYZE; then every read row of the orders
 * and admin scenarios with the same requests on both, in turns (runTenfold). Writes (PATCH, intake)
 * are left out: they do not read the tables' size.
 *
 * Growing is INSERT … SELECT over generate_series, CHUNK orders a statement per table, every row
 * built by the database (no row passes through this process), with the trigram indexes built again
 * at the end rather than maintained row by row: a million pharmacy orders in minutes where the
 * orders scenario's seed, which builds each row here, writes about a thousand a second.
 * The new orders are spread over the same year as the first ones (ten times the orders a day, not
 * ten years) and inserted in time order, as a live table grows (the first ones were too), at the same
 * two pharmacies in the same shares, for the same patients, SKUs and status mix; their pharmacy order names use only characters the service's names never contain (I, O, 0,
 * 1), so no searched name group matches one of them. Their search texts are built by the statement
 * in the format of pharmacyOrderSearchText, which is checked on a sample afterwards.
 */
const FACTOR = Number(process.env.BENCH_TENFOLD_FACTOR ?? 10);
const CHUNK = 50_000;
/** The tables grow() writes rows into. */
const GROWN_TABLES = ["Order", "ShopOrder", "Fulfillment", "PharmacyOrder", "OrderItem", "PharmacyOrderItem", "PharmacyOrderHistory", "AuditEvent"];
const DAY_MS = 86_400_000;

export type TenfoldMeasure = { rps: number; p50: number; p95: number; errors: number; serverMs: number; postgresMs: number };
export type TenfoldRow = { endpoint: string; clients: number; before: TenfoldMeasure; after: TenfoldMeasure };
/** Mean matches of a searched term (pharmacy orders at the measured pharmacy whose search text contains it), at each size. */
export type SearchMatches = { search: string; before: number; after: number };
export type TenfoldResult = {
  rows: TenfoldRow[];
  ordersBefore: number;
  ordersAfter: number;
  growSeconds: number;
  rounds: number;
  loads: string[];
  matches: SearchMatches[];
};

/** The status mix of the orders scenario as a CASE over r, a uniform integer in [0, 100). */
function statusCase(r: string): string {
  let upTo = 0;
  const branches = STATUS_WEIGHTS.map(([status, weight]) => `WHEN ${r} < ${(upTo += weight)} THEN '${status}'`);
  return `CASE ${branches.join(" ")} ELSE '${PHARMACY_ORDER_STATUS.completed}' END`;
}

/**
 * Grows the organisation's pharmacy orders (and everything an order carries) to `target`, and its
 * audit events by (FACTOR - 1) times the admin scenario's, in chunks; returns the orders made.
 */
async function grow(ctx: AdminContext, url: string, target: number, log: (line: string) => void): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const q = (sql: string, values: unknown[] = []) => client.query(sql, values);
    await q("SET statement_timeout = 0");
    await q("SET maintenance_work_mem = '256MB'");
    const org = ctx.organisationId;
    const [{ n: existing, first, last }] = (
      await q(
        `SELECT count(*)::int AS n, min("createdAt") AS first, max("createdAt") AS last FROM "PharmacyOrder" WHERE "organisationId" = $1`,
        [org],
      )
    ).rows as { n: number; first: Date; last: Date }[];
    const adding = Math.max(0, target - existing);
    const shop = (await q(`SELECT "id" FROM "Shop" WHERE "identifier" = $1`, [ctx.shopIdentifier])).rows[0].id as string;
    const pharmacyB = (await q(`SELECT "id" FROM "Pharmacy" WHERE "organisationId" = $1 AND "id" <> $2`, [org, ctx.pharmacyId])).rows[0].id as string;
    // The catalogue and the patients, numbered, for the random picks below.
    // Temporary tables are made empty and filled by INSERT … SELECT: CREATE TABLE AS takes no parameters.
    await q(`CREATE TEMP TABLE grow_skus (n int, "skuId" text, "shopSkuId" text, "pharmacySkuA" text, "pharmacySkuB" text)`);
    await q(`INSERT INTO grow_skus
      SELECT row_number() OVER (ORDER BY ss."shopVariationId")::int, s."id", ss."id", a."id", b."id"
        FROM "ShopSku" ss JOIN "Sku" s ON s."id" = ss."skuId"
        JOIN "PharmacySku" a ON a."skuId" = s."id" AND a."pharmacyId" = $2
        JOIN "PharmacySku" b ON b."skuId" = s."id" AND b."pharmacyId" = $3
       WHERE ss."shopId" = $1`, [shop, ctx.pharmacyId, pharmacyB]);
    const skus = (await q(`SELECT count(*)::int AS n FROM grow_skus`)).rows[0].n as number;
    await q(`CREATE TEMP TABLE grow_patients (n int, "id" text, "displayName" text, "email" text, "address" jsonb)`);
    await q(`INSERT INTO grow_patients
      SELECT row_number() OVER (ORDER BY p."id")::int, p."id", p."displayName", p."email",
             jsonb_build_object('first_name', p."firstName", 'last_name', p."lastName", 'street', 'Hauptstraße', 'house_number', '5',
                                'zip_code', '10115', 'city', 'Berlin', 'country', 'DE')
        FROM "PatientProfile" p WHERE p."organisationId" = $1`, [org]);
    await q(`CREATE TEMP TABLE grow_orders (i int, "orderId" text, "fulfillmentId" text, "pharmacyOrderId" text, "atB" boolean, "patientN" int,
                                            "createdAt" timestamptz, "updatedAt" timestamptz, "status" text, "itemCount" int,
                                            "shopOrderName" text, "name" text)`);
    await q(`CREATE TEMP TABLE grow_items ("orderItemId" text, "orderId" text, "fulfillmentId" text, "pharmacyOrderId" text, "atB" boolean,
                                           "createdAt" timestamptz, k int, "skuN" int, "quantity" int)`);
    const patients = (await q(`SELECT count(*)::int AS n FROM grow_patients`)).rows[0].n as number;
    const spanMs = new Date(last).getTime() - new Date(first).getTime() + DAY_MS;
    // A bulk load: the trigram indexes of the growing tables are dropped and built again afterwards
    // from their own definitions (maintaining them row by row, past shared_buffers, made the load ten times slower).
    const trigram = (
      await q(`SELECT "indexname", "indexdef" FROM pg_indexes
                WHERE "schemaname" = current_schema() AND "indexdef" LIKE '%gin_trgm_ops%' AND "tablename" IN ('Order', 'ShopOrder', 'PharmacyOrder')`)
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of trigram) await q(`DROP INDEX "${index.indexname}"`);

    for (let from = 0; from < adding; from += CHUNK) {
      const size = Math.min(CHUNK, adding - from);
      const t0 = performance.now();
      // One row per new order: ids, pharmacy (every 21st at B, as the first orders), patient, time, status, item count.
      await q(`TRUNCATE grow_orders, grow_items`);
      await q(`INSERT INTO grow_orders
        SELECT o.i, o."orderId", o."fulfillmentId", o."pharmacyOrderId", o."atB", o."patientN", o."createdAt",
               CASE WHEN o."status" = $6 THEN o."createdAt" ELSE o."createdAt" + random() * interval '3 days' END,
               o."status", o."itemCount", o."shopOrderName", o."name"
          FROM (SELECT g.i, gen_random_uuid()::text AS "orderId", gen_random_uuid()::text AS "fulfillmentId",
                       gen_random_uuid()::text AS "pharmacyOrderId", g.i % 21 = 20 AS "atB", 1 + floor(random() * $2)::int AS "patientN",
                       $3::timestamptz + (($4::float8 * (g.i - $7::int) / $8::int) + random() * 600000) * interval '1 millisecond' AS "createdAt",
                       ${statusCase("floor(random() * 100)")} AS "status", 1 + floor(random() * 3)::int AS "itemCount",
                       '#' || (1001 + g.i) AS "shopOrderName",
                       'PO-' || substr(x.s, 1, 4) || '-' || substr(x.s, 5, 4) || '-' || substr(x.s, 9, 4) AS "name"
                  FROM generate_series($1::int, $1::int + $5::int - 1) AS g(i)
                  CROSS JOIN LATERAL (SELECT string_agg(substr('IO01', ((g.i >> (2 * k)) & 3) + 1, 1), '' ORDER BY k DESC) AS s
                                        FROM generate_series(0, 11) AS k) x) o`,
        [existing + from, patients, first, spanMs, size, PHARMACY_ORDER_STATUS.waitingForPharmacy, existing, adding]);
      await q(`INSERT INTO "Order" ("id", "organisationId", "externalId", "name", "status", "patientId", "customerEmail", "deliveryAddress",
                                    "invoiceAddress", "shippingCostAmount", "shippingCostCurrency", "createdAt", "updatedAt")
               SELECT o."orderId", $1, 'bench-order-' || o.i, o."shopOrderName",
                      CASE o."status" WHEN $2 THEN $3 WHEN $4 THEN $5 ELSE $6 END,
                      p."id", p."email", p."address", p."address", 495, 'EUR', o."createdAt", o."updatedAt"
                 FROM grow_orders o JOIN grow_patients p ON p.n = o."patientN" ORDER BY o.i`, [
        org,
        PHARMACY_ORDER_STATUS.completed,
        ORDER_STATUS.completed,
        PHARMACY_ORDER_STATUS.cancelled,
        ORDER_STATUS.cancelled,
        ORDER_STATUS.waitingForPharmacy,
      ]);
      await q(`INSERT INTO "ShopOrder" ("id", "orderId", "shopId", "externalId", "name", "createdAt")
               SELECT gen_random_uuid()::text, o."orderId", $1, 'bench-order-' || o.i, o."shopOrderName", o."createdAt" FROM grow_orders o ORDER BY o.i`, [shop]);
      await q(`INSERT INTO "Fulfillment" ("id", "orderId", "externalId", "createdAt", "updatedAt")
               SELECT o."fulfillmentId", o."orderId", 'f-1', o."createdAt", o."updatedAt" FROM grow_orders o ORDER BY o.i`);
      await q(`INSERT INTO "PharmacyOrder" ("id", "name", "organisationId", "orderId", "fulfillmentId", "activeFulfillmentId", "pharmacyId", "status",
                                            "prepaid", "shippingCostsAmount", "shippingCostsCurrency", "searchText", "createdAt", "updatedAt")
               SELECT o."pharmacyOrderId", o."name", $1, o."orderId", o."fulfillmentId", o."fulfillmentId", CASE WHEN o."atB" THEN $3 ELSE $2 END,
                      o."status", 0, 495, 'EUR',
                      lower(concat_ws(chr(31), o."shopOrderName", o."name", p."displayName", o."orderId", o."pharmacyOrderId")),
                      o."createdAt", o."updatedAt"
                 FROM grow_orders o JOIN grow_patients p ON p.n = o."patientN" ORDER BY o.i`, [org, ctx.pharmacyId, pharmacyB]);
      await q(`INSERT INTO grow_items
        SELECT gen_random_uuid()::text AS "orderItemId", o."orderId", o."fulfillmentId", o."pharmacyOrderId", o."atB", o."createdAt", k,
               1 + floor(random() * $1)::int AS "skuN", CASE WHEN random() < 0.25 THEN 2 ELSE 1 END AS "quantity"
          FROM grow_orders o CROSS JOIN LATERAL generate_series(1, o."itemCount") AS k`, [skus]);
      await q(`INSERT INTO "OrderItem" ("id", "orderId", "fulfillmentId", "externalId", "skuId", "shopSkuId", "quantity", "totalPaidAmount",
                                        "totalPaidCurrency", "createdAt")
               SELECT i."orderItemId", i."orderId", i."fulfillmentId", 'item-' || i.k, s."skuId", s."shopSkuId", i."quantity", 1299 * i."quantity",
                      'EUR', i."createdAt"
                 FROM grow_items i JOIN grow_skus s ON s.n = i."skuN" ORDER BY i."createdAt", i.k`);
      await q(`INSERT INTO "PharmacyOrderItem" ("id", "pharmacyOrderId", "orderItemId", "pharmacySkuId", "amount", "totalPaidAmount")
               SELECT gen_random_uuid()::text, i."pharmacyOrderId", i."orderItemId", CASE WHEN i."atB" THEN s."pharmacySkuB" ELSE s."pharmacySkuA" END,
                      i."quantity", 1299 * i."quantity"
                 FROM grow_items i JOIN grow_skus s ON s.n = i."skuN" ORDER BY i."createdAt", i.k`);
      // History: the creation, then (unless still waiting) the move to the current status.
      await q(`INSERT INTO "PharmacyOrderHistory" ("id", "pharmacyOrderId", "fromStatus", "toStatus", "actorType", "createdAt")
               SELECT gen_random_uuid()::text, o."pharmacyOrderId", NULL, $1, 'SYSTEM'::"ActorType", o."createdAt" FROM grow_orders o
               UNION ALL
               SELECT gen_random_uuid()::text, o."pharmacyOrderId", $1, o."status", 'SYSTEM'::"ActorType", o."updatedAt" FROM grow_orders o WHERE o."status" <> $1
               ORDER BY 6`, [
        PHARMACY_ORDER_STATUS.waitingForPharmacy,
      ]);
      log(`grew ${from + size} of ${adding} pharmacy orders (${Math.round(size / ((performance.now() - t0) / 1000))} a second; load ${loadAverage()})`);
    }
    await q(`DROP TABLE grow_skus, grow_patients, grow_orders, grow_items`);
    const t0 = performance.now();
    for (const index of trigram) await q(index.indexdef);
    log(`built ${trigram.map((i) => i.indexname).join(", ")} again in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await checkSearchTexts(client, org);
    await onDatabase(url, async (db) => {
      await insertAuditEvents(db, org, AUDIT_EVENTS, (FACTOR - 1) * AUDIT_EVENTS);
      // As the service's tally job would within a minute; then statistics and a visibility map, as a database in service has.
      await compactPharmacyOrderTally();
      await compactOrderTally();
      // A table that grows in service holds its rows in time order. The grown rows went in after all
      // the first ones although they fall in the same year, so the rows of one day lay in two distant
      // parts of each table, and the pharmacy order list's index-only scan switched visibility map
      // pages on almost every entry (1,063 pages read for its newest 7,550 entries; 109 once in time
      // order). Each grown table with a creation time is rewritten in time order (CLUSTER on a passing
      // index), its indexes rebuilt with it; PharmacyOrderItem has none and follows its pharmacy orders.
      const t1 = performance.now();
      for (const table of GROWN_TABLES.filter((t) => t !== "PharmacyOrderItem")) {
        const index = `${table}_tenfold_createdAt_idx`;
        await db.$executeRawUnsafe(`CREATE INDEX "${index}" ON "${table}" ("createdAt")`);
        await db.$executeRawUnsafe(`CLUSTER "${table}" USING "${index}"`);
        await db.$executeRawUnsafe(`DROP INDEX "${index}"`);
      }
      log(`rewrote ${GROWN_TABLES.length - 1} grown tables in time order in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
      await db.$executeRawUnsafe("VACUUM ANALYZE");
    });
    return adding;
  } finally {
    await client.end();
  }
}

/** `fn` with the application's database client on `url` (the domain functions use the one client of the process). */
async function onDatabase<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const previous = process.env.DATABASE_URL;
  await closeDatabase();
  process.env.DATABASE_URL = url;
  reloadConfig();
  try {
    return await fn(await database());
  } finally {
    await closeDatabase();
    process.env.DATABASE_URL = previous;
    reloadConfig();
  }
}

/** The statement's search texts are pharmacyOrderSearchText's, on a sample of the grown rows. */
async function checkSearchTexts(client: pg.Client, organisationId: string) {
  const { rows } = await client.query<{ searchText: string; shopOrderName: string; name: string; patientName: string; orderId: string; id: string }>(
    `SELECT po."searchText", so."name" AS "shopOrderName", po."name", pp."displayName" AS "patientName", po."orderId", po."id"
       FROM "PharmacyOrder" po JOIN "Order" o ON o."id" = po."orderId" JOIN "ShopOrder" so ON so."orderId" = o."id"
       JOIN "PatientProfile" pp ON pp."id" = o."patientId"
      WHERE po."organisationId" = $1 AND po."name" ~ '^PO-[IO01]{4}-[IO01]{4}-[IO01]{4}$' LIMIT 500`,
    [organisationId],
  );
  for (const row of rows) {
    if (row.searchText !== pharmacyOrderSearchText(row)) throw new Error(`bench tenfold: search text of ${row.id} is not pharmacyOrderSearchText's: ${row.searchText}`);
  }
}

/**
 * How many pharmacy orders at the measured pharmacy each searched term finds, as the mean over the
 * terms the load sends (every term of the last-name fragments, the first 100 PO-name groups): the
 * searches' cost should follow these, not the table's size.
 */
async function searchMatches(url: string, ctx: AdminContext): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const mean = async (terms: string[]) => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT avg(c)::float8 AS n FROM unnest($2::text[]) AS t(p)
           CROSS JOIN LATERAL (SELECT count(*) AS c FROM "PharmacyOrder" WHERE "pharmacyId" = $1 AND "searchText" LIKE t.p) x`,
        [ctx.pharmacyId, terms.map(searchTextPattern)],
      );
      return Number(rows[0].n);
    };
    return { "last-name fragment": await mean(ctx.lastNameFragments), "PO-name group": await mean(ctx.nameFragments.slice(0, 100)) };
  } finally {
    await client.end();
  }
}

/** The read rows measured: every GET of the orders scenario (20 clients) and every admin procedure (10 clients). */
function readEndpoints(url: string, ctx: AdminContext) {
  return [
    ...ordersEndpoints(url, ctx)
      .filter((e) => e.name.startsWith("GET"))
      .map((e) => ({ name: e.name, clients: ORDERS_CONCURRENCY, request: e.request })),
    ...adminEndpoints(url, ctx).map((e) => ({ name: e.name, clients: 10, request: e.request })),
  ];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The mean of a row's rounds (each its own run of `seconds`). */
function meanOf(runs: TenfoldMeasure[]): TenfoldMeasure {
  return {
    rps: mean(runs.map((r) => r.rps)),
    p50: mean(runs.map((r) => r.p50)),
    p95: mean(runs.map((r) => r.p95)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    serverMs: mean(runs.map((r) => r.serverMs)),
    postgresMs: mean(runs.map((r) => r.postgresMs)),
  };
}

/**
 * Seeded data as the scenario found it (the admin scenario's, in `env.DATABASE_URL`), a copy of it
 * grown to FACTOR times (a database made from it as a template), and a server on each. Then every
 * read row on both, BENCH_TENFOLD_ROUNDS times (default 2) in turns, the order reversed every other
 * round, so that other work on the machine falls on both sizes alike (as the scale scenario does).
 */
export async function runTenfold(options: {
  ctx: AdminContext;
  env: Record<string, string>;
  port: number;
  seconds: number;
  sampler: (pgid: number) => () => CpuSample;
  log: (line: string) => void;
  /** Logs and keeps the load average before a measurement (the run's list above its tables). */
  noteLoad: (what: string) => void;
}): Promise<TenfoldResult> {
  const { ctx, env, port, seconds, sampler, log, noteLoad } = options;
  const rounds = Number(process.env.BENCH_TENFOLD_ROUNDS ?? 2);
  const small = new URL(env.DATABASE_URL);
  const large = new URL(env.DATABASE_URL);
  large.pathname = `${small.pathname}_tenfold`;
  const admin = new URL(env.DATABASE_URL);
  admin.pathname = "/postgres";
  const t0 = performance.now();
  await closeDatabase(); // a template must have no connections
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${large.pathname.slice(1)}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${large.pathname.slice(1)}" TEMPLATE "${small.pathname.slice(1)}"`);
  } finally {
    await client.end();
  }
  const added = await grow(ctx, large.toString(), ctx.orderCount * FACTOR, log);
  const growSeconds = (performance.now() - t0) / 1000;
  const ordersBefore = ctx.orderCount;
  const ordersAfter = ordersBefore + added;
  log(`grown a copy to ${ordersAfter} pharmacy orders in ${growSeconds.toFixed(0)} s (VACUUM ANALYZE included)`);

  const [matchesBefore, matchesAfter] = [await searchMatches(small.toString(), ctx), await searchMatches(large.toString(), ctx)];
  const matches = Object.keys(matchesBefore).map((search) => ({ search, before: matchesBefore[search], after: matchesAfter[search] }));
  for (const m of matches) log(`a ${m.search} finds ${m.before.toFixed(0)} pharmacy orders on average, then ${m.after.toFixed(0)}`);

  const servers = [
    { size: "before", ...(await startServer(env, port)) },
    { size: "after", ...(await startServer({ ...env, DATABASE_URL: large.toString() }, port + 1)) },
  ];
  const runs = new Map<string, { clients: number; before: TenfoldMeasure[]; after: TenfoldMeasure[] }>();
  const loads: string[] = [];
  try {
    const endpoints = servers.map((s) => readEndpoints(s.url, ctx));
    for (let round = 0; round < rounds; round++) {
      noteLoad(`round ${round + 1} of ${rounds}`);
      loads.push(loadAverage());
      for (let e = 0; e < endpoints[0].length; e++) {
        for (const k of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const server = servers[k];
          const endpoint = endpoints[k][e];
          const sampleCpu = sampler(server.pid);
          const before = sampleCpu();
          const result = await runLoad({ concurrency: endpoint.clients, durationMs: seconds * 1000, request: endpoint.request });
          const cpu = cpuBetween(before, sampleCpu());
          const perRequest = (cores: number) => (cores * 1000) / result.rps;
          const measured = { rps: result.rps, p50: result.p50, p95: result.p95, errors: result.errors, serverMs: perRequest(cpu.server), postgresMs: perRequest(cpu.postgres) };
          const label = k === 0 ? ordersBefore : ordersAfter;
          log(
            `${label.toLocaleString("en")} orders, round ${round + 1}: ${endpoint.name}: ${result.rps.toFixed(0)} req/s, p95 ${result.p95.toFixed(1)} ms, ` +
              `CPU ms/req server ${measured.serverMs.toFixed(1)}, PostgreSQL ${measured.postgresMs.toFixed(1)}, errors ${result.errors}`,
          );
          const row = runs.get(endpoint.name) ?? { clients: endpoint.clients, before: [], after: [] };
          row[server.size as "before" | "after"].push(measured);
          runs.set(endpoint.name, row);
        }
      }
    }
  } finally {
    for (const server of servers) await server.stop();
  }
  return {
    rows: [...runs].map(([endpoint, r]) => ({ endpoint, clients: r.clients, before: meanOf(r.before), after: meanOf(r.after) })),
    ordersBefore,
    ordersAfter,
    growSeconds,
    rounds,
    loads,
    matches,
  };
}

export function printTenfoldTable(result: TenfoldResult | null) {
  if (!result) return;
  const { ordersBefore: a, ordersAfter: b } = result;
  const n = (x: number) => x.toLocaleString("en");
  console.log(
    `\nTen times the data: ${n(a)} and ${n(b)} pharmacy orders (the copy grown in ${result.growSeconds.toFixed(0)} s), ` +
      `each row the mean of ${result.rounds} rounds taken in turns; load average before each round: ${result.loads.join("; ")}\n`,
  );
  console.log(
    `Searched terms find (mean over the terms, pharmacy orders at the measured pharmacy): ` +
      `${result.matches.map((m) => `${m.search} ${m.before.toFixed(0)} → ${m.after.toFixed(0)}`).join("; ")}\n`,
  );
  console.log(`| Endpoint | clients | req/s ${n(a)} | p95 ms | CPU ms/req (server + PostgreSQL) | req/s ${n(b)} | p95 ms | CPU ms/req | CPU × | p95 × |`);
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of result.rows) {
    const cpu = (m: TenfoldMeasure) => m.serverMs + m.postgresMs;
    const f = (m: TenfoldMeasure) => `${m.rps.toFixed(0)} | ${m.p95.toFixed(1)} | ${m.serverMs.toFixed(1)} + ${m.postgresMs.toFixed(1)}`;
    console.log(`| ${r.endpoint} | ${r.clients} | ${f(r.before)} | ${f(r.after)} | ${(cpu(r.after) / cpu(r.before)).toFixed(2)} | ${(r.after.p95 / r.before.p95).toFixed(2)} |`);
  }
}
