/**
 * The machines scenario (PostgreSQL only; not part of "all"): two service instances on one box, as
 * two machines, behind HAProxy, on one PostgreSQL behind PgBouncer in session mode; one instance is
 * killed with SIGKILL in the middle of the load and restarted.
 *
 *   apt-get install -y haproxy pgbouncer          (Debian's packages; the scenario says so when missing)
 *   npm run bench -- --scenario machines
 *
 * Parts, each started by the scenario and stopped at its end:
 * - PostgreSQL: a throwaway cluster (scripts/ci/postgres.sh; BENCH_PG_DIR, BENCH_PG_PORT), database rx_machines;
 * - PgBouncer (pool_mode = session) on the next free port, config in a temp directory; every
 *   connection of the service goes through it, and the bench's migrations and seed (its counting
 *   reads afterwards go to PostgreSQL directly);
 * - two instances, each `scripts/serve.ts --no-build` (the production entry: a primary, its
 *   background-work process and BENCH_MACHINES_WEB_CONCURRENCY HTTP workers, default 1) with its own
 *   port and DATA_DIR, the same secrets, TRUSTED_PROXIES set to HAProxy's address and
 *   SCHEDULED_JOB_PERIOD_MS = BENCH_MACHINES_PERIOD_MS (default 5000) so that a minute holds many periods;
 * - HAProxy (roundrobin, health checks on /v1/management/health every second, `option forwardfor`,
 *   `option redispatch`, `option http-server-close`; it connects to the instances from 127.0.0.9,
 *   the instances' one trusted proxy) on BENCH_PORT (default 3200; the instances take the next two
 *   ports); its log lines of requests that did not end normally are shown after the report;
 * - in this process: a webhook receiver, and a pharmacy system stand-in (pharmacy B's connector) that
 *   answers "in_progress" and counts how often each order is asked.
 *
 * Load, open loop through HAProxy for BENCH_MACHINES_SECONDS (default 60): order intakes (5/s, each
 * retried with the same external_id until it is answered 201, or 409 order_already_exists), status
 * changes (5/s, each of another seeded order of pharmacy A, not retried) and list reads (10/s). At a
 * third of the time the first instance's whole process group gets SIGKILL (a machine lost); at 7/12
 * it is started again. Reported: requests sent and failed, failures outside the requests in flight at
 * the kill (must be 0), orders per external_id (must be 1), webhook events expected (outbox rows of
 * pharmacy A after the subscriptions were made) and received (none lost; waits up to
 * BENCH_MACHINES_DRAIN_S, default 180 s, for retries), runs of each scheduled job against the periods
 * that passed (from the lease rows), and the pharmacy system's requests per run.
 * Then, through HAProxy from two client addresses (127.0.0.2, 127.0.0.3): sign-in failures are
 * throttled per real client, and a client's own X-Forwarded-For is not believed.
 * Exit code 1 when a check fails.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { reloadConfig } from "@/server/config";
import { createApiKey } from "@/server/auth/api-keys";
import { closeDatabase, database } from "@/server/db/client";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { EMBEDDED_JOBS } from "@/server/jobs/embedded-runner";
import { describeRun, printRunHeader, runName } from "../run-info";
import { ensureBuild, spawnServer } from "../server";
import { seedOrders } from "./orders";

const SECONDS = Number(process.env.BENCH_MACHINES_SECONDS ?? 60);
const PERIOD_MS = Number(process.env.BENCH_MACHINES_PERIOD_MS ?? 5_000);
const WEB_CONCURRENCY = process.env.BENCH_MACHINES_WEB_CONCURRENCY ?? "1";
const DRAIN_MS = Number(process.env.BENCH_MACHINES_DRAIN_S ?? 180) * 1000;
const RATES = { intake: 5, status: 5, list: 10 };
const BASE_PORT = Number(process.env.BENCH_PORT ?? 3200);
const PG_DIR = process.env.BENCH_PG_DIR ?? "/tmp/rx-bench-machines-postgres";
/** HAProxy's address towards the instances: their one trusted proxy. */
const PROXY_SOURCE = "127.0.0.9";
/** Two clients of the sign-in check, on loopback addresses of their own. */
const CLIENT_A = "127.0.0.2";
const CLIENT_B = "127.0.0.3";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Debian puts both in /usr/sbin, which a non-root PATH may lack. */
function binary(name: string): string | null {
  for (const candidate of [name, `/usr/sbin/${name}`]) {
    if (!spawnSync(candidate, ["-V"], { stdio: "ignore" }).error) return candidate;
  }
  return null;
}

