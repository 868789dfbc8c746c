/**
 * Two background-work processes on one database, as two machines each running `npm run serve`:
 * each scheduled job runs once per period between them, and the pharmacy system is asked once per
 * run. PostgreSQL only: the embedded database belongs to one process (server/db/embedded-lock.ts),
 * so a second process cannot open it.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { createTenant } from "@/tests/fixtures";
import { createTestOrder, eur, fulfillmentAt, item, offerSku, orderBody } from "@/tests/orders";
import { until } from "@/tests/wait";
import { EMBEDDED_JOBS } from "./embedded-runner";
import { PHARMACY_STATUS_CHECK_JOB } from "./pharmacy-status-check";

const onPostgres = Boolean(process.env.RX_TEST_SERVER_URL?.startsWith("postgres"));
const fixture = path.join(import.meta.dirname, "..", "..", "scripts", "serve", "fixtures", "background-work.ts");
const PERIOD_MS = 1_000;
/** Periods each job must run, counted by its lease, after its first run. */
const PERIODS = 3;

/** Starts the entry's background work in a child process of its own; resolves once it has started. */
function startBackgroundWork(): Promise<ChildProcess> {
  const child = fork(fixture, [], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      BACKGROUND_JOBS: "true",
      SCHEDULED_JOB_PERIOD_MS: String(PERIOD_MS),
      // The stand-in pharmacy system listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // Shared, as machines share them: neither process writes DATA_DIR/secrets.json.
      AUTH_SECRET: "a".repeat(32),
      ENCRYPTION_KEY: "b".repeat(64),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.on("message", (m: { rx?: string }) => m?.rx === "jobs-ready" && resolve(child));
    child.once("exit", (code) => reject(new Error(`background work exited with ${code} before it started`)));
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

describe.skipIf(!onPostgres)("scheduled jobs with two background-work processes on one database", () => {
  let pharmacySystem: Server;
  let asked = 0;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // A pharmacy system that reports its one order still in work: asked once per status check run.
    pharmacySystem = createServer((_req, res) => {
      asked += 1;
      res.writeHead(200, { "content-type": "application/json" }).end('{"status": "in_progress"}');
    });
    await new Promise<void>((resolve) => pharmacySystem.listen(0, "127.0.0.1", resolve));
    const t = await createTenant();
    await t.db.pharmacy.update({
      where: { id: t.pharmacy.id },
      data: { systemConnector: { type: "http", url: `http://127.0.0.1:${(pharmacySystem.address() as AddressInfo).port}` } },
    });
    await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
    const aspirin = item("var-aspirin", { external_id: "i1", total_paid: eur(600) });
    await createTestOrder(t, orderBody(t, [], { external_id: "two-machines", customer: { id: "c-1" }, fulfillments: [fulfillmentAt("f1", t.pharmacy.id, [aspirin])] }));
  });

  afterAll(async () => {
    await Promise.all(children.map(stopped));
    pharmacySystem?.closeAllConnections();
    await new Promise((resolve) => pharmacySystem?.close(resolve));
  });

  it("runs each job once per period between them, and asks the pharmacy system once per run", async () => {
    children.push(...(await Promise.all([startBackgroundWork(), startBackgroundWork()])));
    const db = await database();
    const leases = () => db.scheduledJobLease.findMany({ orderBy: { jobId: "asc" } });
    const jobIds = EMBEDDED_JOBS.map((j) => j.id).sort();

    // From each job's first claim, until it has run PERIODS more times.
    const first = await until(async () => {
      const rows = await leases();
      return rows.length === jobIds.length && rows;
    }, 120_000);
    await until(async () => {
      const rows = await leases();
      return rows.every((row, i) => row.runs >= first[i].runs + PERIODS);
    }, 120_000);
    // Stopping waits for runs in flight: every claimed run has then asked.
    await Promise.all(children.map(stopped));

    const last = await leases();
    expect(last.map((r) => r.jobId)).toEqual(jobIds);
    for (const [i, row] of last.entries()) {
      const periods = (row.periodStart.getTime() - first[i].periodStart.getTime()) / PERIOD_MS;
      const runs = row.runs - first[i].runs;
      // Both processes tick at the start of every period: without the lease each would run it (2 runs a period).
      expect({ job: row.jobId, periodMs: row.periodMs, runs: runs <= periods, atLeast: runs >= PERIODS }).toEqual({
        job: row.jobId,
        periodMs: PERIOD_MS,
        runs: true,
        atLeast: true,
      });
    }
    const statusCheck = last.find((r) => r.jobId === PHARMACY_STATUS_CHECK_JOB.id)!;
    expect(asked).toBe(statusCheck.runs);
  });
});
