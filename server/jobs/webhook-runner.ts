import { buildWebhookData } from "@/server/api/webhooks/payloads";
import { config } from "@/server/config";
import {
  claimDueDeliveries,
  performClaimedAttempt,
  performUnreachableAttempts,
  sharedDataBuilder,
  targetOrigin,
  type ClaimedAttempt,
} from "@/server/domain/webhooks/deliver-attempt";
import { msUntilNextDeliveryDue } from "@/server/domain/webhooks/delivery-state";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { knownUnreachable } from "@/server/http/webhook-sender";
import { log } from "@/server/log";
import { PollingRunner } from "./polling-runner";
import { jobsProvider } from "./provider";

/** Fallback poll: catches other processes' re-sends and any notification missed while reconnecting. */
const POLL_MS = 1_000;
const OUTBOX_CHANNEL = "rx_outbox";
/** Attempts to an origin that refused its latest connection, made together in one slot (performUnreachableAttempts). */
const UNREACHABLE_BATCH = 50;
/**
 * Such an origin's due deliveries are gathered for this long between batches: in between, the claim
 * does not even look at its subscriptions (no rows read or locked for a target that refuses).
 */
const UNREACHABLE_GATHER_MS = 250;

export type WebhookRunnerOptions = {
  /** Make the attempts in this process (embedded mode); false with Inngest, which then only needs the fan-out. */
  deliver: boolean;
  /** Called with the ids of new deliveries (Inngest mode: announce them). */
  onDispatched?: (deliveryIds: string[]) => Promise<void>;
};

/**
 * The embedded webhook runner: wakes when an outbox event commits (PostgreSQL NOTIFY from a trigger,
 * delivered at commit, in every listening process; PGlite the same in-process), fans events out into
 * deliveries, claims due deliveries with FOR UPDATE SKIP LOCKED and makes their attempts
 * concurrently. The state is all in the database, so a killed process loses nothing: its claimed
 * attempts become due again when their lease runs out, and the next process picks them up. Stopping
 * waits for the attempts in flight (each ends within the delivery timeout).
 *
 * A failing target costs the others nothing (issue 12):
 * - at most WEBHOOK_SUBSCRIPTION_CONCURRENCY attempts in flight per subscription, and at most
 *   WEBHOOK_TARGET_CONCURRENCY per target origin over all its subscriptions (issue 36: a slow
 *   endpoint must not starve another one on the same host), and the claim offers every
 *   subscription's due deliveries separately (claimDueDeliveries), so a target with a backlog of
 *   retries never stands in front of another target's deliveries;
 * - two lanes of WEBHOOK_CONCURRENCY attempts each: origins whose latest attempt here failed, and
 *   the others, so failing targets waiting for connections or timeouts never take the capacity
 *   healthy ones need;
 * - the due attempts to an origin that refused its latest connection are gathered for
 *   UNREACHABLE_GATHER_MS and made together, up to UNREACHABLE_BATCH in one slot: one bare
 *   connection and one statement for all of them, and no claim looks at them in between;
 * - no spinning: a pass that leaves due work for want of a slot sleeps until an attempt ends; else
 *   until the next retry is due (the time is in the database), at most the poll interval. Finished
 *   attempts only bring the timer forward to their retry time.
 */
export class WebhookRunner extends PollingRunner {
  /** Attempts in flight (slots) per target origin and per subscription. */
  private perOrigin = new Map<string, number>();
  private perSubscription = new Map<string, number>();
  /** Attempts in flight per lane. */
  private lanes = { healthy: 0, failing: 0 };
  /** Origins whose latest attempt in this process failed. */
  private failingOrigins = new Set<string>();
  /** The subscriptions seen per origin: those of a full origin are skipped by the claim. */
  private subscriptionsOf = new Map<string, Set<string>>();
  /** The last pass left due deliveries for want of a slot: a finished attempt should claim again. */
  private backlog = false;
  /** When the last batch to each unreachable origin was claimed. */
  private batchedAt = new Map<string, number>();
  /** Unreachable origins with due deliveries gathered for their next batch (new ones, or more than a batch). */
  private gathered = new Set<string>();
  private readonly buildData = sharedDataBuilder(buildWebhookData);

  constructor(private readonly options: WebhookRunnerOptions) {
    super({ channel: OUTBOX_CHANNEL, pollMs: POLL_MS, name: "webhook runner" });
  }

