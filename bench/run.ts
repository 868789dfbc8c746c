/**
 * npm run bench [-- --db pglite|postgres|both] [--scenario admin|assortments|catalogue|orders|patients|webhooks|prescriptions|portal|scale|tenfold|all] [--concurrency N] [--seconds 10] [--only <regex>] [--build]
 *
 * Every run first states itself (bench/run-info.ts): the machine (CPU, cores, memory, Node,
 * PostgreSQL), the commit and whether the tree had uncommitted changes, and its start; the load
 * average is logged before each scenario's measurement and repeated above the result tables, which
 * carry the run's name, so a table copied into the README names the run it came from.
 *
 * For each database: a fresh database, seeded by the scenario itself; then the production server
 * (`next start`) on it, and a closed-loop load from this process over loopback. PostgreSQL comes
 * from BENCH_DATABASE_URL (a server URL; a database rx_bench is created on it) or, when unset, a
 * throwaway cluster started with scripts/ci/postgres.sh. Not part of the tests.
 *
 * Scenarios: every selected scenario seeds into the same fresh database before the server starts.
 * Each has its own concurrency (catalogue 10, orders 20) unless --concurrency sets one for all.
 * BENCH_ORDERS sets the orders scenario's size (default 100,000 pharmacy orders).
 * The admin scenario seeds the same kind of data (BENCH_ADMIN_ORDERS, default 100,000) plus audit
 * events and open issue threads, and times the admin tool's queries over tRPC (bench/scenarios/admin.ts).
 * The webhooks scenario is open loop instead (see bench/scenarios/webhooks.ts): --seconds per offered
 * rate, BENCH_WEBHOOK_RATES (PATCH/s, default 20,50,100); the server runs with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true so it may deliver to the bench's receivers on 127.0.0.1.
 * After its steps it compares one healthy receiver alone with the same receiver beside
 * BENCH_WEBHOOK_DEAD (default 10; 0 skips) subscriptions to a closed port: two rows, 200 PATCHes at
 * 20/s each, with the healthy receiver's deliveries by the burst's end, its p50/p95/max latency
 * (PATCH sent → arrival) and the server's CPU during the burst and in the 30 s after (the dead
 * targets' first retries fall in that window). Goal: p95 beside dead targets within 2× of alone.
 * The assortments scenario imports and exports an assortment CSV of BENCH_ASSORTMENT_ROWS rows (default
 * 10,000) in this process, through the tRPC handler, on the fresh database, before anything else is seeded
 * (bench/scenarios/assortments.ts): time and peak memory per step; it needs no server.
 * The portal scenario times Chromium loading the order detail page until its prescription PDF shows
 * (see bench/scenarios/portal.ts): BENCH_PORTAL_LOADS navigations (default 10), the first apart.
 * --only keeps the closed-loop endpoints whose name matches the regular expression (e.g. "trpc|limit 50").
 * BENCH_SERVER_NODE_ARGS are passed to the server's Node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * The server is the production entry (scripts/serve.ts) with WEB_CONCURRENCY=1 unless a scenario says otherwise.
 * The scale scenario (PostgreSQL only; not part of "all", it takes minutes) seeds the orders
 * scenario's data and compares a bare node:http + pg handler with the service on one process and
 * on BENCH_WEB_CONCURRENCY (default: the cores) processes, closed and open loop (bench/scenarios/scale.ts).
 * The tenfold scenario (PostgreSQL only; not part of "all") seeds the admin scenario's data, grows a
 * copy of the database to BENCH_TENFOLD_FACTOR (default 10) times inside PostgreSQL, and measures
 * every read row of the orders and admin scenarios on both, in turns (bench/scenarios/tenfold.ts;
 * BENCH_TENFOLD_ROUNDS, default 2; it uses BENCH_PORT and the next port).
 * BENCH_PORT (default 3200; the scale scenario also uses the next two), BENCH_PG_DIR and BENCH_PG_PORT
 * (the throwaway cluster's directory and first port) keep parallel runs apart.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { reloadConfig } from "../server/config";
import { closeDatabase, database } from "../server/db/client";
import { cpuBetween, cpuSampler, type CpuUse } from "./cpu";
import { runLoad, type LoadResult } from "./load";
import { describeRun, loadAverage, printRunHeader, runName } from "./run-info";
import { adminEndpoints, seedAdmin } from "./scenarios/admin";
import { benchAssortments, printAssortmentTable, type AssortmentRow } from "./scenarios/assortments";
import { catalogueEndpoints, seedCatalogue } from "./scenarios/catalogue";
import { ORDERS_CONCURRENCY, ordersEndpoints, seedOrders, type StatusTally } from "./scenarios/orders";
import { patientsEndpoints, seedPatients } from "./scenarios/patients";
import { benchPortalPdf, printPortalTable, seedPortal, type PortalRow } from "./scenarios/portal";
import { benchBatchSigning, benchPrescriptions, printBatchTable, printPrescriptionTable } from "./scenarios/prescriptions";
import { runMachines } from "./scenarios/machines";
import { runPages } from "./scenarios/pages";
import { printScaleTables, runScale, type ScaleResult } from "./scenarios/scale";
import { printTenfoldTable, runTenfold, type TenfoldResult } from "./scenarios/tenfold";
import {
  analyseWebhooks,
  printDeadTargetTable,
  printWebhookTables,
  runWebhooks,
  seedWebhooks,
  type DeadTargetRow,
  type WebhookRow,
  type WebhooksRun,
} from "./scenarios/webhooks";
import { ensureBuild, startServer } from "./server";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    scenario: { type: "string", default: "all" },
    concurrency: { type: "string" },
    seconds: { type: "string", default: "10" },
    only: { type: "string" },
    build: { type: "boolean", default: false },
  },
});
// Runs alone, with its own PostgreSQL, PgBouncer, HAProxy and two instances (bench/scenarios/machines.ts).
if (values.scenario === "machines") process.exit(await runMachines());
// Lighthouse on the portals' pages, on the embedded database (bench/scenarios/pages.ts).
if (values.scenario === "pages") process.exit(await runPages());
// ── Scenarios ──
type Scenario = "admin" | "assortments" | "catalogue" | "orders" | "patients" | "webhooks" | "prescriptions" | "portal" | "scale" | "tenfold";
const SCENARIOS: Scenario[] = ["admin", "assortments", "catalogue", "orders", "patients", "webhooks", "prescriptions", "portal", "scale", "tenfold"];
const requested = values.scenario.split(",");
if (values.scenario !== "all" && !requested.every((s) => SCENARIOS.includes(s as Scenario))) {
  throw new Error(`--scenario must be admin, assortments, catalogue, orders, patients, webhooks, prescriptions, portal, scale, tenfold (comma-separated) or all (got ${values.scenario})`);
}
// scale and tenfold take many minutes each: only when named.
const scenarios = values.scenario === "all" ? SCENARIOS.filter((s) => s !== "scale" && s !== "tenfold") : (requested as Scenario[]);
/** The closed-loop scenarios (webhooks drives its own open-loop load; prescriptions and assortments run in this process; portal drives a browser). */
type LoadScenario = Exclude<Scenario, "webhooks" | "prescriptions" | "assortments" | "portal" | "scale" | "tenfold">;
const DEFAULT_CONCURRENCY: Record<LoadScenario, number> = { admin: 10, catalogue: 10, orders: ORDERS_CONCURRENCY, patients: 10 };
const concurrencyOf = (scenario: LoadScenario) => (values.concurrency ? Number(values.concurrency) : DEFAULT_CONCURRENCY[scenario]);
type Endpoint = {
  scenario: LoadScenario;
  name: string;
  request: (i: number) => Promise<Response>;
  expectStatus?: number;
  target?: string;
  statuses?: StatusTally;
};
// ──
const durationMs = Number(values.seconds) * 1000;
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const BENCH_PG_DIR = process.env.BENCH_PG_DIR ?? "/tmp/rx-bench-postgres";

