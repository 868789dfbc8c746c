/**
 * The production entry: `npm start` (builds first when the build is missing or stale) and
 * `npm run serve` (serves the existing build; `--no-build`).
 *
 *   node --import tsx scripts/serve.ts [--no-build] [--hostname 127.0.0.1] [--port 3000]
 *   node --import tsx scripts/serve.ts --build      (`npm run build`: build now, record its inputs, exit)
 *
 * On PostgreSQL a primary process forks one process for the start-up (migrations, seed) and the
 * background work, then WEB_CONCURRENCY HTTP workers (default: one per core) that share the port
 * (node's cluster, connections handed out round-robin); it restarts any that dies and counts the
 * rate limit for the HTTP workers. On embedded PGlite everything runs in this one process. Each
 * HTTP server closes slow clients' connections (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS,
 * HTTP_KEEP_ALIVE_TIMEOUT_MS), decides each request's client address once (serve/client-address.ts,
 * TRUSTED_PROXIES) and hands REST requests straight to their route handlers
 * (serve/rest-direct.ts; RX_DIRECT_REST=0 leaves them to Next.js). SIGTERM or SIGINT: stop
 * accepting, finish the requests in flight, stop the background work, close the database; a second
 * signal ends the process at once (serve/shutdown.ts).
 */
import { spawnSync } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import nextEnv from "@next/env";
import { config } from "@/server/config";
import { apiSecurityHeaders } from "@/server/http/security-headers";
import { log } from "@/server/log";
import { countRateLimitsForWorkers } from "@/server/rest/rate-limit";
import { countSignInFailuresForWorkers } from "@/server/auth/sign-in-throttle";
import { runBackgroundWork } from "./serve/background-work";
import { refuseUnboundedBody } from "./serve/body-guard";
import { clientAddressPolicy, withClientAddress } from "./serve/client-address";
import { closeGracefully, createHttpServer } from "./serve/http-server";
import { directApiHandler, FETCH_FORBIDDEN_METHODS, loadApiRoutes } from "./serve/rest-direct";
import { buildInputsHash, buildIsCurrent, buildStampFile, processPlan } from "./serve/plan";
import { stopOnSignals } from "./serve/shutdown";

const root = path.resolve(import.meta.dirname, "..");
/** How long requests in flight may take to finish after SIGTERM before their connections are cut. */
const GRACE_MS = 20_000;

const { values: args } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    hostname: { type: "string" },
    port: { type: "string" },
  },
});
if (args.port) process.env.PORT = args.port;
// Next.js reads NODE_ENV as it loads: a production build is served in production mode.
(process.env as Record<string, string>).NODE_ENV = "production";
// .env and .env.production(.local) as Next.js reads them, before anything reads the configuration:
// the primary decides the process count from DATABASE_URL, and the background-work process never loads Next.js.
nextEnv.loadEnvConfig(root, false, { info: () => undefined, error: console.error });

function ensureBuild(force = false): void {
  const inputs = buildInputsHash(root);
  if (!force && buildIsCurrent(root, inputs)) {
    log.info("build is current: not rebuilding");
    return;
  }
  console.log(`[serve] building (next build)${force ? "" : ": the build is missing or its sources changed"}`);
  const build = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    // No usage data leaves a health platform's build unasked (and no notice about it offline).
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
  });
  if (build.status !== 0) {
    console.error(`[serve] next build failed (exit ${build.status ?? build.signal})`);
    process.exit(1);
  }
  // The inputs as they were when the build began: a file changed meanwhile makes the next start rebuild.
  writeFileSync(buildStampFile(root), `${inputs}\n`);
}

