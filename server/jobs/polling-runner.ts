import { log } from "@/server/log";
import { listenForNotifications } from "./db-listener";

export type PollingRunnerOptions = {
  /** Notification channel whose NOTIFY (sent at commit) wakes the runner. */
  channel: string;
  /** Fallback poll interval: the longest the runner sleeps between passes. */
  pollMs: number;
  /** Names the runner in its log lines. */
  name: string;
};

/**
 * The lifecycle shared by this process's runners: woken by a notification, by a timer for the next
 * poll, and when a piece of its work finishes; one pass at a time, and one more if woken during it.
 * A subclass says what a pass does (`pass`, which returns how long to sleep before the next poll)
 * and hands the work it starts to `track`, so that `stop` can wait for it.
 */
export abstract class PollingRunner {
  private stopped = false;
  private wanted = false;
  private passing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly lifecycle: PollingRunnerOptions) {}

  /** One pass: claims (or announces) what is due; returns the milliseconds until the next poll. */
  protected abstract pass(): Promise<number>;

  protected get pollMs(): number {
    return this.lifecycle.pollMs;
  }

  /** Work started by a pass and still going. */
  protected get inFlight(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    this.unlisten = await listenForNotifications(this.lifecycle.channel, this.wake);
    this.wake();
  }

  /** Stops claiming; waits for the pass under way and for the work in flight here. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unlisten?.().catch(() => undefined);
    await this.passing;
    await Promise.allSettled([...this.running]);
  }

  /** Look for due work now (coalesced: one pass at a time, one more if woken during it). */
  readonly wake = (): void => {
    if (this.stopped) return;
    this.wanted = true;
    this.passing ??= this.drain().finally(() => {
      this.passing = null;
      if (this.wanted) this.wake();
    });
  };

  /** Keeps `work` (which logs its own failure, never rejects) until it settles, then wakes the runner: a slot is free. */
  protected track(work: Promise<void>): void {
    const done: Promise<void> = work.finally(() => {
      this.running.delete(done);
      this.wake();
    });
    this.running.add(done);
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      let waitMs = this.lifecycle.pollMs;
      try {
        waitMs = await this.pass();
      } catch (error) {
        log.error(`${this.lifecycle.name} failed; retrying`, { error });
      }
      this.schedule(waitMs);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.wake, ms);
    this.timer.unref();
  }
}