type Row = { database: string; scenario: LoadScenario; endpoint: string; target: string; cpu: CpuUse } & LoadResult;

/** The load average just before each scenario was measured, as the run went (printed above the tables). */
const loadsBefore: string[] = [];
function noteLoad(database: string, scenario: string) {
  const load = loadAverage();
  loadsBefore.push(`${database} ${scenario}: ${load}`);
  console.log(`[${database}] ${scenario}: load average (1 / 5 / 15 min) before it ${load}`);
}

async function freshPostgres(): Promise<{ url: string; cleanup: () => void }> {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let cleanup = () => {};
  if (!serverUrl) {
    const env = { ...process.env, RX_PG_DIR: BENCH_PG_DIR, RX_PG_PORT: process.env.BENCH_PG_PORT ?? "55442" };
    const out = execFileSync("bash", ["scripts/ci/postgres.sh", "start"], { env, encoding: "utf8" });
    serverUrl = /DATABASE_URL=(\S+)/.exec(out)![1];
    cleanup = () => execFileSync("bash", ["scripts/ci/postgres.sh", "stop"], { env, stdio: "ignore" });
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query("DROP DATABASE IF EXISTS rx_bench WITH (FORCE)");
  await admin.query("CREATE DATABASE rx_bench");
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = "/rx_bench";
  return { url: url.toString(), cleanup };
}

type DeadRow = DeadTargetRow & { database: string };

async function benchDatabase(
  kind: "pglite" | "postgres",
): Promise<{
  rows: Row[];
  webhookRows: WebhookRow[];
  deadRows: DeadRow[];
  portalRows: PortalRow[];
  assortmentRows: AssortmentRow[];
  scale: ScaleResult | null;
  tenfold: TenfoldResult | null;
}> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-bench-"));
  const pgServer = kind === "postgres" ? await freshPostgres() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pgServer?.url ?? "",
    // The load comes from one address and one key or user: the limits would measure themselves.
    RATE_LIMIT_PER_SECOND: "1000000",
    TRPC_RATE_LIMIT_PER_SECOND: "1000000",
    SEED_ON_START: "false",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  };
  Object.assign(process.env, env);
  reloadConfig();
  try {
    // In this process on the still empty database, before the other scenarios seed theirs.
    if (scenarios.includes("assortments")) noteLoad(kind, "assortments");
    const assortmentRows = scenarios.includes("assortments") ? await benchAssortments(await database(), kind, (line) => console.log(`[${kind}] assortments: ${line}`)) : [];
    console.log(`[${kind}] seeding…`);
    const t0 = performance.now();
    const endpointsOf: ((url: string) => Endpoint[])[] = [];
    if (scenarios.includes("catalogue")) {
      const ctx = await seedCatalogue(await database());
      console.log(`[${kind}] seeded ${ctx.skuCount} SKUs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      endpointsOf.push((url) => catalogueEndpoints(url, ctx).map((e) => ({ scenario: "catalogue" as const, ...e })));
    }
    const scale = scenarios.includes("scale") && kind === "postgres";
    const ordersCtx = scenarios.includes("orders") || scale ? await seedOrders(await database()) : null;
    if (ordersCtx) console.log(`[${kind}] seeded ${ordersCtx.orderCount} pharmacy orders in ${(ordersCtx.seedMs / 1000).toFixed(1)} s`);
    if (ordersCtx && scenarios.includes("orders")) {
      endpointsOf.push((url) => ordersEndpoints(url, ordersCtx).map((e) => ({ scenario: "orders" as const, ...e })));
    }
    const tenfold = scenarios.includes("tenfold") && kind === "postgres";
    const adminCtx = scenarios.includes("admin") || tenfold ? await seedAdmin(await database()) : null;
    if (adminCtx) console.log(`[${kind}] seeded the admin scenario in ${(adminCtx.seedMs / 1000).toFixed(1)} s`);
    if (adminCtx && scenarios.includes("admin")) {
      endpointsOf.push((url) => adminEndpoints(url, adminCtx).map((e) => ({ scenario: "admin" as const, ...e })));
    }
    if (scenarios.includes("patients")) {
      const ctx = await seedPatients(await database());
      console.log(`[${kind}] seeded ${ctx.patientIds.length} patients in ${(ctx.seedMs / 1000).toFixed(1)} s`);
      endpointsOf.push((url) => patientsEndpoints(url, ctx).map((e) => ({ scenario: "patients" as const, ...e })));
    }
    const webhooks = scenarios.includes("webhooks") ? await seedWebhooks(await database(), durationMs / 1000) : null;
    if (webhooks) {
      console.log(`[${kind}] seeded ${webhooks.orderCount} pharmacy orders for webhooks in ${(webhooks.seedMs / 1000).toFixed(1)} s`);
    }
    const portal = scenarios.includes("portal") ? await seedPortal(await database()) : null;
    // A database in service has planner statistics and a visibility map (autovacuum; the embedded runner's ANALYZE).
    const tAnalyze = performance.now();
    await (await database()).$executeRawUnsafe("VACUUM ANALYZE");
    await closeDatabase(); // PGlite: the server must be the only process with the directory open
    console.log(`[${kind}] ANALYZE in ${((performance.now() - tAnalyze) / 1000).toFixed(1)} s; seeding in all ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const rows: Row[] = [];
    let webhooksRun: WebhooksRun | null = null;
    let portalRows: PortalRow[] = [];
    const pgDataDir = kind === "postgres" && !process.env.BENCH_DATABASE_URL ? `${BENCH_PG_DIR}/data` : null;
    let scaleResult: ScaleResult | null = null;
    if (scale) {
      noteLoad(kind, "scale");
      scaleResult = await runScale({
        ctx: ordersCtx!,
        env,
        basePort: PORT,
        seconds: durationMs / 1000,
        sampler: (pgid) => cpuSampler(pgid, pgDataDir),
        log: (line) => console.log(`[${kind}] scale: ${line}`),
      });
    }
    // Tenfold grows the data: after everything else has measured it as seeded.
    const runTenfoldHere = async () =>
      tenfold
        ? await runTenfold({
            ctx: adminCtx!,
            env,
            port: PORT,
            seconds: durationMs / 1000,
            sampler: (pgid) => cpuSampler(pgid, pgDataDir),
            log: (line) => console.log(`[${kind}] tenfold: ${line}`),
            noteLoad: (what) => noteLoad(kind, `tenfold, ${what}`),
          })
        : null;
    if (endpointsOf.length === 0 && !webhooks && !portal) {
      return { rows, webhookRows: [], deadRows: [], portalRows, assortmentRows, scale: scaleResult, tenfold: await runTenfoldHere() };
    }
    const server = await startServer(env, PORT);
    // Who used the cores during each endpoint's run (server, this cluster, this process), for CPU per request.
    const sampleCpu = cpuSampler(server.pid, pgDataDir);
    try {
      const only = values.only ? new RegExp(values.only) : null;
      let scenarioNow: string | null = null;
      for (const endpoint of endpointsOf.flatMap((of) => of(server.url)).filter((e) => !only || only.test(e.name))) {
        if (endpoint.scenario !== scenarioNow) noteLoad(kind, (scenarioNow = endpoint.scenario));
        const concurrency = concurrencyOf(endpoint.scenario);
        const before = sampleCpu();
        const result = await runLoad({ concurrency, durationMs, request: endpoint.request, expectStatus: endpoint.expectStatus });
        const cpu = cpuBetween(before, sampleCpu());
        rows.push({ database: kind, scenario: endpoint.scenario, endpoint: endpoint.name, target: endpoint.target ?? "—", cpu, ...result });
        console.log(`[${kind}] ${endpoint.name} (${concurrency} clients): ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}`);
        if (endpoint.statuses && result.errors > 0) {
          for (const [status, { count, sample }] of endpoint.statuses) {
            console.log(`[${kind}]   HTTP ${status}: ${count}${sample ? ` (first body: ${sample})` : ""}`);
          }
        }
      }
      if (webhooks) {
        noteLoad(kind, "webhooks");
        const cpu = cpuSampler(server.pid, pgDataDir);
        webhooksRun = await runWebhooks(server.url, webhooks, durationMs / 1000, cpu, (line) => console.log(`[${kind}] ${line}`));
      }
      if (portal) noteLoad(kind, "portal");
      if (portal) portalRows = await benchPortalPdf(server.url, portal, kind, (line) => console.log(`[${kind}] ${line}`));
    } finally {
      await server.stop();
    }
    // Deliveries and outbox events are read once the server is gone (PGlite: one process at a time).
    let webhookRows: WebhookRow[] = [];
    if (webhooksRun) {
      try {
        webhookRows = await analyseWebhooks(await database(), kind, webhooksRun);
      } finally {
        await closeDatabase();
      }
    }
    const deadRows = (webhooksRun?.deadTargets ?? []).map((r) => ({ ...r, database: kind }));
    return { rows, webhookRows, deadRows, portalRows, assortmentRows, scale: scaleResult, tenfold: await runTenfoldHere() };
  } finally {
    pgServer?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const databaseScenarios = scenarios.filter((s) => s !== "prescriptions");
const kinds =
  databaseScenarios.length === 0 ? [] : values.db === "both" ? (["pglite", "postgres"] as const) : [values.db as "pglite" | "postgres"];
const run = await describeRun(kinds.includes("postgres" as never));
printRunHeader(run);
// Prescriptions needs neither a server nor a database: measured first, on a quiet machine.
if (scenarios.includes("prescriptions")) noteLoad("—", "prescriptions");
const prescriptionRows = scenarios.includes("prescriptions") ? await benchPrescriptions() : [];
// Sign centre batches on embedded PGlite, and on the PostgreSQL server DATABASE_URL names, if it does.
const batchRows = scenarios.includes("prescriptions") ? benchBatchSigning([undefined, ...(process.env.DATABASE_URL?.startsWith("postgres") ? [process.env.DATABASE_URL] : [])]) : [];
if (databaseScenarios.some((s) => s !== "assortments")) ensureBuild(values.build);
const rows: Row[] = [];
const webhookRows: WebhookRow[] = [];
const deadRows: DeadRow[] = [];
const portalRows: PortalRow[] = [];
const assortmentRows: AssortmentRow[] = [];
let scaleResult: ScaleResult | null = null;
let tenfoldResult: TenfoldResult | null = null;
for (const kind of kinds) {
  const result = await benchDatabase(kind);
  scaleResult ??= result.scale;
  tenfoldResult ??= result.tenfold;
  rows.push(...result.rows);
  webhookRows.push(...result.webhookRows);
  deadRows.push(...result.deadRows);
  portalRows.push(...result.portalRows);
  assortmentRows.push(...result.assortmentRows);
}

console.log(`\nResults of ${runName(run)}. ${run.machine}${run.postgres ? `; ${run.postgres}` : ""}.`);
console.log(`Load average (1 / 5 / 15 min) before each scenario: ${loadsBefore.join("; ")}.`);
const loadScenarios = scenarios.filter((s): s is LoadScenario => !["webhooks", "prescriptions", "assortments", "portal", "scale", "tenfold"].includes(s));
if (loadScenarios.length > 0) {
  const clients = loadScenarios.map((s) => `${s} ${concurrencyOf(s)}`).join(", ");
  console.log(`\nConcurrent clients: ${clients}; ${durationMs / 1000} s per endpoint, ${os.cpus().length} cores\n`);
  console.log("| Database | Scenario | Endpoint | req/s | p50 ms | p95 ms | p99 ms | errors | target |");
  console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of rows) {
    console.log(`| ${r.database} | ${r.scenario} | ${r.endpoint} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.target} |`);
  }
  // CPU per request: cores used during the run (1 s warm-up included) over requests per second.
  console.log("\nCPU per request (ms) and cores left idle\n");
  console.log("| Database | Endpoint | server | PostgreSQL | load generator | other | idle cores |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  const perRequest = (cores: number, rps: number) => (Number.isNaN(cores) ? "—" : ((cores * 1000) / rps).toFixed(1));
  for (const r of rows) {
    const { server, postgres, bench, other, idle } = r.cpu;
    console.log(
      `| ${r.database} | ${r.endpoint} | ${perRequest(server, r.rps)} | ${perRequest(postgres, r.rps)} | ${perRequest(bench, r.rps)} | ${perRequest(other, r.rps)} | ${idle.toFixed(2)} |`,
    );
  }
}
printWebhookTables(webhookRows, durationMs / 1000);
printDeadTargetTable(deadRows);
printPrescriptionTable(prescriptionRows);
printBatchTable(batchRows);
printPortalTable(portalRows);
printAssortmentTable(assortmentRows);
printScaleTables(scaleResult, durationMs / 1000);
printTenfoldTable(tenfoldResult);
