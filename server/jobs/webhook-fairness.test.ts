/**
 * Issue 12: a failing target's waiting and retrying costs healthy targets nothing. The retry
 * schedule itself is covered in webhook-delivery.test.ts; here: fairness of the claim, the runner's
 * idleness, the refused-connection probe and the "keeps failing" health.
 */
import { createServer } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reloadConfig } from "@/server/config";
import { recordEvent } from "@/server/domain/events/outbox";
import {
  claimDelivery,
  claimDueDeliveries,
  performClaimedAttempt,
  performUnreachableAttempts,
  targetOrigin,
} from "@/server/domain/webhooks/deliver-attempt";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { FAILING_MIN_FAILURES, pharmacyTargetHealth, targetHealthState } from "@/server/domain/webhooks/target-health";
import { log } from "@/server/log";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { sleep, until, useEnv } from "@/tests/wait";
import { closedPort, startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { WebhookRunner } from "./webhook-runner";

useEnv({
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  // Retries far off: what is measured is the first attempts, and an idle runner between retries.
  WEBHOOK_RETRY_BASE_MS: "60000",
  WEBHOOK_RETRY_MAX_MS: "60000",
  WEBHOOK_TIMEOUT_MS: "2500",
  WEBHOOK_TARGET_CONCURRENCY: "2",
  // Small, so that a claim that looked only at the oldest due rows overall would see dead ones only.
  WEBHOOK_CONCURRENCY: "4",
});

let t: Tenant;
let healthy: Receiver;
let runners: WebhookRunner[] = [];

async function subscribe(target: string) {
  return t.db.webhookSubscription.create({
    data: {
      organisationId: t.organisation.id,
      scope: "PHARMACY",
      pharmacyId: t.pharmacy.id,
      notificationType: "pharmacy_sku_stock_updated",
      target,
      secretEncrypted: sealSecret(`whsec_${target}`),
    },
  });
}

async function stockEvents(n: number) {
  for (let i = 0; i < n; i++) {
    await t.db.$transaction((tx) =>
      recordEvent(tx, { type: "pharmacy_sku_stock_updated", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, subjectId: t.pharmacySku.id }),
    );
  }
}

async function startRunner() {
  const runner = new WebhookRunner({ deliver: true });
  runners.push(runner);
  await runner.start();
  return runner;
}

beforeEach(async () => {
  t = await createTenant();
  healthy = await startReceiver();
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
  await healthy.close();
  vi.restoreAllMocks();
  await t.db.webhookDelivery.updateMany({ where: { state: "PENDING" }, data: { state: "FAILED" } });
  await t.db.outboxEvent.updateMany({ where: { dispatchedAt: null }, data: { dispatchedAt: new Date() } });
  await t.db.webhookSubscription.updateMany({ where: { deletedAt: null }, data: { deletedAt: new Date() } });
});

describe("fairness between targets", () => {
  it("offers every subscription's due deliveries to the claim, however long another target's backlog", async () => {
    const port = await closedPort();
    const dead = [];
    for (let i = 0; i < 10; i++) dead.push(await subscribe(`http://127.0.0.1:${port}/dead/${i}`));
    await stockEvents(30);
    await dispatchOutboxEvents();
    // Only now the healthy subscription: its delivery is the newest due, behind 300 dead ones.
    const ok = await subscribe(`${healthy.url}/ok`);
    await stockEvents(1);
    await dispatchOutboxEvents();
    await t.db.$executeRaw`UPDATE "WebhookDelivery" SET "nextAttemptAt" = now() - interval '1 minute' WHERE "subscriptionId" <> ${ok.id}`;
    expect(await t.db.webhookDelivery.count({ where: { state: "PENDING" } })).toBe(311);

    const perOrigin = new Map<string, number>();
    const { claimed, refused } = await claimDueDeliveries({
      perSubscription: 2,
      skip: [],
      admit: (c) => {
        const origin = targetOrigin(c.target);
        const n = perOrigin.get(origin) ?? 0;
        perOrigin.set(origin, n + 1);
        return n < 2;
      },
    });
    expect(claimed.filter((c) => c.subscriptionId === ok.id)).toHaveLength(1);
    expect(claimed.filter((c) => c.subscriptionId !== ok.id)).toHaveLength(2);
    // Two due deliveries of each dead subscription were offered; all but the two taken were left.
    expect(refused).toBe(18);

    // Subscriptions the caller has no room for are not even looked at.
    const skipped = await claimDueDeliveries({ perSubscription: 2, skip: dead.map((d) => d.id), admit: () => true });
    expect(skipped).toEqual({ claimed: [], refused: 0 });
  });

  it("delivers to a healthy target promptly while ten dead targets fail beside it", async () => {
    const port = await closedPort();
    const deadIds: string[] = [];
    for (let i = 0; i < 10; i++) deadIds.push((await subscribe(`http://127.0.0.1:${port}/dead/${i}`)).id);
    const ok = await subscribe(`${healthy.url}/ok`);
    await startRunner();
    await stockEvents(20);
    await healthy.waitFor(20, 60_000);

    // Every healthy delivery succeeded at its first attempt ...
    await until(async () => (await t.db.webhookDelivery.count({ where: { subscriptionId: ok.id, state: "PENDING" } })) === 0);
    const mine = await t.db.webhookDelivery.findMany({ where: { subscriptionId: ok.id } });
    expect(mine.map((d) => `${d.state} ${d.attemptCount}`)).toEqual(Array(20).fill("SUCCEEDED 1"));
    // The dead targets' 200 first attempts were made, mostly in batches (one probe and one statement
    // for up to 25 attempts to the refusing origin; the claim itself is tested above).
    const ofDead = { delivery: { subscriptionId: { in: deadIds } } };
    await until(async () => (await t.db.webhookAttempt.count({ where: ofDead })) === 200, 60_000, 100);
    const deadAttempts = await t.db.webhookAttempt.findMany({ where: ofDead, select: { startedAt: true, errorClass: true } });
    expect(deadAttempts.every((a) => a.errorClass === "connection")).toBe(true);
    expect(new Set(deadAttempts.map((a) => a.startedAt.getTime())).size).toBeLessThan(100);
    // Each dead delivery made exactly one attempt and waits for its retry, a minute later.
    const dead = await t.db.webhookDelivery.findMany({ where: { subscriptionId: { in: deadIds } } });
    expect(dead).toHaveLength(200);
    expect(dead.every((d) => d.state === "PENDING" && d.attemptCount === 1 && d.nextAttemptAt!.getTime() > Date.now() + 30_000)).toBe(true);
  });

  it("gives each subscription its own slots: a slow endpoint does not hold back another one on the same host (issue 36)", async () => {
    const overrides = { WEBHOOK_SUBSCRIPTION_CONCURRENCY: "2", WEBHOOK_TARGET_CONCURRENCY: "4", WEBHOOK_TIMEOUT_MS: "60000" };
    const before = Object.fromEntries(Object.keys(overrides).map((k) => [k, process.env[k]]));
    Object.assign(process.env, overrides);
    reloadConfig();
    const held: import("node:http").ServerResponse[] = [];
    healthy.respondWith((r, res) => {
      if (r.path.startsWith("/slow")) held.push(res);
      else res.writeHead(200).end("ok");
    });
    try {
      const slow = await subscribe(`${healthy.url}/slow`);
      const fast = await subscribe(`${healthy.url}/fast`);
      await startRunner();
      await stockEvents(8);
      // Every delivery to /fast arrives while /slow's first attempts are still unanswered (they would
      // time out only after a minute): /slow holds two slots, never the origin's four.
      await until(async () => (await t.db.webhookDelivery.count({ where: { subscriptionId: fast.id, state: "SUCCEEDED" } })) === 8, 30_000, 50);
      expect(held.length).toBe(2);
      expect(await t.db.webhookDelivery.count({ where: { subscriptionId: slow.id, state: "SUCCEEDED" } })).toBe(0);
    } finally {
      for (const res of held) res.writeHead(200).end("ok");
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      reloadConfig();
    }
  });

  it("does not spin while due deliveries wait for a slot, and idles when nothing is due", async () => {
    const silent = await startReceiver(() => undefined); // holds every request until the timeout
    try {
      await subscribe(`${silent.url}/silent`);
      const runner = await startRunner();
      await stockEvents(6); // six due deliveries, two slots
      await silent.waitFor(2, 10_000);
      const before = runner.passes;
      await sleep(1_500); // both slots held; four deliveries due and waiting
      expect(silent.received).toHaveLength(2);
      // The poll (once a second) and nothing else; a runner that looked again every few ms would make hundreds.
      expect(runner.passes - before).toBeLessThanOrEqual(4);

      // All six attempted (timed out), their retries a minute away: nothing due, the runner idles.
      await until(async () => (await t.db.webhookAttempt.count({ where: { errorClass: "timeout" } })) === 6, 30_000, 100);
      const idle = runner.passes;
      await sleep(2_000);
      expect(runner.passes - idle).toBeLessThanOrEqual(4);
    } finally {
      await silent.close();
    }
  });
});

describe("a target that refuses connections", () => {
  it("is probed with a bare connection first, so a refused attempt builds no payload; once it accepts, the payload is built and sent", async () => {
    const port = await closedPort();
    const sub = await subscribe(`http://127.0.0.1:${port}/hook`);
    await stockEvents(1);
    const [delivery] = (await dispatchOutboxEvents()).deliveries;
    let builds = 0;
    const build = async () => ({ n: ++builds });
    const attempt = async () => {
      await t.db.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
      return performClaimedAttempt((await claimDelivery(delivery.id))!, build);
    };

    expect((await attempt()).outcome).toMatchObject({ ok: false, errorClass: "connection" });
    expect(builds).toBe(1); // not yet known to refuse: built and posted
    const second = await attempt();
    expect(second.outcome.errorMessage).toContain("ECONNREFUSED");
    expect(builds).toBe(1); // refused again: no payload
    const attempts = await t.db.webhookAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { attemptNumber: "asc" } });
    expect(attempts.map((a) => [a.attemptNumber, a.errorClass, a.requestBytes === null])).toEqual([
      [1, "connection", false],
      [2, "connection", true],
    ]);

    const back = createServer((_req, res) => void res.writeHead(200).end());
    await new Promise<void>((resolve) => back.listen(port, "127.0.0.1", resolve));
    try {
      expect((await attempt()).state).toBe("SUCCEEDED");
      expect(builds).toBe(2);
    } finally {
      back.closeAllConnections();
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
    expect(await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ failuresSinceSuccess: 0 });
  });
});

