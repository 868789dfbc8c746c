import { RateLimiterMemory } from "rate-limiter-flexible";
import { config } from "@/server/config";

/**
 * Fixed one-second windows, counted separately per API key and per client address; a request
 * over either limit is refused. In memory: each server process counts its own requests.
 */
let limiter: { perSecond: number; memory: RateLimiterMemory } | undefined;

function currentLimiter(): RateLimiterMemory {
  const perSecond = config().RATE_LIMIT_PER_SECOND;
  if (limiter?.perSecond !== perSecond) {
    limiter = { perSecond, memory: new RateLimiterMemory({ points: perSecond, duration: 1 }) };
  }
  return limiter.memory;
}

/** Consumes one request for each subject; false when any of them is over its limit. */
export async function withinRateLimit(subjects: string[]): Promise<boolean> {
  const memory = currentLimiter();
  const results = await Promise.allSettled(subjects.map((s) => memory.consume(s)));
  return results.every((r) => r.status === "fulfilled");
}

/** The client's address: the first X-Forwarded-For hop (set by Next.js or the proxy in front), else X-Real-IP. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}
