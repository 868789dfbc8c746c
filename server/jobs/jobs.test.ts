import { createServer, type Server } from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { InngestTestEngine } from "@inngest/test";
import type { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { reloadConfig } from "@/server/config";
import { database } from "@/server/db/client";
import { until, useEnv } from "@/tests/wait";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, eur, fulfillmentAt, item, offerSku, orderBody } from "@/tests/orders";
import { EMBEDDED_JOBS, scheduleJob, startEmbeddedJobs, type Job } from "./embedded-runner";
import { inngestFunctions, pharmacyOrderTallyCompaction, pharmacyStatusCheck, webhookLogRetention } from "./inngest";
import { PHARMACY_STATUS_CHECK_JOB } from "./pharmacy-status-check";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const INNGEST_ENV = ["INNGEST_BASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV"] as const;
afterEach(() => {
  for (const name of INNGEST_ENV) delete process.env[name];
  reloadConfig();
});

/** Fixed instants: periods of a minute start on the minute. */
const minute = (m: number, s = 0) => new Date(Date.UTC(2030, 0, 1, 0, m, s));

const leaseOf = async (jobId: string) => (await database()).scheduledJobLease.findUnique({ where: { jobId } });

describe("embedded runner", () => {
  it("never overlaps runs: a tick during a run is skipped", async () => {
    const gate = deferred();
    const started = deferred();
    let calls = 0;
    const job = scheduleJob({
      id: "slow",
      everyMs: 60_000,
      run: async () => {
        calls += 1;
        started.resolve();
        await gate.promise;
      },
    });
    try {
      const firstRun = job.tick(minute(1));
      await started.promise;
      expect(await job.tick(minute(2))).toBe("skipped");
      expect(await job.tick(minute(3))).toBe("skipped");
      expect(calls).toBe(1);
      gate.resolve();
      expect(await firstRun).toBe("ran");
      expect(await job.tick(minute(4))).toBe("ran");
      expect(calls).toBe(2);
    } finally {
      gate.resolve();
      await job.stop();
    }
  });

  it("runs a job once per period: a second tick in the same period, here or in another process, is taken", async () => {
    let calls = 0;
    const job: Job = { id: "once", everyMs: 60_000, run: async () => void (calls += 1) };
    // Two schedules of one job on one database: as two machines' background-work processes.
    const [here, there] = [scheduleJob(job), scheduleJob(job)];
    try {
      // Both ask for the same period at once (the start of a minute): one runs it.
      expect((await Promise.all([here.tick(minute(1)), there.tick(minute(1))])).sort()).toEqual(["ran", "taken"]);
      expect(await here.tick(minute(1, 59))).toBe("taken");
      expect(calls).toBe(1);
      expect(await there.tick(minute(2, 1))).toBe("ran");
      // A clock behind the others cannot claim a period that has passed: the lease only moves forward.
      expect(await here.tick(minute(1, 30))).toBe("taken");
      expect(calls).toBe(2);
      expect(await leaseOf("once")).toMatchObject({ periodStart: minute(2), periodMs: 60_000, runs: 2, claimedBy: `${os.hostname()}:${process.pid}` });
    } finally {
      await Promise.all([here.stop(), there.stop()]);
    }
  });

  it("a process that dies during its run blocks nothing after that period", async () => {
    let calls = 0;
    const job: Job = { id: "dies", everyMs: 60_000, run: async () => void (calls += 1) };
    // The run of minute 1 never ends, as in a process killed during it.
    const dying = scheduleJob({ ...job, run: () => new Promise(() => undefined) });
    const other = scheduleJob(job);
    try {
      void dying.tick(minute(1));
      await until(async () => (await leaseOf("dies"))?.runs === 1, 60_000);
      expect(await other.tick(minute(1, 30))).toBe("taken");
      expect(await other.tick(minute(2))).toBe("ran");
      expect(calls).toBe(1);
    } finally {
      void dying.stop();
      await other.stop();
    }
  });

  it("ticks at the start of each period, and stops", async () => {
    // The schedule's timers and clock are faked; the claims go to the real database.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: minute(0, 30) });
    const starts: number[] = [];
    let ran = deferred();
    const job = scheduleJob({
      id: "periodic",
      everyMs: 60_000,
      run: async () => {
        starts.push(Date.now());
        ran.resolve();
      },
    });
    try {
      await vi.advanceTimersByTimeAsync(30_000);
      await ran.promise;
      ran = deferred();
      await vi.advanceTimersByTimeAsync(60_000);
      await ran.promise;
      expect(starts).toEqual([minute(1).getTime(), minute(2).getTime()]);
      await job.stop();
      await vi.advanceTimersByTimeAsync(180_000);
      expect(starts).toHaveLength(2);
    } finally {
      await job.stop();
      vi.useRealTimers();
    }
  });

  it("stops after the run in flight has finished", async () => {
    const gate = deferred();
    let finished = false;
    const job = scheduleJob({
      id: "finishing",
      everyMs: 60_000,
      run: async () => {
        await gate.promise;
        finished = true;
      },
    });
    const run = job.tick(minute(1));
    await until(async () => (await leaseOf("finishing")) !== null, 60_000);
    const stopped = job.stop().then(() => finished);
    gate.resolve();
    expect(await stopped).toBe(true);
    expect(await run).toBe("ran");
  });

  it("keeps the schedule going after a failing run", async () => {
    let calls = 0;
    const job = scheduleJob({
      id: "flaky",
      everyMs: 60_000,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error("pharmacy systems down");
      },
    });
    try {
      expect(await job.tick(minute(1))).toBe("ran");
      expect(await job.tick(minute(2))).toBe("ran");
      expect(calls).toBe(2);
    } finally {
      await job.stop();
    }
  });

  it("gives every job the period SCHEDULED_JOB_PERIOD_MS when it is set", async () => {
    process.env.SCHEDULED_JOB_PERIOD_MS = "200";
    reloadConfig();
    const handle = startEmbeddedJobs([{ id: "short", everyMs: 3_600_000, run: async () => {} }]);
    try {
      expect(await until(async () => leaseOf("short"), 60_000)).toMatchObject({ periodMs: 200 });
    } finally {
      await handle?.stop();
      delete process.env.SCHEDULED_JOB_PERIOD_MS;
      reloadConfig();
    }
  });

  it("starts only when Inngest is not configured, once", async () => {
    const jobs: Job[] = [{ id: "noop", everyMs: 60_000, run: async () => {} }];
    process.env.INNGEST_BASE_URL = "http://127.0.0.1:8288";
    reloadConfig();
    expect(startEmbeddedJobs(jobs)).toBeNull();

    delete process.env.INNGEST_BASE_URL;
    reloadConfig();
    const handle = startEmbeddedJobs(jobs);
    expect(handle).not.toBeNull();
    expect(startEmbeddedJobs(jobs)).toBe(handle);
    await handle!.stop();
    const again = startEmbeddedJobs(jobs);
    expect(again).not.toBe(handle);
    await again!.stop();
  });

  it("schedules the same jobs as the Inngest crons: status check every five minutes, tally compaction every minute, log retention hourly, appointment reminders, reservation expiry and new-request e-mails every minute", () => {
    expect(EMBEDDED_JOBS.map((j) => [j.id, j.everyMs])).toEqual([
      ["pharmacy-status-check", 300_000],
      ["pharmacy-order-tally-compaction", 60_000],
      ["webhook-log-retention", 3_600_000],
      ["appointment-reminders", 60_000],
      ["reservation-expiry", 60_000],
      ["doctor-request-notices", 60_000],
    ]);
    expect(webhookLogRetention.opts).toMatchObject({ id: "webhook-log-retention", triggers: [{ cron: "17 * * * *" }] });
    expect(pharmacyOrderTallyCompaction.opts).toMatchObject({
      id: "pharmacy-order-tally-compaction",
      triggers: [{ cron: "* * * * *" }],
      singleton: { mode: "skip" },
    });
    expect(pharmacyStatusCheck.opts).toMatchObject({
      id: "pharmacy-status-check",
      triggers: [{ cron: "*/5 * * * *" }],
      singleton: { mode: "skip" },
    });
    expect(PHARMACY_STATUS_CHECK_JOB.cron).toBe("*/5 * * * *");
  });
});

