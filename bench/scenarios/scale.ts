import os from "node:os";
import pg from "pg";
import { cpuBetween, type CpuSample } from "../cpu";
import { runLoad, runOpenLoop } from "../load";
import { spawnServer, startServer } from "../server";
import { ordersEndpoints, ORDERS_CONCURRENCY, type OrdersContext } from "./orders";

/**
 * The scale scenario (PostgreSQL only), on the orders scenario's data:
 *
 * 1. Closed loop, ORDERS_CONCURRENCY clients, the REST list (limit 50) and intake: a bare
 *    `node:http` + `pg` server (bench/bare-server.ts: the list's own statement, and the same rows
 *    intake writes in one statement, bench/bare-intake.ts: the physical floor of this machine), the
 *    service with one HTTP process, and with WEB_CONCURRENCY processes (default: the cores);
 *    BENCH_SCALE_ROUNDS rounds (default 3), the servers taking turns in each, so that other work on
 *    the machine falls on all of them alike. List and detail bodies are asserted byte-identical
 *    first, and one intake of a returning and one of a new customer must write as many rows, table
 *    by table, on every server (and answer the same shape).
 * 2. Open loop at BENCH_SCALE_RATES requests per second (default 50,100,150): p95 of the list, the
 *    detail and intake on every server.
 *
 * BENCH_SCALE_COMPARE_DIR: another checkout of the service with its own build (e.g. the commit
 * before a change), served beside this one as two more servers (one process and WEB_CONCURRENCY,
 * named BENCH_SCALE_COMPARE_LABEL, default "before") in the same alternating rounds: an A/B that
 * other work on the machine cannot tilt. BENCH_SCALE_ENDPOINTS (default list,detail,intake) keeps
 * only some endpoints.
 */
export type ScaleEndpoint = "list" | "detail" | "intake";
export type ScaleClosedRow = {
  target: string;
  endpoint: ScaleEndpoint;
  round: number;
  rps: number;
  p95: number;
  errors: number;
  cpuMsPerRequest: number;
  /** The server's CPU by process role (bench/cpu.ts): http, jobs, primary. */
  roleMsPerRequest: Record<string, number>;
  postgresMsPerRequest: number;
  load: number;
};
export type ScaleOpenRow = { target: string; endpoint: ScaleEndpoint; rate: number; p50: number; p95: number; p99: number; errors: number; requests: number; load: number };
export type ScaleResult = { closed: ScaleClosedRow[]; open: ScaleOpenRow[]; workers: number };

type Server = { target: string; url: string; pid: number; stop: () => Promise<void> };

const CLOSED: ScaleEndpoint[] = ["list", "intake"];
const OPEN: ScaleEndpoint[] = ["list", "detail", "intake"];
const oneMinuteLoad = () => os.loadavg()[0];

