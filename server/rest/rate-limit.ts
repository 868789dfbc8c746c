import cluster from "node:cluster";
import { RateLimiterCluster, RateLimiterMemory, type RateLimiterAbstract } from "rate-limiter-flexible";
import { config } from "@/server/config";
import { log } from "@/server/log";

/**
 * Fixed one-second windows, counted separately per API key and per client address; a request
 * over either limit is refused. In memory: in one process, or, in the HTTP workers of the
 * production entry (scripts/serve.ts), in its primary process, which counts for all of them (node's
 * IPC), so the limit holds however connections spread over the workers.
 */
let limiter: { perSecond: number; counter: RateLimiterAbstract } | undefined;

/** The entry's HTTP workers (RX_SERVE_ROLE=http) count in the primary; anything else counts here. */
const countsInPrimary = () => cluster.isWorker && process.env.RX_SERVE_ROLE === "http";

function currentLimiter(): RateLimiterAbstract {
  const perSecond = config().RATE_LIMIT_PER_SECOND;
  if (limiter?.perSecond !== perSecond) {
    const options = { points: perSecond, duration: 1, keyPrefix: `rest-${perSecond}` };
    limiter = { perSecond, counter: countsInPrimary() ? new RateLimiterCluster({ ...options, timeoutMs: 1_000 }) : new RateLimiterMemory(options) };
  }
  return limiter.counter;
}

/** Consumes one request for each subject; false when any of them is over its limit. */
export async function withinRateLimit(subjects: string[]): Promise<boolean> {
  const counter = currentLimiter();
  const results = await Promise.allSettled(subjects.map((s) => counter.consume(s)));
  return results.every((r) => {
    if (r.status === "fulfilled") return true;
    // Over the limit is a RateLimiterRes; an Error is the primary not answering in time: let the request through.
    if (r.reason instanceof Error) {
      log.warn("rate limit not counted: the counting process did not answer", { error: r.reason.message });
      return true;
    }
    return false;
  });
}

/** The client's address: the first X-Forwarded-For hop (set by Next.js or the proxy in front), else X-Real-IP. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}
