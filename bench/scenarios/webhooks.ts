import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { createApiKey } from "@/server/auth/api-keys";
import type { Db } from "@/server/db/client";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { cpuBetween, type CpuSample, type CpuUse } from "../cpu";
import { closedPort } from "@/tests/webhook-receiver";
import { seedOrders } from "./orders";

/**
 * The webhooks scenario: pharmacy order status changes (PATCH …/pharmacy_orders/{uid}/status through
 * the server) fanned out by the server's embedded webhook runner to SUBSCRIPTIONS pharmacy-scoped
 * pharmacy_order_updated subscriptions, each with its own receiver on 127.0.0.1 started by the bench.
 *
 * Load is open loop: each step sends `rate` PATCH/s for --seconds (BENCH_WEBHOOK_RATES, default
 * 20,50,100), then waits until every delivery arrived or WAIT_MS passed. The first step the server
 * does not keep up with (deliveries not drained within WAIT_MS, a PATCH not answered 200, or PATCHes
 * answered at under 90 % of the offered rate) is the last: its delivery rate is the capacity. Every order
 * is changed once in the whole run, so (receiver, data.uid) names exactly one delivery and one outbox
 * event. After the server stopped, the bench reads each delivery's OutboxEvent.createdAt (set inside
 * the committing transaction: a lower bound of the commit time), so "commit → arrival" is an upper
 * bound of the true figure by at most the rest of that transaction (a few ms).
 *
 * BENCH_WEBHOOK_RECEIVERS=ports (default): one HTTP server per subscription, 10 origins, as 10
 * integrators would be; =paths: one server, 10 paths. BENCH_WEBHOOK_RECEIVER_DELAY_MS delays each
 * answer (default 0). The receivers share the bench process with the load generator.
 */
const SUBSCRIPTIONS = 10;
const RATES = (process.env.BENCH_WEBHOOK_RATES ?? "20,50,100").split(",").map(Number);
const RECEIVERS: "ports" | "paths" = process.env.BENCH_WEBHOOK_RECEIVERS === "paths" ? "paths" : "ports";
const RECEIVER_DELAY_MS = Number(process.env.BENCH_WEBHOOK_RECEIVER_DELAY_MS ?? 0);
/** After a step's last PATCH answered: wait this long for its deliveries. */
const WAIT_MS = 30_000;
/** A step that did not drain in WAIT_MS: wait this much longer before the run ends, so late arrivals are counted. */
const BACKLOG_MS = 120_000;
/**
 * The dead-targets comparison (issue 12), after the steps: the step's subscriptions are deleted, then
 * `changes` PATCHes at `rate`/s with one healthy receiver alone, then as many with `dead` more
 * subscriptions whose target is a closed port on 127.0.0.1 (connection refused). Reported per case:
 * the healthy receiver's deliveries by the end of the burst and in all, its PATCH-sent → arrival
 * p50/p95/max, and the server's and PostgreSQL's CPU during the burst and in the `afterS` seconds
 * after its last delivery (the dead targets' first retries, ~10 s after their first attempts, fall
 * in that window). BENCH_WEBHOOK_DEAD=0 skips it.
 */