  protected async pass(external: boolean, onlyNotified: boolean): Promise<number | null> {
    // New outbox events come with a notification (or are found by the poll); finished attempts bring none.
    let dispatched = 0;
    if (external) {
      for (;;) {
        const { deliveries, drained } = await dispatchOutboxEvents();
        dispatched += deliveries.length;
        if (deliveries.length > 0) await this.options.onDispatched?.(deliveries.map((d) => d.id));
        for (const d of deliveries) if (knownUnreachable(d.target)) this.gathered.add(targetOrigin(d.target));
        if (drained) break;
      }
    }
    if (!this.options.deliver) return this.pollMs;
    // Events nobody subscribed to (most of them, at a high intake rate) make nothing due: no claim,
    // and the timer stands as set (the next retry, a gathered batch, the poll).
    if (onlyNotified && dispatched === 0) return null;
    return this.claimAndRun();
  }

  /** Claims due deliveries as slots allow and starts their attempts; returns how long to sleep. */
  private async claimAndRun(): Promise<number> {
    const { WEBHOOK_CONCURRENCY: total, WEBHOOK_TARGET_CONCURRENCY: perTarget, WEBHOOK_SUBSCRIPTION_CONCURRENCY: perEndpoint } = config();
    /** Slots this pass takes per origin, and attempts: a batch for an unreachable origin is many attempts in one slot. */
    const slotsTaking = new Map<string, number>();
    const subscriptionSlotsTaking = new Map<string, number>();
    const attemptsTaking = new Map<string, number>();
    const batchOrigins = new Set<string>();
    const lanesTaking = { healthy: 0, failing: 0 };
    const laneOf = (origin: string) => (this.failingOrigins.has(origin) ? "failing" : "healthy");
    const room = (origin: string) =>
      (this.perOrigin.get(origin) ?? 0) + (slotsTaking.get(origin) ?? 0) < perTarget &&
      this.lanes[laneOf(origin)] + lanesTaking[laneOf(origin)] < total;
    const subscriptionRoom = (subscriptionId: string) =>
      (this.perSubscription.get(subscriptionId) ?? 0) + (subscriptionSlotsTaking.get(subscriptionId) ?? 0) < perEndpoint;
    const now = Date.now();
    const gathering = (origin: string) => knownUnreachable(origin) && now - (this.batchedAt.get(origin) ?? 0) < UNREACHABLE_GATHER_MS;
    const full = [...this.subscriptionsOf].filter(([origin]) => !room(origin));
    const gathered = [...this.subscriptionsOf].filter(([origin]) => room(origin) && gathering(origin));
    const fullSubscriptions = [...this.perSubscription].filter(([id]) => !subscriptionRoom(id)).map(([id]) => id);
    const skip = [...new Set([...[...full, ...gathered].flatMap(([, ids]) => [...ids]), ...fullSubscriptions])];
    let noSlot = 0;
    const { claimed } = await claimDueDeliveries({
      perSubscription: Math.max(perEndpoint, 10),
      skip,
      admit: (candidate) => {
        const origin = targetOrigin(candidate.target);
        this.subscriptionsOf.set(origin, (this.subscriptionsOf.get(origin) ?? new Set()).add(candidate.subscriptionId));
        const taken = attemptsTaking.get(origin) ?? 0;
        const batch = knownUnreachable(candidate.target);
        if (batch && taken >= UNREACHABLE_BATCH) {
          this.gathered.add(origin); // more than one batch due: the next one after the gathering time
          return false;
        }
        if ((!batch || taken === 0) && (!room(origin) || !subscriptionRoom(candidate.subscriptionId))) {
          noSlot += 1;
          return false;
        }
        attemptsTaking.set(origin, taken + 1);
        if (batch && taken === 0) {
          batchOrigins.add(origin);
          this.batchedAt.set(origin, now);
          this.gathered.delete(origin);
        }
        if (!batch || taken === 0) {
          slotsTaking.set(origin, (slotsTaking.get(origin) ?? 0) + 1);
          subscriptionSlotsTaking.set(candidate.subscriptionId, (subscriptionSlotsTaking.get(candidate.subscriptionId) ?? 0) + 1);
          lanesTaking[laneOf(origin)] += 1;
        }
        return true;
      },
    });
    const batches = new Map<string, ClaimedAttempt[]>();
    for (const attempt of claimed) {
      const origin = targetOrigin(attempt.target);
      if (batchOrigins.has(origin)) batches.set(origin, [...(batches.get(origin) ?? []), attempt]);
      else this.run([attempt]);
    }
    for (const batch of batches.values()) this.run(batch);
    // Waiting for a slot: an attempt that ends frees one (and claims again). Gathering is not waiting for a slot.
    this.backlog = noSlot > 0 || full.length > 0 || fullSubscriptions.length > 0;
    const reopen = gathered
      .filter(([origin]) => this.gathered.has(origin))
      .map(([origin]) => (this.batchedAt.get(origin) ?? 0) + UNREACHABLE_GATHER_MS - now);
    if (reopen.length > 0) return Math.max(5, Math.min(this.pollMs, ...reopen));
    if (this.backlog) return this.pollMs;
    return this.msUntilNextDue(claimed.length > 0);
  }

