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
  /** Woken from outside (a notification, the poll timer) since the last pass began. */
  private external = true;
  private passing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly lifecycle: PollingRunnerOptions) {}

  /** Passes made so far (tests check that an idle runner stays idle). */
  passes = 0;

  /**
   * One pass: claims (or announces) what is due; returns the milliseconds until the next poll.
   * `external`: woken by a notification or the poll timer since the last pass, not only by finished work.
   */
  protected abstract pass(external: boolean): Promise<number>;

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
    this.external = true;
    this.request();
  };

  /** A pass soon, for work of this process's own (a slot came free), not a sign of new outside work. */
  protected request(): void {
    if (this.stopped) return;
    this.wanted = true;
    this.passing ??= this.drain().finally(() => {
      this.passing = null;
      if (this.wanted) this.request();
    });
  }

  /** Make sure a pass runs within `ms` (the timer is only ever brought forward). */
  protected wakeWithin(ms: number): void {
    if (this.stopped || this.passing) return; // the pass under way sets the timer when it ends
    if (Date.now() + ms < this.timerAt) this.schedule(ms);
  }

  /**
   * Keeps `work` (which logs its own failure, never rejects) until it settles, then, by default,
   * wakes the runner: a slot is free. `wakeWhenDone` false leaves that to the caller.
   */
  protected track(work: Promise<void>, wakeWhenDone = true): void {
    const done: Promise<void> = work.finally(() => {
      this.running.delete(done);
      if (wakeWhenDone) this.request();
    });
    this.running.add(done);
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      const external = this.external;
      this.external = false;
      this.passes += 1;
      let waitMs = this.lifecycle.pollMs;
      try {
        waitMs = await this.pass(external);
      } catch (error) {
        log.error(`${this.lifecycle.name} failed; retrying`, { error });
      }
      this.schedule(waitMs);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      this.wake();
    }, ms);
    this.timer.unref();
  }
}