const DEAD_TARGETS = { dead: Number(process.env.BENCH_WEBHOOK_DEAD ?? 10), changes: 200, rate: 20, afterS: 30 };
/** Unmeasured first step: loads the routes and warms the JIT. */
const WARMUP = { rate: 10, seconds: 2 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const max = (values: number[]) => values.reduce((m, v) => (v > m ? v : m), -Infinity);
const min = (values: number[]) => values.reduce((m, v) => (v < m ? v : m), Infinity);

export async function seedWebhooks(db: Db, seconds: number) {
  const needed =
    WARMUP.rate * WARMUP.seconds + RATES.reduce((sum, rate) => sum + Math.round(rate * seconds), 0) + 2 * DEAD_TARGETS.changes;
  // About 46 % of the seeded orders are at pharmacy A and neither completed nor cancelled.
  const ctx = await seedOrders(db, { orders: Math.max(1_000, Math.ceil(needed / 0.4)), label: "webhooks" });
  const usable = ctx.ordersAtPharmacyA
    .filter((o) => o.status !== PHARMACY_ORDER_STATUS.completed && o.status !== PHARMACY_ORDER_STATUS.cancelled)
    .sort(() => Math.random() - 0.5);
  if (usable.length < needed) throw new Error(`webhooks: ${usable.length} changeable orders seeded, ${needed} needed`);
  const key = await createApiKey({
    family: "PHARMACY",
    displayName: "bench webhooks",
    permissions: ["orders_read", "orders_write", "webhooks_read", "webhooks_write"],
    organisationId: ctx.organisationId,
    pharmacyId: ctx.pharmacyId,
  });
  // Each order changes once: to in-progress, or from in-progress to pending review.
  const changes = usable.slice(0, needed).map((o) => ({
    uid: o.id,
    status: o.status === PHARMACY_ORDER_STATUS.inProgress ? PHARMACY_ORDER_STATUS.pendingReview : PHARMACY_ORDER_STATUS.inProgress,
  }));
  return { pharmacyKey: key.plaintext, pharmacyId: ctx.pharmacyId, changes, orderCount: ctx.orderCount, seedMs: ctx.seedMs };
}

export type WebhooksContext = Awaited<ReturnType<typeof seedWebhooks>>;

type Arrival = { sub: number; uid: string | null; event: string | undefined; hex64: boolean; signed: boolean; at: number };
type Patch = { uid: string; step: number; sentAt: number; answeredAt: number; status: number; error?: string };
type Step = { rate: number; seconds: number; sends: number; drainedAt: number | null; lastAnsweredAt: number; maxInFlight: number; cpu: CpuUse };

/** SUBSCRIPTIONS receivers: one server each (ports) or one server with SUBSCRIPTIONS paths. Records every request. */
async function startReceivers(onArrival: (arrival: Arrival) => void) {
  const arrivals: Arrival[] = [];
  const secrets: string[] = [];
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const servers: Server[] = [];
  const listen = async () => {
    const server = createServer((req, res) => {
      const origin = req.headers.host ?? "?";
      const now = (inFlight.get(origin) ?? 0) + 1;
      inFlight.set(origin, now);
      if (now > (maxInFlight.get(origin) ?? 0)) maxInFlight.set(origin, now);
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = Date.now();
        const raw = Buffer.concat(chunks);
        const sub = Number(/^\/hook\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
        let uid: string | null = null;
        try {
          uid = JSON.parse(raw.toString("utf8"))?.data?.uid ?? null;
        } catch {
          // not JSON: counted as unexpected
        }
        const signature = String(req.headers["x-webhook-signature"] ?? "");
        const secret = secrets[sub];
        const signed = secret !== undefined && signature === createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("hex");
        const arrival = { sub, uid, event: req.headers["x-webhook-event"] as string | undefined, hex64: /^[0-9a-f]{64}$/.test(signature), signed, at };
        arrivals.push(arrival);
        onArrival(arrival);
        const answer = () => {
          inFlight.set(origin, (inFlight.get(origin) ?? 1) - 1);
          res.writeHead(200, { "content-type": "text/plain" }).end("ok");
        };
        if (RECEIVER_DELAY_MS > 0) setTimeout(answer, RECEIVER_DELAY_MS);
        else answer();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const targets: string[] = [];
  const shared = RECEIVERS === "paths" ? await listen() : null;
  for (let i = 0; i < SUBSCRIPTIONS; i++) targets.push(`${shared ?? (await listen())}/hook/${i}`);
  return {
    targets,
    secrets,
    arrivals,
    maxInFlight,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ),
  };
}

/** Sends `changes` as PATCHes at `rate` per second, open loop (a late timer sends the overdue ones at once). */
async function drive(url: string, key: string, changes: WebhooksContext["changes"], rate: number, step: number): Promise<Patch[]> {
  const patches: Patch[] = [];
  const answered: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < changes.length; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(wait);
    const { uid, status } = changes[i];
    const patch: Patch = { uid, step, sentAt: Date.now(), answeredAt: NaN, status: 0 };
    patches.push(patch);
    answered.push(
      fetch(`${url}/v1/external_pharmacy_api/pharmacy_orders/${uid}/status`, {
        method: "PATCH",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ status }),
      })
        .then(async (r) => {
          const body = await r.text();
          patch.status = r.status;
          if (r.status !== 200) patch.error = body.slice(0, 200);
        })
        .catch((error: Error) => {
          patch.error = `${error.message}${error.cause ? `: ${String(error.cause)}` : ""}`;
        })
        .finally(() => {
          patch.answeredAt = Date.now();
        }),
    );
  }
  await Promise.all(answered);
  return patches;
}

/** Registers the subscriptions through the API and runs the steps against a running server. */
export async function runWebhooks(
  url: string,
  ctx: WebhooksContext,
  seconds: number,
  sampleCpu: () => CpuSample,
  log: (line: string) => void,
) {
  const stepOf = new Map<string, number>();
  /** Per step: distinct (receiver, uid) pairs arrived, and the last arrival. */
  const arrivedOf = new Map<number, { keys: Set<string>; last: number }>();
  const subscriptionUids: string[] = [];
  const receivers = await startReceivers((a) => {
    const index = a.uid === null ? undefined : stepOf.get(a.uid);
    if (index === undefined) return;
    const entry = arrivedOf.get(index)!;
    entry.keys.add(`${a.sub}|${a.uid}`);
    entry.last = Math.max(entry.last, a.at);
  });
  try {
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const r = await fetch(`${url}/v1/external_pharmacy_api/webhooks/`, {
        method: "POST",
        headers: { "x-api-key": ctx.pharmacyKey, "content-type": "application/json" },
        body: JSON.stringify({ notification_type: "pharmacy_order_updated", target: receivers.targets[i], pharmacy_uid: ctx.pharmacyId }),
      });
      const body = (await r.json()) as { webhook_secret?: string; uid?: string };
      if (r.status !== 201 || !body.webhook_secret) throw new Error(`registering ${receivers.targets[i]}: HTTP ${r.status} ${JSON.stringify(body)}`);
      receivers.secrets[i] = body.webhook_secret;
      subscriptionUids.push(body.uid!);
    }
    const origins = new Set(receivers.targets.map((t) => new URL(t).origin)).size;
    log(`webhooks: ${SUBSCRIPTIONS} subscriptions on ${origins} receiver origin(s) (${RECEIVERS}), receiver delay ${RECEIVER_DELAY_MS} ms`);

    const plan = [{ ...WARMUP, warmup: true }, ...RATES.map((rate) => ({ rate, seconds, warmup: false }))];
    const patches: Patch[] = [];
    const steps: Step[] = [];
    let next = 0;
    for (const [index, { rate, seconds: s, warmup }] of plan.entries()) {
      const changes = ctx.changes.slice(next, next + Math.round(rate * s));
      next += changes.length;
      for (const c of changes) stepOf.set(c.uid, index);
      const arrived = { keys: new Set<string>(), last: 0 };
      arrivedOf.set(index, arrived);
      receivers.maxInFlight.clear();
      const cpuBefore = sampleCpu();
      const sent = await drive(url, ctx.pharmacyKey, changes, rate, index);
      patches.push(...sent);
      const lastAnsweredAt = max(sent.map((p) => p.answeredAt));
      const expected = sent.filter((p) => p.status === 200).length * SUBSCRIPTIONS;
      const distinct = () => arrived.keys.size;
      while (distinct() < expected && Date.now() - lastAnsweredAt < WAIT_MS) await sleep(20);
      const drained = distinct() >= expected;
      const drainedAt = drained ? arrived.last : null;
      const step: Step = { rate, seconds: s, sends: sent.length, drainedAt, lastAnsweredAt, maxInFlight: 0, cpu: cpuBetween(cpuBefore, cpuBefore) };
      const ok = sent.filter((p) => p.status === 200).length;
      const failed = new Map<number, { n: number; sample: string }>();
      for (const p of sent.filter((p) => p.status !== 200)) {
        const entry = failed.get(p.status) ?? { n: 0, sample: p.error ?? "" };
        entry.n++;
        failed.set(p.status, entry);
      }
      for (const [status, { n, sample }] of failed) log(`webhooks:   PATCH ${status === 0 ? "no answer" : `HTTP ${status}`}: ${n} (first: ${sample})`);
      log(
        `webhooks: ${warmup ? "warm-up " : ""}${rate} PATCH/s × ${s} s: ${ok}/${sent.length} answered 200, ` +
          `${distinct()}/${expected} deliveries ` +
          (!drained
            ? `after ${WAIT_MS / 1000} s`
            : drainedAt! < lastAnsweredAt
              ? "all arrived before the last PATCH was answered"
              : `all arrived ${((drainedAt! - lastAnsweredAt) / 1000).toFixed(1)} s after the last PATCH was answered`),
      );
      // Kept up: every PATCH answered 200, at ≥ 90 % of the offered rate, and the deliveries drained in WAIT_MS.
      const patchRate = ok / ((lastAnsweredAt - min(sent.map((p) => p.sentAt))) / 1000);
      const keptUp = drained && ok === sent.length && patchRate >= 0.9 * rate;
      if (!drained) {
        // Saturated: let the backlog arrive (counted for this step), then stop raising the rate.
        const until = Date.now() + BACKLOG_MS;
        while (distinct() < expected && Date.now() < until) await sleep(100);
        log(`webhooks: backlog: ${distinct()}/${expected} after ${((Date.now() - lastAnsweredAt) / 1000).toFixed(0)} s; no higher rates`);
      }
      step.maxInFlight = Math.max(0, ...receivers.maxInFlight.values());
      step.cpu = cpuBetween(cpuBefore, sampleCpu());
      if (!warmup) steps.push(step);
      if (!warmup && !keptUp) {
        if (drained) log(`webhooks: the server did not keep up with ${rate} PATCH/s (${patchRate.toFixed(1)} PATCH/s answered 200); no higher rates`);
        break;
      }
    }
    await sleep(1_000); // a duplicate would arrive right after its first copy
    let deadTargets: DeadTargetRow[] = [];
    if (DEAD_TARGETS.dead > 0) {
      for (const uid of subscriptionUids) {
        await fetch(`${url}/v1/external_pharmacy_api/webhooks/${uid}`, { method: "DELETE", headers: { "x-api-key": ctx.pharmacyKey } });
      }
      deadTargets = await runDeadTargets(url, ctx, ctx.changes.slice(next), sampleCpu, log);
    }
    const measured = new Set(patches.filter((p) => p.step > 0).map((p) => p.uid));
    const unexpected = receivers.arrivals.filter((a) => a.uid === null || !stepOf.has(a.uid) || a.sub < 0).length;
    if (unexpected > 0) log(`webhooks: ${unexpected} requests at the receivers matched no PATCH`);
    return {
      steps,
      patches: patches.filter((p) => p.step > 0),
      arrivals: receivers.arrivals.filter((a) => a.uid === null || measured.has(a.uid) || !stepOf.has(a.uid)),
      targets: receivers.targets,
      origins,
      deadTargets,
    };
  } finally {
    await receivers.close();
  }
}