function freePort(from: number): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(freePort(from + 1)));
    server.listen(from, "127.0.0.1", () => server.close(() => resolve(from)));
  });
}

/** A program started in its own process group; its stdout lines go to `onLine`, its stderr is shown if it fails. */
function daemon(command: string, args: string[], name: string, onLine?: (line: string) => void): ChildProcess {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  const errors: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) onLine?.(line);
  });
  child.once("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM") console.error(`[machines] ${name} exited (${code ?? signal}):\n${errors.join("").slice(-2000)}`);
  });
  return child;
}

function stopDaemon(child: ChildProcess | null): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(-child.pid!, "SIGTERM");
  });
}

async function waitForPort(port: number, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${what} did not listen on ${port}`);
}

function startPgBouncer(pgPort: number, port: number, dir: string): ChildProcess {
  const runAs = process.getuid?.() === 0 ? "postgres" : null; // PgBouncer refuses to run as root
  writeFileSync(path.join(dir, "userlist.txt"), '"rx" "rx"\n');
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `rx_machines = host=127.0.0.1 port=${pgPort} dbname=rx_machines user=rx password=rx`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = md5",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = session",
      // Session mode holds a server connection per client connection: every process's pool (10) and listeners fit.
      "max_client_conn = 500",
      "default_pool_size = 150",
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  if (runAs) chownSync(dir, Number(execFileSync("id", ["-u", runAs], { encoding: "utf8" })), Number(execFileSync("id", ["-g", runAs], { encoding: "utf8" })));
  const bin = binary("pgbouncer")!;
  return runAs
    ? daemon("runuser", ["-u", runAs, "--", bin, path.join(dir, "pgbouncer.ini")], "pgbouncer")
    : daemon(bin, [path.join(dir, "pgbouncer.ini")], "pgbouncer");
}

function startHaproxy(port: number, instancePorts: number[], healthKey: string, dir: string, onLog: (line: string) => void): ChildProcess {
  const file = path.join(dir, "haproxy.cfg");
  writeFileSync(
    file,
    [
      "global",
      "  maxconn 2000",
      // One line per request on stdout (the bench reads which instance answered and how each request ended).
      "  log stdout format raw local0",
      "defaults",
      "  mode http",
      "  log global",
      "  option httplog",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      // The client's address, appended as X-Forwarded-For; a connection refused by a dead instance is tried on another.
      "  option forwardfor",
      "  option redispatch",
      "  retries 3",
      // A connection to an instance per request: with idle server connections kept, HAProxy closed the
      // clients' connections tied to the killed instance's, failing requests the clients were just sending.
      "  option http-server-close",
      "frontend service",
      `  bind 127.0.0.1:${port}`,
      "  default_backend instances",
      "backend instances",
      "  balance roundrobin",
      `  source ${PROXY_SOURCE}`,
      "  option httpchk",
      `  http-check send meth GET uri /v1/management/health hdr X-API-Key ${healthKey}`,
      "  http-check expect status 200",
      // A check every second; a dead instance refuses at once (down after 3), a busy one gets 5 s to answer.
      "  timeout check 5s",
      "  default-server inter 1s fall 3 rise 2",
      "  http-response set-header X-Served-By %s",
      ...instancePorts.map((p, i) => `  server instance${i + 1} 127.0.0.1:${p} check`),
      "",
    ].join("\n"),
  );
  return daemon(binary("haproxy")!, ["-db", "-f", file], "haproxy", onLog);
}

/** One request from a chosen local address (the sign-in check's clients), answered in full. */
function requestFrom(
  localAddress: string,
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, localAddress, method: options.method, path: options.path, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A CSRF token and its cookie for the portal sign-in (any instance: they share AUTH_SECRET). */
async function signInCsrf(port: number): Promise<{ token: string; cookie: string }> {
  const csrf = await requestFrom("127.0.0.1", port, { method: "GET", path: "/api/auth/csrf" });
  const cookie = ([] as string[]).concat(csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  return { token: (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken, cookie };
}

/**
 * One failed portal sign-in (next-auth's credentials callback) from `localAddress`, optionally with
 * an X-Forwarded-For of the client's own: the service's answer, "TooManyAttempts:…" or "CredentialsSignin".
 */
async function failedSignIn(port: number, localAddress: string, email: string, csrf: { token: string; cookie: string }, forwardedFor?: string): Promise<string> {
  const answer = await requestFrom(localAddress, port, {
    method: "POST",
    path: "/api/auth/callback/credentials",
    headers: { ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}), cookie: csrf.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.token, email, password: "wrong password", json: "true" }).toString(),
  });
  const url = String(answer.headers.location ?? (JSON.parse(answer.body || "{}") as { url?: string }).url ?? "");
  signInServedBy.push(String(answer.headers["x-served-by"] ?? "?"));
  return new URL(url, "http://x").searchParams.get("error") ?? `HTTP ${answer.status}`;
}

/** Which instance answered each sign-in attempt (HAProxy's X-Served-By). */
const signInServedBy: string[] = [];

type Sent = { kind: "intake" | "status" | "list"; sentAt: number; answeredAt: number; status: number; servedBy: string; error?: string };

export async function runMachines(): Promise<number> {
  const missing = ["haproxy", "pgbouncer"].filter((b) => !binary(b));
  if (missing.length > 0) {
    console.error(`[machines] ${missing.join(" and ")} not found: install Debian's packages with\n  apt-get install -y haproxy pgbouncer`);
    return 1;
  }
  ensureBuild();
  const runInfo = await describeRun(true);
  printRunHeader(runInfo);
  const log = (line: string) => console.log(`[machines] ${line}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-bench-machines-"));
  const pgEnv = { ...process.env, RX_PG_DIR: PG_DIR, RX_PG_PORT: process.env.BENCH_PG_PORT ?? "55442" };
  const started: { pgbouncer: ChildProcess | null; haproxy: ChildProcess | null; servers: Server[] } = { pgbouncer: null, haproxy: null, servers: [] };
  const instances: ({ pid: number; stop: () => Promise<void> } | null)[] = [null, null];
  try {
    // ── PostgreSQL, PgBouncer in front ──
    const serverUrl = new URL(/DATABASE_URL=(\S+)/.exec(execFileSync("bash", ["scripts/ci/postgres.sh", "start"], { env: pgEnv, encoding: "utf8" }))![1]);
    const pgPort = Number(serverUrl.port);
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    await admin.query("CREATE DATABASE rx_machines");
    const bouncerPort = await freePort(pgPort + 1);
    started.pgbouncer = startPgBouncer(pgPort, bouncerPort, dir);
    await waitForPort(bouncerPort, "PgBouncer");
    const databaseUrl = `postgres://rx:rx@127.0.0.1:${bouncerPort}/rx_machines`;
    log(`PostgreSQL on ${pgPort}, PgBouncer (session mode) on ${bouncerPort}`);

    // ── Migrations and seed through PgBouncer ──
    Object.assign(process.env, { DATABASE_URL: databaseUrl, DATA_DIR: dir, SEED_ON_START: "false" });
    reloadConfig();
    const t0 = performance.now();
    const db = await database();
    log(`migrations applied through PgBouncer in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const ctx = await seedOrders(db, { orders: Number(process.env.BENCH_MACHINES_ORDERS ?? 2_000), label: "machines" });
    const key = await createApiKey({
      family: "PHARMACY",
      displayName: "bench machines",
      permissions: ["orders_read", "orders_write", "webhooks_read", "webhooks_write"],
      organisationId: ctx.organisationId,
      pharmacyId: ctx.pharmacyId,
    });
    // HAProxy's health checks ask /v1/management/health, which answers any key of the family.
    const healthKey = (await createApiKey({ family: "MANAGEMENT", displayName: "haproxy health checks", permissions: [], organisationId: ctx.organisationId })).plaintext;
    const pharmacyB = await db.pharmacy.findFirstOrThrow({ where: { organisationId: ctx.organisationId, id: { not: ctx.pharmacyId } } });
    const changes = ctx.ordersAtPharmacyA
      .filter((o) => o.status !== PHARMACY_ORDER_STATUS.completed && o.status !== PHARMACY_ORDER_STATUS.cancelled)
      .map((o) => ({ uid: o.id, status: o.status === PHARMACY_ORDER_STATUS.inProgress ? PHARMACY_ORDER_STATUS.pendingReview : PHARMACY_ORDER_STATUS.inProgress }));
    if (changes.length < RATES.status * SECONDS) throw new Error(`machines: ${changes.length} changeable orders, ${RATES.status * SECONDS} needed`);

    // ── The pharmacy system stand-in (pharmacy B's connector) and the webhook receiver ──
    const asked = new Map<string, number>();
    const pharmacySystem = createServer((req, res) => {
      const uid = /\/orders\/([^/?]+)/.exec(req.url ?? "")?.[1] ?? "?";
      asked.set(uid, (asked.get(uid) ?? 0) + 1);
      res.writeHead(200, { "content-type": "application/json" }).end('{"status": "in_progress"}');
    });
    const arrivals = new Map<string, number>();
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          const key = `${String(req.headers["x-webhook-event"])}|${JSON.parse(Buffer.concat(chunks).toString("utf8"))?.data?.uid}`;
          arrivals.set(key, (arrivals.get(key) ?? 0) + 1);
        } catch {
          // not JSON: not one of ours
        }
        res.writeHead(204).end();
      });
    });
    for (const server of [pharmacySystem, receiver]) {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      started.servers.push(server);
    }
    const local = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await db.pharmacy.update({ where: { id: pharmacyB.id }, data: { systemConnector: { type: "http", url: local(pharmacySystem) } } });
    const openAtB = await db.pharmacyOrder.count({ where: { pharmacyId: pharmacyB.id, status: { notIn: [PHARMACY_ORDER_STATUS.completed, PHARMACY_ORDER_STATUS.cancelled] } } });
    await closeDatabase();

    // ── Two instances, HAProxy in front ──
    const proxyPort = BASE_PORT;
    const instancePorts = [BASE_PORT + 1, BASE_PORT + 2];
    const secrets = { AUTH_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
    const instanceEnv = (i: number): Record<string, string> => ({
      ...secrets,
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, `instance${i + 1}`),
      WEB_CONCURRENCY,
      SEED_ON_START: "false",
      TRUSTED_PROXIES: PROXY_SOURCE,
      PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
      SCHEDULED_JOB_PERIOD_MS: String(PERIOD_MS),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // The load comes from one address and one key: the limits would measure themselves (the sign-in throttle is not one of them).
      RATE_LIMIT_PER_SECOND: "1000000",
      TRPC_RATE_LIMIT_PER_SECOND: "1000000",
    });
    const startInstance = (i: number) => spawnServer(["--import", "tsx", "scripts/serve.ts", "--no-build", "--port", String(instancePorts[i])], instanceEnv(i), instancePorts[i]);
    for (const i of [0, 1]) instances[i] = await startInstance(i);
    const haproxyLog: string[] = [];
    started.haproxy = startHaproxy(proxyPort, instancePorts, healthKey, dir, (line) => haproxyLog.push(line));
    const url = `http://127.0.0.1:${proxyPort}`;
    await waitUntil(async () => (await fetch(`${url}/v1/management/health`, { headers: { "x-api-key": healthKey } })).status === 200, "HAProxy");
    log(`instances on ${instancePorts.join(" and ")} (WEB_CONCURRENCY=${WEB_CONCURRENCY}, scheduled jobs every ${PERIOD_MS / 1000} s), HAProxy on ${proxyPort}`);

    // ── Webhook subscriptions through HAProxy ──
    for (const type of ["pharmacy_order_created", "pharmacy_order_updated"]) {
      const r = await fetch(`${url}/v1/external_pharmacy_api/webhooks/`, {
        method: "POST",
        headers: { "x-api-key": key.plaintext, "content-type": "application/json" },
        body: JSON.stringify({ notification_type: type, target: `${local(receiver)}/${type}` }),
      });
      if (r.status !== 201 && r.status !== 200) throw new Error(`machines: subscribing ${type}: ${r.status} ${await r.text()}`);
    }
    // The bench's own reads go to PostgreSQL directly: they are no part of what is measured.
    const directUrl = new URL(serverUrl);
    directUrl.pathname = "/rx_machines";
    const direct = new pg.Client({ connectionString: directUrl.toString() });
    await direct.connect();
    const subscribedAt: Date = (await direct.query("SELECT now() AS now")).rows[0].now;
    const leases = async () =>
      (await direct.query<{ jobId: string; periodStart: Date; runs: number; claimedBy: string }>('SELECT "jobId", "periodStart", "runs", "claimedBy" FROM "ScheduledJobLease"')).rows;

    // ── The load, the kill and the restart ──
    const run = randomUUID().slice(0, 8);
    const sent: Sent[] = [];
    const intakes: { externalId: string; attempts: number; outcome: number }[] = [];
    const send = async (kind: Sent["kind"], request: () => Promise<Response>, expect: number[]): Promise<Sent> => {
      const entry: Sent = { kind, sentAt: performance.now(), answeredAt: NaN, status: 0, servedBy: "" };
      sent.push(entry);
      try {
        const r = await request();
        entry.status = r.status;
        entry.servedBy = r.headers.get("x-served-by") ?? "";
        const body = await r.text();
        if (!expect.includes(r.status)) entry.error = body.slice(0, 200);
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
        entry.error = `${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ""}`;
      }
      entry.answeredAt = performance.now();
      return entry;
    };
    const intake = async (i: number) => {
      const externalId = `machines-${run}-${i}`;
      const body = JSON.stringify({
        shop_identifier: ctx.shopIdentifier,
        external_id: externalId,
        customer: { id: `machines-${i % 50}`, email: `machines-${i % 50}@example.com` },
        delivery_address: { first_name: "Erika", last_name: "Mustermann", street: "Hauptstraße", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
        fulfillments: [
          {
            external_id: "f-1",
            destination_pharmacy_uid: ctx.pharmacyId,
            items: [{ external_id: "item-1", sku_reference: ctx.skuReferences[i % ctx.skuReferences.length], quantity: 1, total_paid: { amount: 1299, currency: "EUR" } }],
          },
        ],
      });
      const record = { externalId, attempts: 0, outcome: 0 };
      intakes.push(record);
      // Retried with the same external_id until the service says the order exists (201, or 409 after a lost answer).
      for (; record.attempts < 20; await sleep(500)) {
        record.attempts++;
        const r = await send("intake", () => fetch(`${url}/v1/management/orders`, { method: "POST", headers: { "x-api-key": ctx.managementKey, "content-type": "application/json" }, body }), [201, 409]);
        if (r.status === 201 || r.status === 409) {
          record.outcome = r.status;
          return;
        }
      }
    };
    const statusChange = (i: number) =>
      send(
        "status",
        () =>
          fetch(`${url}/v1/external_pharmacy_api/pharmacy_orders/${changes[i].uid}/status`, {
            method: "PATCH",
            headers: { "x-api-key": key.plaintext, "content-type": "application/json" },
            body: JSON.stringify({ status: changes[i].status }),
          }),
        [200],
      );
    const listRead = () => send("list", () => fetch(`${url}/v1/external_pharmacy_api/pharmacy_orders/?limit=20`, { headers: { "x-api-key": key.plaintext } }), [200]);

    // Every job has run once, so that its runs and periods count from a claimed period.
    await waitUntil(async () => (await leases()).length === EMBEDDED_JOBS.length, "the scheduled jobs' first runs");
    const before = await leases();
    const askedBefore = [...asked.values()].reduce((a, b) => a + b, 0);
    const loadStart = performance.now();
    const killAtMs = (SECONDS * 1000) / 3;
    const restartAtMs = (SECONDS * 1000 * 7) / 12;
    let killedAt = NaN;
    let restartedAt = NaN;
    let upAgainAt = NaN;
    const timeline = (async () => {
      await sleep(killAtMs);
      killedAt = performance.now();
      // The whole process group: primary, background work and HTTP workers at once, as a machine that dies.
      process.kill(-instances[0]!.pid, "SIGKILL");
      instances[0] = null;
      log(`t=${((killedAt - loadStart) / 1000).toFixed(1)} s: instance1 killed (SIGKILL to its process group)`);
      await sleep(restartAtMs - (performance.now() - loadStart));
      restartedAt = performance.now();
      instances[0] = await startInstance(0);
      upAgainAt = performance.now();
      log(`t=${((restartedAt - loadStart) / 1000).toFixed(1)} s: instance1 restarted, serving after ${((upAgainAt - restartedAt) / 1000).toFixed(1)} s`);
    })();
    const pending: Promise<unknown>[] = [];
    const drive = async (rate: number, fire: (i: number) => Promise<unknown>) => {
      const count = Math.round(rate * SECONDS);
      for (let i = 0; i < count; i++) {
        const wait = loadStart + (i * 1000) / rate - performance.now();
        if (wait > 1) await sleep(wait);
        pending.push(fire(i));
      }
    };
    await Promise.all([drive(RATES.intake, intake), drive(RATES.status, statusChange), drive(RATES.list, listRead)]);
    await Promise.all(pending);
    await timeline;
    const loadEnd = performance.now();
    const activeConnections = Number((await direct.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'rx_machines'")).rows[0].n);
    log(`load done in ${((loadEnd - loadStart) / 1000).toFixed(1)} s; ${sent.length} requests; waiting for webhook deliveries…`);

    // ── Webhooks: every outbox event of pharmacy A since the subscriptions, received at least once ──
    const expectedKeys = async () =>
      (
        await direct.query<{ key: string }>(
          `SELECT "eventType" || '|' || "subjectId" AS key FROM "OutboxEvent"
            WHERE "pharmacyId" = $1 AND "eventType" IN ('pharmacy_order_created', 'pharmacy_order_updated') AND "createdAt" >= $2`,
          [ctx.pharmacyId, subscribedAt],
        )
      ).rows.map((r) => r.key);
    const drainStart = performance.now();
    let expected = await expectedKeys();
    while (expected.some((k) => !arrivals.has(k)) && performance.now() - drainStart < DRAIN_MS) {
      await sleep(2_000);
      expected = await expectedKeys();
    }
    const drainedS = (performance.now() - drainStart) / 1000;
    const lost = expected.filter((k) => !arrivals.has(k));
    const repeatedKeys = expected.length - new Set(expected).size;
    const deliveriesReceived = [...arrivals.values()].reduce((a, b) => a + b, 0);

    // ── Scheduled jobs: runs against periods, from the lease rows ──
    const after = await leases();
    const askedDuring = [...asked.values()].reduce((a, b) => a + b, 0) - askedBefore;
    const windowS = (performance.now() - loadStart) / 1000;
    const jobs = EMBEDDED_JOBS.map(({ id }) => {
      const b = before.find((r) => r.jobId === id);
      const a = after.find((r) => r.jobId === id);
      const runs = (a?.runs ?? 0) - (b?.runs ?? 0);
      const periods = a && b ? (a.periodStart.getTime() - b.periodStart.getTime()) / PERIOD_MS : NaN;
      return { id, runs, periods, claimedBy: a?.claimedBy ?? "—" };
    });
    const statusRuns = jobs.find((j) => j.id === "pharmacy-status-check")!.runs;

    // ── Orders per external_id ──
    const perExternalId = (
      await direct.query<{ externalId: string; n: number }>(`SELECT "externalId", count(*)::int AS n FROM "Order" WHERE "externalId" LIKE $1 GROUP BY 1`, [`machines-${run}-%`])
    ).rows;
    const duplicated = perExternalId.filter((r) => r.n > 1).length;
    const acknowledged = intakes.filter((r) => r.outcome !== 0);
    const missingOrders = acknowledged.filter((r) => !perExternalId.some((o) => o.externalId === r.externalId)).length;

    // ── Client addresses through HAProxy: sign-in throttles per real client ──
    const email = `nobody-${run}@machines.example`;
    const csrf = await signInCsrf(proxyPort);
    // Until both instances refuse (each counts its own failures): two refusals in a row under roundrobin.
    let attempts = 0;
    let firstRefused = 0;
    let refusedInARow = 0;
    while (refusedInARow < 2 && attempts < 60) {
      attempts++;
      const refused = (await failedSignIn(proxyPort, CLIENT_A, email, csrf)).startsWith("TooManyAttempts");
      if (refused && firstRefused === 0) firstRefused = attempts;
      refusedInARow = refused ? refusedInARow + 1 : 0;
    }
    const throttle = {
      failuresBeforeRefused: firstRefused - 1,
      otherClient: await failedSignIn(proxyPort, CLIENT_B, email, csrf),
      otherClaimingBlocked: await failedSignIn(proxyPort, CLIENT_B, email, csrf, CLIENT_A),
      blockedClaimingOther: await failedSignIn(proxyPort, CLIENT_A, email, csrf, "198.51.100.7"),
    };
    await direct.end();
    await admin.end();

    // ── Report ──
    const failed = sent.filter((s) => s.error !== undefined);
    const inFlightAtKill = (s: Sent) => s.sentAt <= killedAt && s.answeredAt >= killedAt;
    const failedOutside = failed.filter((s) => !inFlightAtKill(s));
    const servedBy = (name: string) => sent.filter((s) => s.servedBy === name).length;
    const at = (t: number) => `${((t - loadStart) / 1000).toFixed(1)} s`;
    const checks = {
      "failures only in flight at the kill": failedOutside.length === 0,
      "every intake acknowledged": acknowledged.length === intakes.length,
      "one order per external_id": duplicated === 0 && missingOrders === 0,
      "no webhook event lost": lost.length === 0,
      "each job at most once per period": jobs.every((j) => j.runs <= j.periods),
      "pharmacy system asked once per order per run": askedDuring <= statusRuns * openAtB + openAtB,
      "sign-in throttled per real client": firstRefused > 0 && refusedInARow === 2 && throttle.otherClient === "CredentialsSignin",
      "a client's own X-Forwarded-For not believed": throttle.otherClaimingBlocked === "CredentialsSignin" && throttle.blockedClaimingOther.startsWith("TooManyAttempts"),
    };

    console.log(`\nTwo instances behind HAProxy, PgBouncer (session mode) in front of PostgreSQL; ${runName(runInfo)}, ${os.cpus().length} cores`);
    console.log(`Load ${RATES.intake} intakes + ${RATES.status} status changes + ${RATES.list} list reads per second for ${SECONDS} s; instance1 killed at ${at(killedAt)}, restarted at ${at(restartedAt)} (serving at ${at(upAgainAt)})\n`);
    console.log("| Requests | sent | failed | failed in flight at the kill | failed otherwise | served by instance1 / instance2 |");
    console.log("| --- | ---: | ---: | ---: | ---: | --- |");
    for (const kind of ["intake", "status", "list"] as const) {
      const of = sent.filter((s) => s.kind === kind);
      const f = of.filter((s) => s.error !== undefined);
      console.log(`| ${kind} | ${of.length} | ${f.length} | ${f.filter(inFlightAtKill).length} | ${f.filter((s) => !inFlightAtKill(s)).length} | ${of.filter((s) => s.servedBy === "instance1").length} / ${of.filter((s) => s.servedBy === "instance2").length} |`);
    }
    console.log(`\nIntakes: ${intakes.length} external ids, ${acknowledged.length} acknowledged (${acknowledged.filter((r) => r.outcome === 409).length} by 409 after a retry), ${intakes.filter((r) => r.attempts > 1).length} retried; orders per external_id: ${duplicated === 0 && missingOrders === 0 ? "1 each" : `${duplicated} duplicated, ${missingOrders} missing`}`);
    console.log(`Webhooks: ${expected.length} events expected (${repeatedKeys} sharing a key), ${expected.length - lost.length} received, ${lost.length} lost; ${deliveriesReceived} deliveries in all; all in by ${drainedS.toFixed(0)} s after the load`);
    console.log(
      `PostgreSQL connections of the database at the end of the load (through PgBouncer, session mode): ${activeConnections}; ` +
        `served by instance1 ${servedBy("instance1")} (${sent.filter((s) => s.servedBy === "instance1" && s.sentAt >= upAgainAt).length} after its restart), instance2 ${servedBy("instance2")}`,
    );
    console.log(`\nScheduled jobs every ${PERIOD_MS / 1000} s on both instances, over ${windowS.toFixed(0)} s (${Math.floor((windowS * 1000) / PERIOD_MS)} periods by the clock)\n`);
    console.log("| Job | runs | periods (by the lease) | last claimed by |");
    console.log("| --- | ---: | ---: | --- |");
    for (const j of jobs) console.log(`| ${j.id} | ${j.runs} | ${j.periods} | ${j.claimedBy} |`);
    console.log(`\nPharmacy system (pharmacy B, ${openAtB} open orders): asked ${askedDuring} times in ${statusRuns} status check runs`);
    console.log(
      `Sign-in through HAProxy from ${CLIENT_A}: refused after ${throttle.failuresBeforeRefused} failures (${["instance1", "instance2"].map((n) => `${n} ${signInServedBy.slice(0, throttle.failuresBeforeRefused).filter((s) => s === n).length}`).join(", ")}: each instance counts its own, refusing after 10); ${CLIENT_B}: ${throttle.otherClient}; ` +
        `${CLIENT_B} claiming X-Forwarded-For ${CLIENT_A}: ${throttle.otherClaimingBlocked}; ${CLIENT_A} claiming another address: ${throttle.blockedClaimingOther}`,
    );
    console.log("\n| Check | result |\n| --- | --- |");
    for (const [name, ok] of Object.entries(checks)) console.log(`| ${name} | ${ok ? "pass" : "FAIL"} |`);
    if (failedOutside.length > 0) for (const s of failedOutside.slice(0, 5)) log(`failed outside the kill: ${s.kind} at ${at(s.sentAt)}–${at(s.answeredAt)}: ${s.status} ${s.error}`);
    // HAProxy's own account of every request that did not end normally (termination state other than "----").
    for (const line of haproxyLog.filter((l) => !l.includes(" ---- ")).slice(0, 40)) log(`haproxy: ${line}`);
    return Object.values(checks).every(Boolean) ? 0 : 1;
  } finally {
    await Promise.all(instances.map((s) => s?.stop()));
    await stopDaemon(started.haproxy);
    await stopDaemon(started.pgbouncer);
    for (const server of started.servers) {
      server.closeAllConnections();
      server.close();
    }
    await closeDatabase().catch(() => undefined);
    execFileSync("bash", ["scripts/ci/postgres.sh", "stop"], { env: pgEnv, stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`machines: ${what} not ready`);
}