describe("attempts to a target that refused its latest connection", () => {
  it("are made together: one probe, every attempt recorded with its retry, no payload; a deleted subscription's delivery just ends", async () => {
    const port = await closedPort();
    const subs = [await subscribe(`http://127.0.0.1:${port}/a`), await subscribe(`http://127.0.0.1:${port}/b`)];
    await stockEvents(2);
    const { deliveries } = await dispatchOutboxEvents();
    expect(deliveries).toHaveLength(4);
    let builds = 0;
    const build = async () => ({ n: ++builds });
    // The first attempt (one of /a's: the dispatch order is the database's) learns that the origin refuses.
    const probe = deliveries.find((d) => d.target.endsWith("/a"))!;
    await performClaimedAttempt((await claimDelivery(probe.id))!, build);
    expect(builds).toBe(1);
    await t.db.webhookSubscription.update({ where: { id: subs[1].id }, data: { deletedAt: new Date() } });

    const claimed = [];
    for (const d of deliveries.filter((d) => d !== probe)) claimed.push((await claimDelivery(d.id))!);
    const results = await performUnreachableAttempts(claimed, build);
    expect(builds).toBe(1);
    expect(results.map((r) => r.state).sort()).toEqual(["FAILED", "FAILED", "PENDING"]);
    const rows = await t.db.webhookDelivery.findMany({ where: { id: { in: claimed.map((c) => c.deliveryId) } }, include: { attempts: true } });
    for (const row of rows) {
      expect(row.attempts).toHaveLength(1);
      if (row.subscriptionId === subs[1].id) {
        expect([row.state, row.attempts[0].errorClass]).toEqual(["FAILED", "subscription_deleted"]);
      } else {
        expect([row.state, row.attempts[0].errorClass, row.attempts[0].requestBytes]).toEqual(["PENDING", "connection", null]);
        expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
      }
    }
    expect(await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: subs[0].id } })).toMatchObject({ failuresSinceSuccess: 2 });
  });
});