export type DeadTargetRow = {
  dead: number;
  patches: number;
  byBurstEnd: number;
  delivered: number;
  p50: number;
  p95: number;
  max: number;
  during: CpuUse;
  after: CpuUse;
};

async function register(url: string, key: string, pharmacyId: string, target: string): Promise<string> {
  const r = await fetch(`${url}/v1/external_pharmacy_api/webhooks/`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ notification_type: "pharmacy_order_updated", target, pharmacy_uid: pharmacyId }),
  });
  const body = (await r.json()) as { uid?: string };
  if (r.status !== 201 || !body.uid) throw new Error(`registering ${target}: HTTP ${r.status} ${JSON.stringify(body)}`);
  return body.uid;
}

/** The two cases of DEAD_TARGETS: one healthy receiver alone, then beside `dead` subscriptions to a closed port. */
async function runDeadTargets(
  url: string,
  ctx: WebhooksContext,
  changes: WebhooksContext["changes"],
  sampleCpu: () => CpuSample,
  log: (line: string) => void,
): Promise<DeadTargetRow[]> {
  const arrivedAt = new Map<string, number>();
  const healthy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const uid = JSON.parse(Buffer.concat(chunks).toString("utf8"))?.data?.uid;
        if (typeof uid === "string" && !arrivedAt.has(uid)) arrivedAt.set(uid, Date.now());
      } catch {
        // not JSON: not counted
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => healthy.listen(0, "127.0.0.1", resolve));
  const healthyTarget = `http://127.0.0.1:${(healthy.address() as AddressInfo).port}/healthy`;
  const rows: DeadTargetRow[] = [];
  try {
    await register(url, ctx.pharmacyKey, ctx.pharmacyId, healthyTarget);
    const deadPort = await closedPort();
    let next = 0;
    for (const dead of [0, DEAD_TARGETS.dead]) {
      for (let i = 0; i < dead; i++) {
        await register(url, ctx.pharmacyKey, ctx.pharmacyId, `http://127.0.0.1:${deadPort}/dead/${i}`);
      }
      const batch = changes.slice(next, next + DEAD_TARGETS.changes);
      next += batch.length;
      if (batch.length < DEAD_TARGETS.changes) throw new Error("webhooks: not enough seeded changes for the dead-targets comparison");
      const before = sampleCpu();
      const sent = await drive(url, ctx.pharmacyKey, batch, DEAD_TARGETS.rate, -1);
      const burstEnd = max(sent.map((p) => p.answeredAt));
      const ok = sent.filter((p) => p.status === 200);
      const byBurstEnd = ok.filter((p) => (arrivedAt.get(p.uid) ?? Infinity) <= burstEnd).length;
      while (ok.some((p) => !arrivedAt.has(p.uid)) && Date.now() - burstEnd < WAIT_MS) await sleep(20);
      const drained = sampleCpu();
      await sleep(DEAD_TARGETS.afterS * 1000);
      const after = sampleCpu();
      const latency = ok.filter((p) => arrivedAt.has(p.uid)).map((p) => arrivedAt.get(p.uid)! - p.sentAt);
      const row: DeadTargetRow = {
        dead,
        patches: ok.length,
        byBurstEnd,
        delivered: latency.length,
        p50: percentile(latency, 0.5),
        p95: percentile(latency, 0.95),
        max: max(latency),
        during: cpuBetween(before, drained),
        after: cpuBetween(drained, after),
      };
      rows.push(row);
      log(
        `webhooks: healthy receiver with ${dead} dead targets: ${row.byBurstEnd}/${row.patches} by the burst's end, ${row.delivered} in all, ` +
          `p50 ${row.p50.toFixed(0)} ms, p95 ${row.p95.toFixed(0)} ms; server CPU ${row.during.server.toFixed(2)} during, ${row.after.server.toFixed(2)} in the ${DEAD_TARGETS.afterS} s after`,
      );
    }
  } finally {
    healthy.closeAllConnections();
    await new Promise<void>((resolve) => healthy.close(() => resolve()));
  }
  return rows;
}

