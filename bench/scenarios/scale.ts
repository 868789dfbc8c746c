import os from "node:os";
import { cpuBetween, type CpuSample } from "../cpu";
import { runLoad, runOpenLoop } from "../load";
import { spawnServer, startServer } from "../server";
import { ordersEndpoints, ORDERS_CONCURRENCY, type OrdersContext } from "./orders";

/**
 * The scale scenario (PostgreSQL only), on the orders scenario's data:
 *
 * 1. Closed loop, ORDERS_CONCURRENCY clients, the REST list (limit 50): a bare `node:http` + `pg`
 *    handler sending the same statement (bench/bare-server.ts: the physical floor of this machine),
 *    the service with one HTTP process, and with WEB_CONCURRENCY processes (default: the cores);
 *    BENCH_SCALE_ROUNDS rounds (default 3), the three taking turns in each, so that other work on the
 *    machine falls on all of them alike. Bodies are asserted byte-identical first.
 * 2. Open loop at BENCH_SCALE_RATES requests per second (default 50,100,150): p95 of the list, the
 *    detail and intake, on the service (one process and WEB_CONCURRENCY processes) and, for list and
 *    detail, on the bare handler.
 */
export type ScaleTarget = "bare" | "service ×1" | `service ×${number}`;
export type ScaleClosedRow = { target: ScaleTarget; round: number; rps: number; p95: number; errors: number; cpuMsPerRequest: number; postgresMsPerRequest: number };
export type ScaleOpenRow = { target: ScaleTarget; endpoint: string; rate: number; p50: number; p95: number; p99: number; errors: number; requests: number };
export type ScaleResult = { closed: ScaleClosedRow[]; open: ScaleOpenRow[]; workers: number };

type Server = { target: ScaleTarget; url: string; pid: number; stop: () => Promise<void> };

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
  const durationMs = seconds * 1000;

  const servers: Server[] = [];
  try {
    const bare = await spawnServer(["--import", "tsx", "bench/bare-server.ts"], { ...env, BARE_PHARMACY_ID: ctx.pharmacyId }, basePort + 1);
    servers.push({ target: "bare", ...bare });
    servers.push({ target: "service ×1", ...(await startServer({ ...env, WEB_CONCURRENCY: "1" }, basePort)) });
    if (workers > 1) servers.push({ target: `service ×${workers}`, ...(await startServer({ ...env, WEB_CONCURRENCY: String(workers) }, basePort + 2)) });
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

    const closed: ScaleClosedRow[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const server of round % 2 ? servers : [...servers].reverse()) {
        const sample = sampler(server.pid);
        const before = sample();
        const result = await runLoad({ concurrency: ORDERS_CONCURRENCY, durationMs, request: endpointsOf(server.url).list.request });
        const cpu = cpuBetween(before, sample());
        const row = {
          target: server.target,
          round,
          rps: result.rps,
          p95: result.p95,
          errors: result.errors,
          cpuMsPerRequest: (cpu.server * 1000) / result.rps,
          postgresMsPerRequest: (cpu.postgres * 1000) / result.rps,
        };
        closed.push(row);
        log(`round ${round} ${server.target}: ${row.rps.toFixed(0)} req/s, p95 ${row.p95.toFixed(1)} ms, CPU ${row.cpuMsPerRequest.toFixed(1)} ms/request (PostgreSQL ${row.postgresMsPerRequest.toFixed(1)}), errors ${row.errors}`);
      }
    }

    const open: ScaleOpenRow[] = [];
    for (const rate of rates) {
      for (const endpoint of ["list", "detail", "intake"] as const) {
        for (const server of servers) {
          if (server.target === "bare" && endpoint === "intake") continue;
          const e = endpointsOf(server.url)[endpoint];
          const result = await runOpenLoop({ rate, durationMs, request: e.request, expectStatus: e.expectStatus });
          open.push({ target: server.target, endpoint, rate, p50: result.p50, p95: result.p95, p99: result.p99, errors: result.errors, requests: result.requests });
          log(`${rate}/s ${endpoint} ${server.target}: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}`);
        }
      }
    }
    return { closed, open, workers };
  } finally {
    for (const s of servers) await s.stop();
  }
}

export function printScaleTables(result: ScaleResult | null, seconds: number): void {
  if (!result) return;
  const targets = [...new Set(result.closed.map((r) => r.target))];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const of = (t: ScaleTarget) => result.closed.filter((r) => r.target === t);
  const bareRps = mean(of("bare").map((r) => r.rps));
  console.log(`\nScale: the REST list (limit 50), ${ORDERS_CONCURRENCY} closed-loop clients, ${seconds} s per run, rounds alternating; ${os.cpus().length} cores\n`);
  console.log("| Server | req/s (mean) | req/s per round | × bare | p95 ms (mean) | server CPU ms/request | PostgreSQL CPU ms/request | errors |");
  console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const t of targets) {
    const rows = of(t);
    const rps = mean(rows.map((r) => r.rps));
    console.log(
      `| ${t} | ${rps.toFixed(0)} | ${rows.map((r) => r.rps.toFixed(0)).join(", ")} | ${(rps / bareRps).toFixed(2)} | ${mean(rows.map((r) => r.p95)).toFixed(1)} | ${mean(rows.map((r) => r.cpuMsPerRequest)).toFixed(1)} | ${mean(rows.map((r) => r.postgresMsPerRequest)).toFixed(1)} | ${rows.reduce((a, r) => a + r.errors, 0)} |`,
    );
  }
  console.log(`\nOpen loop: p95 (p50) in ms at a fixed offered rate, ${seconds} s per row\n`);
  const rates = [...new Set(result.open.map((r) => r.rate))];
  console.log(`| Endpoint | Server | ${rates.map((r) => `${r}/s`).join(" | ")} |`);
  console.log(`| --- | --- | ${rates.map(() => "---:").join(" | ")} |`);
  for (const endpoint of ["list", "detail", "intake"]) {
    for (const t of targets) {
      const cells = rates.map((rate) => result.open.find((r) => r.endpoint === endpoint && r.target === t && r.rate === rate));
      if (cells.every((c) => !c)) continue;
      console.log(
        `| ${endpoint} | ${t} | ${cells.map((c) => (c ? `${c.p95.toFixed(1)} (${c.p50.toFixed(1)})${c.errors ? ` ${c.errors} errors` : ""}` : "—")).join(" | ")} |`,
      );
    }
  }
}