export async function runScale(options: {
  ctx: OrdersContext;
  env: Record<string, string>;
  basePort: number;
  seconds: number;
  sampler: (pgid: number) => () => CpuSample;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const { ctx, env, basePort, seconds, sampler, log } = options;
  const workers = Number(process.env.BENCH_WEB_CONCURRENCY ?? os.availableParallelism());
  const rounds = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
  const rates = (process.env.BENCH_SCALE_RATES ?? "50,100,150").split(",").map(Number);
  const endpoints = (process.env.BENCH_SCALE_ENDPOINTS ?? "list,detail,intake").split(",") as ScaleEndpoint[];
  const compareDir = process.env.BENCH_SCALE_COMPARE_DIR;
  const compareLabel = process.env.BENCH_SCALE_COMPARE_LABEL ?? "before";
  const durationMs = seconds * 1000;

  const servers: Server[] = [];
  try {
    const bareEnv = { ...env, BARE_PHARMACY_ID: ctx.pharmacyId, BARE_ORGANISATION_ID: ctx.organisationId, BARE_API_KEY_ID: ctx.managementKeyId };
    servers.push({ target: "bare", ...(await spawnServer(["--import", "tsx", "bench/bare-server.ts"], bareEnv, basePort + 1)) });
    servers.push({ target: "service ×1", ...(await startServer({ ...env, WEB_CONCURRENCY: "1" }, basePort)) });
    if (workers > 1) servers.push({ target: `service ×${workers}`, ...(await startServer({ ...env, WEB_CONCURRENCY: String(workers) }, basePort + 2)) });
    if (compareDir) {
      servers.push({ target: `${compareLabel} ×1`, ...(await startServer({ ...env, WEB_CONCURRENCY: "1" }, basePort + 3, compareDir)) });
      if (workers > 1) {
        servers.push({ target: `${compareLabel} ×${workers}`, ...(await startServer({ ...env, WEB_CONCURRENCY: String(workers) }, basePort + 4, compareDir)) });
      }
    }
    log(`servers up: ${servers.map((s) => `${s.target} ${s.url}`).join(", ")}`);

    const endpointsOf = (url: string) => {
      const all = ordersEndpoints(url, ctx);
      const find = (prefix: string) => all.find((e) => e.name.startsWith(prefix))!;
      return {
        list: find("GET /v1/external_pharmacy_api/pharmacy_orders/ (limit 50"),
        detail: find("GET /v1/external_pharmacy_api/pharmacy_orders/{uid}"),
        intake: find("POST /v1/management/orders"),
      };
    };

    // Same statement, same bytes: the floor is a floor of this very work.
    for (const [path, what] of [
      ["/v1/external_pharmacy_api/pharmacy_orders/?limit=50&page=3", "list"],
      [`/v1/external_pharmacy_api/pharmacy_orders/${ctx.detailUids[0]}`, "detail"],
    ] as const) {
      const bodies = await Promise.all(servers.map(async (s) => (await fetch(`${s.url}${path}`, { headers: { "x-api-key": ctx.pharmacyKey } })).text()));
      if (bodies.some((b) => b !== bodies[0])) throw new Error(`bench: the ${what} bodies of ${servers.map((s) => s.target).join(", ")} differ`);
      log(`${what}: ${Buffer.byteLength(bodies[0])} bytes, identical on all ${servers.length} servers`);
    }
    if (endpoints.includes("intake")) await assertSameIntakeRows(servers, (url) => endpointsOf(url).intake, env.DATABASE_URL, log);

    const closed: ScaleClosedRow[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const endpoint of CLOSED.filter((e) => endpoints.includes(e))) {
        for (const server of round % 2 ? servers : [...servers].reverse()) {
          const e = endpointsOf(server.url)[endpoint];
          const load = oneMinuteLoad();
          const sample = sampler(server.pid);
          const before = sample();
          const result = await runLoad({ concurrency: ORDERS_CONCURRENCY, durationMs, request: e.request, expectStatus: e.expectStatus });
          const cpu = cpuBetween(before, sample());
          const row = {
            target: server.target,
            endpoint,
            round,
            rps: result.rps,
            p95: result.p95,
            errors: result.errors,
            cpuMsPerRequest: (cpu.server * 1000) / result.rps,
            roleMsPerRequest: Object.fromEntries(Object.entries(cpu.serverRoles).map(([role, cores]) => [role, (cores * 1000) / result.rps])),
            postgresMsPerRequest: (cpu.postgres * 1000) / result.rps,
            load,
          };
          closed.push(row);
          log(
            `round ${round} ${endpoint} ${server.target}: ${row.rps.toFixed(0)} req/s, p95 ${row.p95.toFixed(1)} ms, CPU ${row.cpuMsPerRequest.toFixed(1)} ms/request ` +
              `(PostgreSQL ${row.postgresMsPerRequest.toFixed(1)}), errors ${row.errors}, load average ${load.toFixed(1)}`,
          );
        }
      }
    }

    const open: ScaleOpenRow[] = [];
    for (const rate of rates) {
      for (const endpoint of OPEN.filter((e) => endpoints.includes(e))) {
        for (const server of servers) {
          const e = endpointsOf(server.url)[endpoint];
          const load = oneMinuteLoad();
          const result = await runOpenLoop({ rate, durationMs, request: e.request, expectStatus: e.expectStatus });
          open.push({ target: server.target, endpoint, rate, p50: result.p50, p95: result.p95, p99: result.p99, errors: result.errors, requests: result.requests, load });
          log(`${rate}/s ${endpoint} ${server.target}: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}, load average ${load.toFixed(1)}`);
        }
      }
    }
    return { closed, open, workers };
  } finally {
    for (const s of servers) await s.stop();
  }
}

/**
 * One intake of a returning customer and one of a new customer on each server, with the row count of
 * every table before and after each: every server must write as many rows to each table (and answer
 * 201 with the same shape), so that the bare intake is a floor of the same work. The pharmacy order
 * tally is left out: the service's background work folds its rows every minute.
 */