describe("target health", () => {
  it("says which targets keep failing, and warns once an hour per subscription", async () => {
    const warn = vi.spyOn(log, "warn");
    const port = await closedPort();
    const dead = await subscribe(`http://127.0.0.1:${port}/dead`);
    // Registered two hours ago: its failures span more than the hour the rule asks for.
    await t.db.webhookSubscription.update({ where: { id: dead.id }, data: { createdAt: new Date(Date.now() - 2 * 60 * 60_000) } });
    const young = await subscribe(`http://127.0.0.1:${port}/young`);
    const ok = await subscribe(`${healthy.url}/ok`);
    await stockEvents(FAILING_MIN_FAILURES);
    const { deliveries } = await dispatchOutboxEvents();
    const build = async () => ({});
    for (const d of deliveries) await performClaimedAttempt((await claimDelivery(d.id))!, build);

    const health = await pharmacyTargetHealth([t.pharmacy.id]);
    // Just registered, the same failures are recent failures, not a target that keeps failing.
    expect(health.map((h) => [h.subscriptionId, h.state, h.failuresSinceSuccess])).toEqual([
      [dead.id, "failing", FAILING_MIN_FAILURES],
      [young.id, "recovering", FAILING_MIN_FAILURES],
      [ok.id, "healthy", 0],
    ]);
    expect(health[0].lastFailureAt).not.toBeNull();
    const warnings = () => warn.mock.calls.filter(([message]) => message.startsWith("webhook target keeps failing"));
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0][1]).toMatchObject({ subscriptionId: dead.id, origin: `http://127.0.0.1:${port}`, failuresSinceSuccess: FAILING_MIN_FAILURES });

    // An hour later, still failing: one more warning.
    await t.db.webhookSubscription.update({ where: { id: dead.id }, data: { failingWarnedAt: new Date(Date.now() - 61 * 60_000) } });
    await stockEvents(1);
    const [next] = (await dispatchOutboxEvents()).deliveries.filter((d) => d.target.includes("/dead"));
    await performClaimedAttempt((await claimDelivery(next.id))!, build);
    expect(warnings()).toHaveLength(2);
  });

  it("calls a target failing only after enough failed attempts and an hour without success", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 60 * 60_000);
    const secondsAgo = (s: number) => new Date(now.getTime() - s * 1000);
    const old = hoursAgo(48);
    expect(targetHealthState({ createdAt: old, lastSuccessAt: null, lastFailureAt: null, failuresSinceSuccess: 0 }, now)).toBe("unknown");
    expect(targetHealthState({ createdAt: old, lastSuccessAt: hoursAgo(1), lastFailureAt: null, failuresSinceSuccess: 0 }, now)).toBe("healthy");
    // One failure ten seconds after registering (issue 22): recent failures, not "keeps failing".
    expect(targetHealthState({ createdAt: secondsAgo(10), lastSuccessAt: null, lastFailureAt: now, failuresSinceSuccess: 1 }, now)).toBe("recovering");
    // Many failures, but only minutes since registering or since the last success.
    expect(targetHealthState({ createdAt: secondsAgo(300), lastSuccessAt: null, lastFailureAt: now, failuresSinceSuccess: 40 }, now)).toBe("recovering");
    expect(targetHealthState({ createdAt: old, lastSuccessAt: secondsAgo(300), lastFailureAt: now, failuresSinceSuccess: 40 }, now)).toBe("recovering");
    // Long enough, but too few failures.
    expect(targetHealthState({ createdAt: old, lastSuccessAt: hoursAgo(25), lastFailureAt: hoursAgo(1), failuresSinceSuccess: FAILING_MIN_FAILURES - 1 }, now)).toBe("recovering");
    // Enough failures and an hour or more without success: since the last success, or since registering.
    expect(targetHealthState({ createdAt: old, lastSuccessAt: hoursAgo(2), lastFailureAt: hoursAgo(1), failuresSinceSuccess: FAILING_MIN_FAILURES }, now)).toBe("failing");
    expect(targetHealthState({ createdAt: hoursAgo(1), lastSuccessAt: null, lastFailureAt: now, failuresSinceSuccess: FAILING_MIN_FAILURES }, now)).toBe("failing");
  });
});