export type WebhooksRun = Awaited<ReturnType<typeof runWebhooks>>;

export type WebhookRow = {
  database: string;
  receivers: string;
  rate: number;
  patchRate: number;
  patchErrors: number;
  patchP50: number;
  patchP95: number;
  expected: number;
  delivered: number;
  deliveryRate: number;
  p50: number;
  p95: number;
  p99: number;
  missing: number;
  duplicates: number;
  badSignatures: number;
  drainS: number | null;
  fanOut: [number, number];
  claim: [number, number];
  send: [number, number];
  lowerBound: [number, number];
  upperBound: [number, number];
  failedAttempts: string;
  maxInFlight: number;
  cpu: CpuUse;
  /** CPU of server and PostgreSQL per delivery arrived, its share of the PATCH included. */
  cpuMsPerDelivery: number;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

/**
 * Matches each arrival to its delivery and outbox event in the database (after the server stopped:
 * PGlite allows one process) and computes the figures per step.
 */
export async function analyseWebhooks(db: Db, database: string, run: WebhooksRun): Promise<WebhookRow[]> {
  const uids = JSON.stringify([...new Set(run.patches.map((p) => p.uid))]);
  const rows = await db.$queryRawUnsafe<
    { uid: string; target: string | null; eventAt: number; dispatchedAt: number | null; attemptAt: number | null; state: string | null; attempts: number | null }[]
  >(
    `SELECT e."subjectId" AS "uid", s."target",
            (extract(epoch FROM e."createdAt") * 1000)::float8 AS "eventAt",
            (extract(epoch FROM d."createdAt") * 1000)::float8 AS "dispatchedAt",
            (extract(epoch FROM (SELECT min(a."startedAt") FROM "WebhookAttempt" a WHERE a."deliveryId" = d."id")) * 1000)::float8 AS "attemptAt",
            d."state"::text AS "state", d."attemptCount" AS "attempts"
       FROM "OutboxEvent" e
       LEFT JOIN "WebhookDelivery" d ON d."outboxEventId" = e."id"
       LEFT JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
      WHERE e."eventType" = 'pharmacy_order_updated'
        AND e."subjectId" IN (SELECT jsonb_array_elements_text($1::jsonb))`,
    uids,
  );
  const failures = await db.$queryRawUnsafe<{ uid: string; errorClass: string; errorMessage: string | null; n: number }[]>(
    `SELECT e."subjectId" AS "uid", a."errorClass" AS "errorClass", min(a."errorMessage") AS "errorMessage", count(*)::int AS "n"
       FROM "WebhookAttempt" a
       JOIN "WebhookDelivery" d ON d."id" = a."deliveryId"
       JOIN "OutboxEvent" e ON e."id" = d."outboxEventId"
      WHERE a."errorClass" IS NOT NULL AND e."subjectId" IN (SELECT jsonb_array_elements_text($1::jsonb))
      GROUP BY 1, 2`,
    uids,
  );
  const messages = new Map(failures.map((f) => [f.errorClass, f.errorMessage]));
  for (const [errorClass, message] of messages) console.log(`[${database}] webhooks: failed attempts of class ${errorClass}, e.g. "${message}"`);
  const deliveryOf = new Map(rows.filter((r) => r.target).map((r) => [`${r.target}|${r.uid}`, r]));
  const eventsOf = new Map<string, number>();
  for (const r of rows) eventsOf.set(r.uid, r.eventAt);
  const patchOf = new Map(run.patches.map((p) => [p.uid, p]));

  return run.steps.map((step, s) => {
    const index = s + 1;
    const patches = run.patches.filter((p) => p.step === index);
    const ok = patches.filter((p) => p.status === 200);
    const okUids = new Set(ok.map((p) => p.uid));
    const arrivals = run.arrivals.filter((a) => a.uid !== null && patchOf.get(a.uid)?.step === index);
    const seen = new Map<string, number>();
    for (const a of arrivals) seen.set(`${a.sub}|${a.uid}`, (seen.get(`${a.sub}|${a.uid}`) ?? 0) + 1);
    const expected = ok.length * run.targets.length;
    let missing = 0;
    for (const p of ok) for (let i = 0; i < run.targets.length; i++) if (!seen.has(`${i}|${p.uid}`)) missing++;
    const counted = new Set<string>();
    const firsts = arrivals.filter((a) => !counted.has(`${a.sub}|${a.uid}`) && Boolean(counted.add(`${a.sub}|${a.uid}`)));
    const latency: number[] = [];
    const fanOut: number[] = [];
    const claim: number[] = [];
    const send: number[] = [];
    const lower: number[] = [];
    const upper: number[] = [];
    for (const a of firsts) {
      const patch = patchOf.get(a.uid!)!;
      lower.push(a.at - patch.answeredAt);
      upper.push(a.at - patch.sentAt);
      const d = deliveryOf.get(`${run.targets[a.sub]}|${a.uid}`);
      if (!d) continue;
      latency.push(a.at - d.eventAt);
      if (d.dispatchedAt !== null) fanOut.push(d.dispatchedAt - d.eventAt);
      if (d.dispatchedAt !== null && d.attemptAt !== null) claim.push(d.attemptAt - d.dispatchedAt);
      if (d.attemptAt !== null) send.push(a.at - d.attemptAt);
    }
    const failed = new Map<string, number>();
    for (const f of failures) if (okUids.has(f.uid)) failed.set(f.errorClass, (failed.get(f.errorClass) ?? 0) + f.n);
    const firstSent = min(patches.map((p) => p.sentAt));
    const lastArrival = max(arrivals.map((a) => a.at));
    const pair = (v: number[]): [number, number] => [percentile(v, 0.5), percentile(v, 0.95)];
    return {
      database,
      receivers: `${run.origins} origin${run.origins === 1 ? "" : "s"}`,
      rate: step.rate,
      patchRate: ok.length / ((max(ok.map((p) => p.answeredAt)) - firstSent) / 1000),
      patchErrors: patches.length - ok.length,
      patchP50: percentile(ok.map((p) => p.answeredAt - p.sentAt), 0.5),
      patchP95: percentile(ok.map((p) => p.answeredAt - p.sentAt), 0.95),
      expected,
      delivered: seen.size,
      deliveryRate: seen.size / ((lastArrival - firstSent) / 1000),
      p50: percentile(latency, 0.5),
      p95: percentile(latency, 0.95),
      p99: percentile(latency, 0.99),
      missing,
      duplicates: arrivals.length - seen.size,
      badSignatures: arrivals.filter((a) => !a.hex64 || !a.signed || a.event !== "pharmacy_order_updated").length,
      drainS: step.drainedAt === null ? null : (step.drainedAt - step.lastAnsweredAt) / 1000,
      fanOut: pair(fanOut),
      claim: pair(claim),
      send: pair(send),
      lowerBound: pair(lower),
      upperBound: pair(upper),
      failedAttempts: failed.size ? [...failed].map(([c, n]) => `${c} ${n}`).join(", ") : "0",
      maxInFlight: step.maxInFlight,
      cpu: step.cpu,
      cpuMsPerDelivery: ((step.cpu.server + (Number.isNaN(step.cpu.postgres) ? 0 : step.cpu.postgres)) * step.cpu.seconds * 1000) / seen.size,
    };
  });
}

export function printDeadTargetTable(rows: (DeadTargetRow & { database: string })[]) {
  if (rows.length === 0) return;
  // A negative figure: a PostgreSQL backend ended within the window and took its CPU time with it.
  const c = (n: number) => (Number.isFinite(n) && n >= 0 ? n.toFixed(2) : "—");
  console.log(
    `\nOne healthy receiver alone, then beside dead targets (subscriptions to a closed port on 127.0.0.1): ${DEAD_TARGETS.changes} PATCH/status at ` +
      `${DEAD_TARGETS.rate}/s each; latency from PATCH sent to the healthy receiver's arrival; CPU in cores during the burst (until the healthy receiver had all) and in the ${DEAD_TARGETS.afterS} s after\n`,
  );
  console.log("| Database | dead targets | healthy by burst end | healthy delivered | p50 ms | p95 ms | max ms | server CPU during | server CPU after | PostgreSQL CPU after |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.database} | ${r.dead} | ${r.byBurstEnd}/${r.patches} | ${r.delivered}/${r.patches} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} | ` +
        `${c(r.during.server)} | ${c(r.after.server)} | ${c(r.after.postgres)} |`,
    );
  }
}

