import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InngestTestEngine } from "@inngest/test";
import type { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { reloadConfig } from "@/server/config";
import { useEnv } from "@/tests/wait";
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

describe("embedded runner", () => {
  it("never overlaps runs: a tick during a run is skipped", async () => {
    const gate = deferred();
    let calls = 0;
    const job = scheduleJob({
      id: "slow",
      everyMs: 60_000,
      run: async () => {
        calls += 1;
        await gate.promise;
      },
    });
    try {
      const firstRun = job.tick();
      expect(await job.tick()).toBe("skipped");
      expect(await job.tick()).toBe("skipped");
      expect(calls).toBe(1);
      gate.resolve();
      expect(await firstRun).toBe("ran");
      expect(await job.tick()).toBe("ran");
      expect(calls).toBe(2);
    } finally {
      job.stop();
    }
  });

  it("runs on its interval, skipping ticks while a run is still going, and stops", async () => {
    // The interval's ticks come from a faked clock: counted exactly, whatever the machine's load.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let gate = deferred();
    let calls = 0;
    let running = 0;
    let overlapped = false;
    const job = scheduleJob({
      id: "interval",
      everyMs: 10,
      run: async () => {
        calls += 1;
        running += 1;
        overlapped ||= running > 1;
        await gate.promise;
        running -= 1;
      },
    });
    try {
      await vi.advanceTimersByTimeAsync(100); // ten ticks while the first run waits
      expect(calls).toBe(1);
      gate.resolve();
      gate = deferred();
      gate.resolve();
      await vi.advanceTimersByTimeAsync(30); // three ticks, each runs
      expect(calls).toBe(4);
      expect(overlapped).toBe(false);
      job.stop();
      await vi.advanceTimersByTimeAsync(100);
      expect(calls).toBe(4);
    } finally {
      job.stop();
      vi.useRealTimers();
    }
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
      expect(await job.tick()).toBe("ran");
      expect(await job.tick()).toBe("ran");
      expect(calls).toBe(2);
    } finally {
      job.stop();
    }
  });

  it("starts only when Inngest is not configured, once", () => {
    const jobs: Job[] = [{ id: "noop", everyMs: 60_000, run: async () => {} }];
    process.env.INNGEST_BASE_URL = "http://127.0.0.1:8288";
    reloadConfig();
    expect(startEmbeddedJobs(jobs)).toBeNull();

    delete process.env.INNGEST_BASE_URL;
    reloadConfig();
    const handle = startEmbeddedJobs(jobs);
    expect(handle).not.toBeNull();
    expect(startEmbeddedJobs(jobs)).toBe(handle);
    handle!.stop();
    const again = startEmbeddedJobs(jobs);
    expect(again).not.toBe(handle);
    again!.stop();
  });

  it("schedules the same jobs as the Inngest crons: status check every five minutes, tally compaction every minute, log retention hourly, appointment reminders and reservation expiry every minute", () => {
    expect(EMBEDDED_JOBS.map((j) => [j.id, j.everyMs])).toEqual([
      ["pharmacy-status-check", 300_000],
      ["pharmacy-order-tally-compaction", 60_000],
      ["webhook-log-retention", 3_600_000],
      ["appointment-reminders", 60_000],
      ["reservation-expiry", 60_000],
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
    expect(result).toEqual({ checked: 1, completed: 1, cancelled: 0, open: 0, unknown: 0, blocked: 0, skipped: 0, failed: 0, more: false });
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrderId } })).status).toBe("completed");
    const again = await new InngestTestEngine({ function: pharmacyStatusCheck }).execute();
    expect(again.result).toMatchObject({ checked: 0, completed: 0 });
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
