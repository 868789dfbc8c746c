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
  /** Woken since the last pass began by something other than a notification (the poll timer, wake()). */
  private unnotified = true;
  private passing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  /** The earliest wake-up wakeWithin asked for while a pass was under way (that pass's end honours it). */
  private askedAt = Infinity;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly lifecycle: PollingRunnerOptions) {}

  /** Passes made so far (tests check that an idle runner stays idle). */
  passes = 0;

  /**
   * One pass: claims (or announces) what is due; returns the milliseconds until the next poll, or
   * null to leave the timer as it is (set by an earlier pass or wakeWithin).
   * `external`: woken by a notification or the poll timer since the last pass, not only by finished work.
   * `onlyNotified`: woken from outside by notifications alone (new rows committed), not by the timer.
   */
  protected abstract pass(external: boolean, onlyNotified: boolean): Promise<number | null>;

  protected get pollMs(): number {
    return this.lifecycle.pollMs;
  }

  /** Work started by a pass and still going. */
  protected get inFlight(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    this.unlisten = await listenForNotifications(this.lifecycle.channel, this.notified);
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
    this.unnotified = true;
    this.request();
  };

  /** A notification on the channel: rows committed that this runner may have to act on. */
  private readonly notified = (): void => {
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
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (this.passing) this.askedAt = Math.min(this.askedAt, at); // honoured when the pass under way ends
    else if (at < this.timerAt) this.schedule(ms);
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
      const onlyNotified = external && !this.unnotified;
      this.external = false;
      this.unnotified = false;
      this.passes += 1;
      let waitMs: number | null = this.lifecycle.pollMs;
      try {
        waitMs = await this.pass(external, onlyNotified);
      } catch (error) {
        log.error(`${this.lifecycle.name} failed; retrying`, { error });
      }
      // What wakeWithin asked for meanwhile (an attempt that ended during the pass) brings the timer forward.
      const askedMs = Math.max(0, this.askedAt - Date.now());
      const asked = this.askedAt < Infinity;
      this.askedAt = Infinity;
      if (waitMs !== null) this.schedule(asked ? Math.min(waitMs, askedMs) : waitMs);
      else if (asked && Date.now() + askedMs < this.timerAt) this.schedule(askedMs);
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