async function assertSameIntakeRows(
  servers: Server[],
  intakeOf: (url: string) => { request: (i: number) => Promise<Response> },
  databaseUrl: string,
  log: (line: string) => void,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT IN ('PharmacyOrderTally', 'OrderTally', '_app_migrations') ORDER BY 1`,
    );
    const counts = async () => {
      const { rows } = await client.query<{ name: string; n: number }>(
        tables.map((t) => `SELECT '${t.name}' AS name, count(*)::int AS n FROM "${t.name}"`).join(" UNION ALL "),
      );
      return new Map(rows.map((r) => [r.name, r.n]));
    };
    // The shape of an answer: its keys and value types, not its values (uids and names differ).
    const shape = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(shape) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)])) : typeof value;
    for (const [i, customer] of [[0, "returning"], [3, "new"]] as const) {
      const written: { target: string; rows: string; shape: string }[] = [];
      for (const server of servers) {
        const before = await counts();
        const response = await intakeOf(server.url).request(i);
        const body = await response.text();
        if (response.status !== 201) throw new Error(`bench: intake on ${server.target} answered ${response.status}: ${body.slice(0, 300)}`);
        const after = await counts();
        const rows = [...after]
          .filter(([name, n]) => n !== before.get(name))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, n]) => `${name} +${n - before.get(name)!}`);
        written.push({ target: server.target, rows: rows.join(", "), shape: JSON.stringify(shape(JSON.parse(body))) });
      }
      const differ = written.filter((w) => w.rows !== written[0].rows || w.shape !== written[0].shape);
      if (differ.length > 0) {
        throw new Error(`bench: intake (${customer} customer) wrote other rows or answered another shape:\n${written.map((w) => `  ${w.target}: ${w.rows}`).join("\n")}`);
      }
      log(`intake, ${customer} customer: ${written[0].rows} on all ${servers.length} servers, answers of the same shape`);
    }
  } finally {
    await client.end();
  }
}

export function printScaleTables(result: ScaleResult | null, seconds: number): void {
  if (!result) return;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const targets = [...new Set([...result.closed, ...result.open].map((r) => r.target))];
  const loads = [...result.closed, ...result.open].map((r) => r.load);
  console.log(
    `\nScale: ${ORDERS_CONCURRENCY} closed-loop clients, ${seconds} s per run, rounds alternating; ${os.cpus().length} cores; ` +
      `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} at the runs' starts (mean ${mean(loads).toFixed(1)})`,
  );
  for (const endpoint of CLOSED) {
    const of = (t: string) => result.closed.filter((r) => r.target === t && r.endpoint === endpoint);
    if (result.closed.every((r) => r.endpoint !== endpoint)) continue;
    const bareRps = mean(of("bare").map((r) => r.rps));
    console.log(`\n${endpoint === "list" ? "The REST list (limit 50)" : "Intake (POST /v1/management/orders)"}, closed loop\n`);
    console.log(
      "| Server | req/s (mean) | req/s per round | × bare | p95 ms (mean) | server CPU ms/request | of it: HTTP / background / primary | PostgreSQL CPU ms/request | errors | load average |",
    );
    console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const t of targets) {
      const rows = of(t);
      if (rows.length === 0) continue;
      const rps = mean(rows.map((r) => r.rps));
      // The bare server is one process without a serve role: all of it counts as "primary".
      const role = (name: string) => (rows.some((r) => name in r.roleMsPerRequest) ? mean(rows.map((r) => r.roleMsPerRequest[name] ?? 0)).toFixed(1) : "—");
      console.log(
        `| ${t} | ${rps.toFixed(0)} | ${rows.map((r) => r.rps.toFixed(0)).join(", ")} | ${(rps / bareRps).toFixed(2)} | ${mean(rows.map((r) => r.p95)).toFixed(1)} | ` +
          `${mean(rows.map((r) => r.cpuMsPerRequest)).toFixed(1)} | ${role("http")} / ${role("jobs")} / ${role("primary")} | ` +
          `${mean(rows.map((r) => r.postgresMsPerRequest)).toFixed(1)} | ${rows.reduce((a, r) => a + r.errors, 0)} | ${mean(rows.map((r) => r.load)).toFixed(1)} |`,
      );
    }
  }
  if (result.open.length === 0) return;
  console.log(`\nOpen loop: p95 (p50) in ms at a fixed offered rate, ${seconds} s per row\n`);
  const rates = [...new Set(result.open.map((r) => r.rate))];
  console.log(`| Endpoint | Server | ${rates.map((r) => `${r}/s`).join(" | ")} | load average |`);
  console.log(`| --- | --- | ${rates.map(() => "---:").join(" | ")} | ---: |`);
  for (const endpoint of OPEN) {
    for (const t of targets) {
      const cells = rates.map((rate) => result.open.find((r) => r.endpoint === endpoint && r.target === t && r.rate === rate));
      if (cells.every((c) => !c)) continue;
      const present = cells.filter((c) => c !== undefined);
      console.log(
        `| ${endpoint} | ${t} | ${cells.map((c) => (c ? `${c.p95.toFixed(1)} (${c.p50.toFixed(1)})${c.errors ? ` ${c.errors} errors` : ""}` : "—")).join(" | ")} | ` +
          `${mean(present.map((c) => c.load)).toFixed(1)} |`,
      );
    }
  }
}