export function printWebhookTables(rows: WebhookRow[], seconds: number) {
  if (rows.length === 0) return;
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "—");
  const pair = ([a, b]: [number, number]) => `${f(a)} / ${f(b)}`;
  console.log(
    `\nWebhooks: open-loop PATCH …/pharmacy_orders/{uid}/status for ${seconds} s per rate, each fanned out to ${SUBSCRIPTIONS} ` +
      `pharmacy_order_updated subscriptions (receivers on 127.0.0.1 in the bench process, ${RECEIVERS}); latency from OutboxEvent.createdAt ` +
      `(in the committing transaction) to the receiver's arrival\n`,
  );
  console.log("| Database | receivers | offered PATCH/s | PATCH/s answered 200 | PATCH errors | PATCH p50 / p95 ms | deliveries | delivered/s | p50 ms | p95 ms | p99 ms | missing | duplicate | bad signature | drained after last PATCH |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.database} | ${r.receivers} | ${r.rate} | ${f(r.patchRate)} | ${r.patchErrors} | ${pair([r.patchP50, r.patchP95])} | ${r.delivered}/${r.expected} | ${f(r.deliveryRate)} | ` +
        `${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.missing} | ${r.duplicates} | ${r.badSignatures} | ${r.drainS === null ? `not within ${WAIT_MS / 1000} s` : r.drainS < 0 ? "before the last PATCH answered" : `${r.drainS.toFixed(1)} s`} |`,
    );
  }
  console.log("\nWhere the time goes (p50 / p95 ms): commit → fan-out (OutboxEvent.createdAt → WebhookDelivery.createdAt), fan-out → attempt start (claim), attempt start → arrival (load, build, sign, POST); bounds from the load generator's clock\n");
  console.log("| Database | offered PATCH/s | commit → fan-out | fan-out → attempt | attempt → arrival | arrival − PATCH answered (lower bound) | arrival − PATCH sent (upper bound) | failed attempts | max in flight at one receiver origin |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const r of rows) {
    // With an immediate answer the receiver holds a request for no time, so the count says nothing then.
    const inFlight = RECEIVER_DELAY_MS > 0 ? String(r.maxInFlight) : "—";
    console.log(
      `| ${r.database} | ${r.rate} | ${pair(r.fanOut)} | ${pair(r.claim)} | ${pair(r.send)} | ${pair(r.lowerBound)} | ${pair(r.upperBound)} | ${r.failedAttempts} | ${inFlight} |`,
    );
  }
  const c = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "—");
  console.log(`\nCPU from each step's first PATCH until its last delivery arrived, in cores (of ${os.cpus().length}); "other" is every other process on the machine\n`);
  console.log("| Database | offered PATCH/s | window s | server | PostgreSQL | bench (load + receivers) | other | idle | server + PostgreSQL CPU ms per delivery |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const u = r.cpu;
    console.log(
      `| ${r.database} | ${r.rate} | ${u.seconds.toFixed(0)} | ${c(u.server)} | ${c(u.postgres)} | ${c(u.bench)} | ${c(u.other)} | ${c(u.idle)} | ${r.cpuMsPerDelivery.toFixed(1)} |`,
    );
  }
}