  /** Makes one attempt, or a batch of attempts to one unreachable origin, in one slot of its origin and of its (first) subscription. */
  private run(attempts: ClaimedAttempt[]): void {
    const origin = targetOrigin(attempts[0].target);
    const subscriptionId = attempts[0].subscriptionId;
    const lane = this.failingOrigins.has(origin) ? "failing" : "healthy";
    this.perOrigin.set(origin, (this.perOrigin.get(origin) ?? 0) + 1);
    this.perSubscription.set(subscriptionId, (this.perSubscription.get(subscriptionId) ?? 0) + 1);
    this.lanes[lane] += 1;
    let retryAt: number | null = null;
    const work =
      attempts.length === 1 && !knownUnreachable(attempts[0].target)
        ? performClaimedAttempt(attempts[0], this.buildData).then((r) => [r])
        : performUnreachableAttempts(attempts, this.buildData);
    this.track(
      work
        .then(
          (results) => {
            for (const result of results) {
              if (result.nextAttemptAt) retryAt = Math.min(retryAt ?? Infinity, result.nextAttemptAt.getTime());
              if (result.outcome.ok) this.failingOrigins.delete(origin);
              else if (result.sent) this.failingOrigins.add(origin);
            }
          },
          (error: unknown) => log.error("webhook attempt failed to run", { deliveryIds: attempts.map((a) => a.deliveryId), error }),
        )
        .finally(() => {
          const left = (this.perOrigin.get(origin) ?? 1) - 1;
          if (left > 0) this.perOrigin.set(origin, left);
          else this.perOrigin.delete(origin);
          const leftOfSubscription = (this.perSubscription.get(subscriptionId) ?? 1) - 1;
          if (leftOfSubscription > 0) this.perSubscription.set(subscriptionId, leftOfSubscription);
          else this.perSubscription.delete(subscriptionId);
          this.lanes[lane] -= 1;
          if (this.backlog) this.request();
          else if (retryAt !== null) this.wakeWithin(Math.max(0, retryAt - Date.now()));
        }),
      false,
    );
  }

  /** Sleep until the earliest pending retry is due, at most the poll interval. */
  private async msUntilNextDue(claimedSome: boolean): Promise<number> {
    const ms = await msUntilNextDeliveryDue();
    if (ms === null) return this.pollMs;
    // Due already: either it became due during this pass (look again at once) or another process holds it.
    if (ms <= 0) return claimedSome ? 5 : this.pollMs;
    return Math.min(this.pollMs, Math.ceil(ms));
  }
}

const holder = globalThis as unknown as { __rxWebhookRunner?: WebhookRunner };

/**
 * Starts this process's runner (once). It always fans committed events out; it makes the attempts
 * unless Inngest does (server/jobs/provider.ts), and then hands each new delivery to `announce`
 * (announceDeliveries, passed in because webhook-delivery.ts imports this module to wake the runner).
 */
export async function startWebhookRunner(announce: (deliveryIds: string[]) => Promise<void>): Promise<WebhookRunner> {
  if (holder.__rxWebhookRunner) return holder.__rxWebhookRunner;
  const deliver = jobsProvider().webhookAttemptsInProcess;
  const runner = new WebhookRunner({ deliver, onDispatched: deliver ? undefined : announce });
  holder.__rxWebhookRunner = runner;
  await runner.start();
  log.info("webhook runner started", { deliver });
  return runner;
}

/** Wakes this process's runner, if it runs here. */
export function wakeWebhookRunner(): void {
  holder.__rxWebhookRunner?.wake();
}

/** Stops this process's runner, if it runs here (graceful shutdown): waits for its attempts in flight. */
export async function stopWebhookRunner(): Promise<void> {
  const runner = holder.__rxWebhookRunner;
  holder.__rxWebhookRunner = undefined;
  await runner?.stop();
}
