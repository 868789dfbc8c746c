import { buildWebhookData } from "@/server/api/webhooks/payloads";
import { config } from "@/server/config";
import {
  claimDueDeliveries,
  performClaimedAttempt,
  sharedDataBuilder,
  targetOrigin,
  type ClaimedAttempt,
} from "@/server/domain/webhooks/deliver-attempt";
import { msUntilNextDeliveryDue } from "@/server/domain/webhooks/delivery-state";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { log } from "@/server/log";
import { PollingRunner } from "./polling-runner";
import { jobsProvider } from "./provider";

/** Fallback poll: catches other processes' re-sends and any notification missed while reconnecting. */
const POLL_MS = 1_000;
const OUTBOX_CHANNEL = "rx_outbox";

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
 * concurrently: at most WEBHOOK_CONCURRENCY in flight, WEBHOOK_TARGET_CONCURRENCY per target origin. The
 * state is all in the database, so a killed process loses nothing: its claimed attempts become due
 * again when their lease runs out, and the next process picks them up. Stopping waits for the attempts
 * in flight (each ends within the delivery timeout).
 */
export class WebhookRunner extends PollingRunner {
  /** Attempts in flight per target origin. */
  private perTarget = new Map<string, number>();
  private readonly buildData = sharedDataBuilder(buildWebhookData);

  constructor(private readonly options: WebhookRunnerOptions) {
    super({ channel: OUTBOX_CHANNEL, pollMs: POLL_MS, name: "webhook runner" });
  }

  protected async pass(): Promise<number> {
    for (;;) {
      const { events, deliveries } = await dispatchOutboxEvents();
      if (deliveries.length > 0) await this.options.onDispatched?.(deliveries.map((d) => d.id));
      if (events === 0) break;
    }
    if (!this.options.deliver) return this.pollMs;
    const { WEBHOOK_CONCURRENCY: total, WEBHOOK_TARGET_CONCURRENCY: perTarget } = config();
    const claimed = await claimDueDeliveries(total - this.inFlight, (t) => perTarget - (this.perTarget.get(t) ?? 0));
    for (const attempt of claimed) this.run(attempt);
    return this.msUntilNextDue();
  }

  private run(attempt: ClaimedAttempt): void {
    const origin = targetOrigin(attempt.target);
    this.perTarget.set(origin, (this.perTarget.get(origin) ?? 0) + 1);
    this.track(
      performClaimedAttempt(attempt, this.buildData)
        .then(
          () => undefined,
          (error: unknown) => log.error("webhook attempt failed to run", { deliveryId: attempt.deliveryId, error }),
        )
        .finally(() => {
          const left = (this.perTarget.get(origin) ?? 1) - 1;
          if (left > 0) this.perTarget.set(origin, left);
          else this.perTarget.delete(origin);
        }),
    );
  }

  /** Sleep until the earliest pending retry is due, at most the poll interval. */
  private async msUntilNextDue(): Promise<number> {
    const ms = await msUntilNextDeliveryDue();
    if (ms === null) return this.pollMs;
    return Math.min(this.pollMs, Math.max(5, Math.ceil(ms)));
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