describe("the pharmacy-status-check function", () => {
  // The fake pharmacy system listens on loopback, which the outgoing-request guard refuses by default.
  useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  let t: Tenant;
  let server: Server;
  let pharmacyOrderId: string;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"status":"shipped"}'));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    t = await createTenant();
    await t.db.pharmacy.update({
      where: { id: t.pharmacy.id },
      data: { systemConnector: { type: "http", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } },
    });
    await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
    const aspirin = item("var-aspirin", { external_id: "i1", total_paid: eur(600) });
    const order = await createTestOrder(t, orderBody(t, [], { external_id: "job-1", customer: { id: "c-1" }, fulfillments: [fulfillmentAt("f1", t.pharmacy.id, [aspirin])] }));
    pharmacyOrderId = order.pharmacyOrders[0].id;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("runs the status check when Inngest invokes it, and again without effect", async () => {
    const engine = new InngestTestEngine({ function: pharmacyStatusCheck });
    const { result } = await engine.execute();
    expect(result).toEqual({ checked: 1, completed: 1, cancelled: 0, open: 0, unknown: 0, blocked: 0, skipped: 0, unchanged: 0, failed: 0, more: false });
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrderId } })).status).toBe("completed");
    const again = await new InngestTestEngine({ function: pharmacyStatusCheck }).execute();
    // Completed orders are asked about again (the spec's "any", issue 36): the second run changes nothing.
    expect(again.result).toMatchObject({ checked: 1, completed: 0, cancelled: 0, unchanged: 1 });
  });

  it("is served at /api/inngest when Inngest is configured, and is a 404 otherwise", async () => {
    const route = await import("@/app/api/inngest/route");
    const request = () => new Request("http://localhost:3000/api/inngest") as unknown as NextRequest;

    const off = await route.GET(request(), undefined);
    expect(off.status).toBe(404);
    expect(off.headers.get("content-type")).toContain("text/html");

    process.env.INNGEST_BASE_URL = "http://127.0.0.1:9";
    process.env.INNGEST_DEV = "1";
    reloadConfig();
    const on = await route.GET(request(), undefined);
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ function_count: inngestFunctions.length, mode: "dev" });
  });
});
