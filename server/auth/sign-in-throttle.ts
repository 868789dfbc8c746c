import cluster from "node:cluster";
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import { log } from "@/server/log";

/**
 * Sign-in throttling against password guessing (rate-limiter-flexible's login-protection pattern):
 * - consecutive failures per e-mail and client address: 10 within 15 minutes, then that pair is
 *   refused for 15 minutes; a successful sign-in clears the pair's count;
 * - failures per client address: 100 within a day (many e-mails from one address), then that
 *   address is refused for a day.
 * A refused attempt does not check the password at all. Counts live in memory (a restart forgets
 * them, which only shortens a block): in the one process, or, for the HTTP workers of the
 * production entry (scripts/serve.ts), in its primary process, which counts for all of them, as the
 * REST rate limit does (server/rest/rate-limit.ts).
 */
export const SIGN_IN_LIMITS = {
  perEmailAndAddress: { points: 10, durationSeconds: 15 * 60 },
  perAddress: { points: 100, durationSeconds: 24 * 60 * 60 },
} as const;

const byEmailAndAddress = new RateLimiterMemory({
  keyPrefix: "signin-email-addr",
  points: SIGN_IN_LIMITS.perEmailAndAddress.points,
  duration: SIGN_IN_LIMITS.perEmailAndAddress.durationSeconds,
  blockDuration: SIGN_IN_LIMITS.perEmailAndAddress.durationSeconds,
});

const byAddress = new RateLimiterMemory({
  keyPrefix: "signin-addr",
  points: SIGN_IN_LIMITS.perAddress.points,
  duration: SIGN_IN_LIMITS.perAddress.durationSeconds,
  blockDuration: SIGN_IN_LIMITS.perAddress.durationSeconds,
});

const pairKey = (email: string, address: string) => `${email.trim().toLowerCase()}_${address}`;

/** Milliseconds until sign-in may be tried again for this e-mail from this address; 0 when it may now. */
async function localRetryAfterMs(email: string, address: string): Promise<number> {
  const [pair, addr] = await Promise.all([byEmailAndAddress.get(pairKey(email, address)), byAddress.get(address)]);
  const waits = [
    pair && pair.consumedPoints >= SIGN_IN_LIMITS.perEmailAndAddress.points ? pair.msBeforeNext : 0,
    addr && addr.consumedPoints >= SIGN_IN_LIMITS.perAddress.points ? addr.msBeforeNext : 0,
  ];
  return Math.max(0, ...waits);
}

/** Counts a failed sign-in against both subjects (a consume over the limit blocks; its rejection is expected). */
async function localFailed(email: string, address: string): Promise<number> {
  const swallowLimit = (error: unknown) => {
    if (error instanceof Error) throw error; // a real failure, not a RateLimiterRes
    return error as RateLimiterRes;
  };
  await Promise.all([byEmailAndAddress.consume(pairKey(email, address)).catch(swallowLimit), byAddress.consume(address).catch(swallowLimit)]);
  return 0;
}

/** A successful sign-in: the e-mail and address pair starts again from zero (the address count stays). */
async function localSucceeded(email: string, address: string): Promise<number> {
  await byEmailAndAddress.delete(pairKey(email, address));
  return 0;
}

// ── The production entry's HTTP workers ask their primary, which keeps the one count. ──

type Op = "retryAfter" | "failed" | "succeeded";
const LOCAL: Record<Op, (email: string, address: string) => Promise<number>> = {
  retryAfter: localRetryAfterMs,
  failed: localFailed,
  succeeded: localSucceeded,
};
type Question = { rx: "sign-in-throttle"; id: number; op: Op; email: string; address: string };
type Answer = { rx: "sign-in-throttle"; id: number; value: number };

/** In the entry's primary: answers its HTTP workers' sign-in throttle questions from one count. */
export function countSignInFailuresForWorkers(): void {
  cluster.on("message", async (worker, message: Question) => {
    if (message?.rx !== "sign-in-throttle" || !(message.op in LOCAL)) return;
    const value = await LOCAL[message.op](message.email, message.address);
    worker.send({ rx: "sign-in-throttle", id: message.id, value } satisfies Answer);
  });
}

const asked = new Map<number, (value: number) => void>();
let nextQuestion = 0;
let listening = false;

/** Unanswered within a second (the primary is gone): counted as not throttled, and logged. */
function askPrimary(op: Op, email: string, address: string): Promise<number> {
  if (!listening) {
    listening = true;
    process.on("message", (message: Answer) => {
      if (message?.rx !== "sign-in-throttle") return;
      asked.get(message.id)?.(message.value);
      asked.delete(message.id);
    });
  }
  const id = ++nextQuestion;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      asked.delete(id);
      log.warn("sign-in throttle not consulted: the primary process did not answer in time");
      resolve(0);
    }, 1_000);
    asked.set(id, (value) => {
      clearTimeout(timer);
      resolve(value);
    });
    process.send!({ rx: "sign-in-throttle", id, op, email, address } satisfies Question);
  });
}

const countsInPrimary = () => cluster.isWorker && process.env.RX_SERVE_ROLE === "http" && typeof process.send === "function";
const run = (op: Op, email: string, address: string) => (countsInPrimary() ? askPrimary(op, email, address) : LOCAL[op](email, address));

/** Milliseconds until sign-in may be tried again for this e-mail from this address; 0 when it may now. */
export const signInRetryAfterMs = (email: string, address: string) => run("retryAfter", email, address);
/** Counts a failed sign-in (per e-mail and address, and per address). */
export const recordFailedSignIn = async (email: string, address: string) => void (await run("failed", email, address));
/** Clears the e-mail and address count after a successful sign-in. */
export const recordSuccessfulSignIn = async (email: string, address: string) => void (await run("succeeded", email, address));