/** One HTTP server with Next.js in this process; resolves once it listens. */
async function serveHttp(): Promise<void> {
  const c = config();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname: args.hostname, port: c.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  // REST requests go straight to their family's route handler, answered as one buffer (rest-direct.ts);
  // not with HTTP_COMPRESSION=true, which sends them through Next.js to be compressed.
  let direct: ReturnType<typeof directApiHandler> = null;
  // The client's address is decided first, once, for the direct handlers and Next.js alike.
  const listener = withClientAddress((req, res) => {
    if (direct?.(req, res)) return;
    // What Next.js serves gets bodies bounded here (serve/body-guard.ts); REST and tRPC bound their own.
    if (refuseUnboundedBody(req, res)) return;
    // Methods a fetch Request cannot carry fail inside Next.js with a 500; API paths are answered by
    // rest-direct.ts, everything else here.
    if (FETCH_FORBIDDEN_METHODS.has(req.method ?? "")) {
      res.writeHead(405, { ...apiSecurityHeaders(), allow: "GET, HEAD, POST", "content-type": "text/plain; charset=utf-8" }).end("Method Not Allowed");
      return;
    }
    void handle(req, res);
  }, c.TRUSTED_PROXIES);
  const server = createHttpServer(listener, {
    headersMs: c.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: c.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: c.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
  // A custom server runs instrumentation.ts (start-up: the database, the background work where
  // BACKGROUND_JOBS is on) at its first request, not in prepare(). One request of this process's own,
  // on a private port (a cluster worker's request to the shared port may reach another worker),
  // makes that happen before it takes connections. The entry must not open the database
  // itself: its copy of the server modules is not the bundle's (Prisma's error classes would differ).
  await warmUp(listener);
  if (c.HTTP_COMPRESSION !== "all" && process.env.RX_DIRECT_REST !== "0") direct = directApiHandler(await loadApiRoutes(root));
  const stopService = await (await import("@/server/startup")).prepareStopService();
  stopOnSignals(async () => {
    await closeGracefully(server, GRACE_MS);
    await app.close().catch(() => undefined);
    await stopService();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(c.PORT, args.hostname, () => resolve());
  });
}


async function warmUp(handle: http.RequestListener): Promise<void> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/__warm-up", agent: false }, (res) => res.resume().on("end", resolve))
        .on("error", reject);
    });
  } finally {
    server.close();
  }
}

type Role = "jobs" | "http";

/**
 * The primary: supervises one background-work process and `workers` HTTP processes, restarts any
 * that dies, and counts the rate limit and the sign-in throttle for the HTTP workers
 * (server/rest/rate-limit.ts, server/auth/sign-in-throttle.ts). It loads
 * none of the application besides those counters: its event loop stays free for them.
 */
async function primary(workers: number): Promise<void> {
  countRateLimitsForWorkers();
  countSignInFailuresForWorkers();
  let stopping = false;
  const roles = new Map<Worker, { role: Role; startedAt: number }>();
  const restartDelay: Record<Role, number> = { jobs: 1_000, http: 1_000 };
  const fork = (role: Role) => {
    const worker = cluster.fork({ RX_SERVE_ROLE: role, BACKGROUND_JOBS: role === "jobs" ? "true" : "false" });
    roles.set(worker, { role, startedAt: Date.now() });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const entry = roles.get(worker);
    roles.delete(worker);
    if (stopping || !entry) return;
    // A process that dies at once again and again (a bad configuration) is restarted ever more slowly.
    const lived = Date.now() - entry.startedAt;
    restartDelay[entry.role] = lived > 30_000 ? 1_000 : Math.min(restartDelay[entry.role] * 2, 30_000);
    log.error(`${entry.role} process died; starting another`, { pid: worker.process.pid, code, signal, restartInMs: restartDelay[entry.role] });
    setTimeout(() => fork(entry.role), restartDelay[entry.role]);
  });

  // Start-up (migrations, the seed) completes in the jobs process before any HTTP worker opens the database.
  const jobs = fork("jobs");
  await new Promise<void>((resolve, reject) => {
    jobs.on("message", (m: { rx?: string }) => m?.rx === "jobs-ready" && resolve());
    jobs.once("exit", (code) => reject(new Error(`the start-up failed (exit ${code})`)));
  });
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === workers) console.log(`[serve] ready on port ${config().PORT}: ${workers} HTTP processes, background work in process ${jobs.process.pid}`);
  });
  for (let i = 0; i < workers; i++) fork("http");

  const stopAll = (role: Role) =>
    Promise.all(
      [...roles].filter(([, e]) => e.role === role).map(
        ([worker]) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const kill = setTimeout(() => worker.process.kill("SIGKILL"), GRACE_MS + 10_000);
            worker.once("exit", () => {
              clearTimeout(kill);
              resolve();
            });
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  stopOnSignals(
    async () => {
      stopping = true;
      // Requests in flight finish first; then the background work stops.
      await stopAll("http");
      await stopAll("jobs");
    },
    () => {
      for (const worker of roles.keys()) worker.process.kill("SIGKILL");
    },
  );
}

async function main(): Promise<void> {
  if (cluster.isWorker) return process.env.RX_SERVE_ROLE === "jobs" ? runBackgroundWork() : serveHttp();
  if (args.build) return ensureBuild(true);
  if (!args["no-build"]) ensureBuild();
  const c = config();
  log.info(clientAddressPolicy(c.TRUSTED_PROXIES));
  const plan = processPlan({ databaseUrl: c.DATABASE_URL, webConcurrency: c.WEB_CONCURRENCY, cores: os.availableParallelism() });
  if (!plan.cluster) {
    await serveHttp();
    console.log(`[serve] ready on port ${c.PORT}: one process (embedded database)`);
    return;
  }
  await primary(plan.workers);
}

main().catch((error: unknown) => {
  console.error("[serve] could not start:", error);
  process.exit(1);
});
