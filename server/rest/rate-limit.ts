import cluster from "node:cluster";
import { config } from "@/server/config";
import { log } from "@/server/log";

/**
 * Fixed one-second windows, counted separately per API key and per client address; a request
 * over either limit is refused. In memory: in one process, or, for the HTTP workers of the
 * production entry (scripts/serve.ts), in its primary process, which counts for all of them, so the
 * limit holds however connections spread over the workers.
 *
 * The counter is our own rather than rate-limiter-flexible's: its cluster mode sends one IPC message
 * and arms one timer per subject and request, and the messages alone cost the worker about 0.4 ms of
 * CPU per request (two subjects) in a profile of the list; here one message carries both subjects.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  private lastSweep = 0;

  /** Counts one request for each subject; false when any of them is over `perSecond` in its window. */
  consume(subjects: readonly string[], perSecond: number, now = Date.now()): boolean {
    if (now - this.lastSweep > 10_000) this.sweep(now);
    let ok = true;
    for (const subject of subjects) {
      let window = this.windows.get(subject);
      // A window starts at a subject's first request and lasts one second.
      if (!window || now - window.startedAt >= 1_000) this.windows.set(subject, (window = { startedAt: now, count: 0 }));
      window.count++;
      if (window.count > perSecond) ok = false;
    }
    return ok;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [subject, window] of this.windows) if (now - window.startedAt >= 1_000) this.windows.delete(subject);
  }
}

/** One counter per limit: a changed RATE_LIMIT_PER_SECOND (tests) starts from fresh counts. */
function counterFor(counters: Map<number, FixedWindowCounter>, perSecond: number): FixedWindowCounter {
  let counter = counters.get(perSecond);
  if (!counter) counters.set(perSecond, (counter = new FixedWindowCounter()));
  return counter;
}
const local = new Map<number, FixedWindowCounter>();

type Question = { rx: "rate-limit"; id: number; subjects: readonly string[]; perSecond: number };
type Answer = { rx: "rate-limit"; id: number; ok: boolean };

/** In the entry's primary: answers its HTTP workers' rate-limit questions from one counter. */
export function countRateLimitsForWorkers(): void {
  const counters = new Map<number, FixedWindowCounter>();
  cluster.on("message", (worker, message: Question) => {
    if (message?.rx !== "rate-limit") return;
    const ok = counterFor(counters, message.perSecond).consume(message.subjects, message.perSecond);
    const answer: Answer = { rx: "rate-limit", id: message.id, ok };
    worker.send(answer);
  });
}

/** A worker's questions to the primary, answered in order; unanswered for a second → let through (logged). */
const asked = new Map<number, { resolve: (ok: boolean) => void; at: number }>();
let nextQuestion = 0;
let listening = false;

function askPrimary(subjects: readonly string[], perSecond: number): Promise<boolean> {
  if (!listening) {
    listening = true;
    process.on("message", (message: Answer) => {
      if (message?.rx !== "rate-limit") return;
      asked.get(message.id)?.resolve(message.ok);
      asked.delete(message.id);
    });
    setInterval(() => {
      const late = Date.now() - 1_000;
      for (const [id, question] of asked) {
        if (question.at > late) continue;
        asked.delete(id);
        log.warn("rate limit not counted: the primary process did not answer in time");
        question.resolve(true);
      }
    }, 500).unref();
  }
  const id = ++nextQuestion;
  return new Promise((resolve) => {
    asked.set(id, { resolve, at: Date.now() });
    process.send!({ rx: "rate-limit", id, subjects, perSecond } satisfies Question);
  });
}

/** The entry's HTTP workers (RX_SERVE_ROLE=http) count in the primary; anything else counts here. */
const countsInPrimary = () => cluster.isWorker && process.env.RX_SERVE_ROLE === "http" && typeof process.send === "function";

/** Consumes one request for each subject; false when any of them is over its limit. */
export async function withinRateLimit(subjects: string[]): Promise<boolean> {
  const perSecond = config().RATE_LIMIT_PER_SECOND;
  return countsInPrimary() ? askPrimary(subjects, perSecond) : counterFor(local, perSecond).consume(subjects, perSecond);
}

/** The client's address: the first X-Forwarded-For hop (set by Next.js or the proxy in front), else X-Real-IP. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}
