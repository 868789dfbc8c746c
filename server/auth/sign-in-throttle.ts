import cluster from "node:cluster";
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import { log } from "@/server/log";

/**
 * Sign-in throttling against password guessing (rate-limiter-flexible's login-protection pattern):
 * - consecutive failures per e-mail and client address: 10 within 15 minutes, then that pair is
 *   refused for 15 minutes; a successful sign-in clears the pair's count;
 * - failures per client address: 100 within a day (many e-mails from one address), then that
 *   address is refused for a day.
 * An attempt that carries a valid device cookie for the e-mail it tries (server/auth/sign-in-device.ts:
 * this browser signed in as that user before) is counted per device instead, 10 failures within 15
 * minutes, then that device is refused for 15 minutes: neither address rule applies to it, so one
 * attacker behind a shared address (a NAT, an office, a proxy not configured as trusted) cannot lock
 * out the users who have signed in there before (docs/security.md#client-addresses-and-throttling).
 * A refused attempt does not check the password at all. Counts live in memory (a restart forgets
 * them, which only shortens a block): in the one process, or, for the HTTP workers of the
 * production entry (scripts/serve.ts), in its primary process, which counts for all of them, as the
 * REST rate limit does (server/rest/rate-limit.ts).
 */
export const SIGN_IN_LIMITS = {
  perEmailAndAddress: { points: 10, durationSeconds: 15 * 60 },
  perAddress: { points: 100, durationSeconds: 24 * 60 * 60 },
  perDevice: { points: 10, durationSeconds: 15 * 60 },
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

const byDevice = new RateLimiterMemory({
  keyPrefix: "signin-device",
  points: SIGN_IN_LIMITS.perDevice.points,
  duration: SIGN_IN_LIMITS.perDevice.durationSeconds,
  blockDuration: SIGN_IN_LIMITS.perDevice.durationSeconds,
});

/**
 * Who an attempt is counted against: the e-mail and the client address, or, with a valid device
 * cookie for that e-mail, that device (its cookie's id).
 */
export type SignInAttempt = { email: string; address: string; device: string | null };

const pairKey = (email: string, address: string) => `${email.trim().toLowerCase()}_${address}`;

const swallowLimit = (error: unknown) => {
  if (error instanceof Error) throw error; // a real failure, not a RateLimiterRes
  return error as RateLimiterRes;
};
const waitOf = (res: RateLimiterRes | null, points: number) => (res && res.consumedPoints >= points ? res.msBeforeNext : 0);

/** Milliseconds until this attempt may be made; 0 when it may now. */
async function localRetryAfterMs({ email, address, device }: SignInAttempt): Promise<number> {
  if (device) return waitOf(await byDevice.get(device), SIGN_IN_LIMITS.perDevice.points);
  const [pair, addr] = await Promise.all([byEmailAndAddress.get(pairKey(email, address)), byAddress.get(address)]);
  return Math.max(waitOf(pair, SIGN_IN_LIMITS.perEmailAndAddress.points), waitOf(addr, SIGN_IN_LIMITS.perAddress.points));
}

/** Counts a failed attempt against its subjects (a consume over the limit blocks; its rejection is expected). */
async function localFailed({ email, address, device }: SignInAttempt): Promise<number> {
  if (device) await byDevice.consume(device).catch(swallowLimit);
  else await Promise.all([byEmailAndAddress.consume(pairKey(email, address)).catch(swallowLimit), byAddress.consume(address).catch(swallowLimit)]);
  return 0;
}

/** A successful sign-in: the e-mail and address pair (and the device) start again from zero; the address count stays. */
async function localSucceeded({ email, address, device }: SignInAttempt): Promise<number> {
  await Promise.all([byEmailAndAddress.delete(pairKey(email, address)), device ? byDevice.delete(device) : undefined]);
  return 0;
}

// ── The production entry's HTTP workers ask their primary, which keeps the one count. ──

type Op = "retryAfter" | "failed" | "succeeded";
const LOCAL: Record<Op, (attempt: SignInAttempt) => Promise<number>> = {
  retryAfter: localRetryAfterMs,
  failed: localFailed,
  succeeded: localSucceeded,
};
type Question = { rx: "sign-in-throttle"; id: number; op: Op; attempt: SignInAttempt };
type Answer = { rx: "sign-in-throttle"; id: number; value: number };

/** In the entry's primary: answers its HTTP workers' sign-in throttle questions from one count. */
export function countSignInFailuresForWorkers(): void {
  cluster.on("message", async (worker, message: Question) => {
    if (message?.rx !== "sign-in-throttle" || !(message.op in LOCAL)) return;
    const value = await LOCAL[message.op](message.attempt);
    worker.send({ rx: "sign-in-throttle", id: message.id, value } satisfies Answer);
  });
}

const asked = new Map<number, (value: number) => void>();
let nextQuestion = 0;
let listening = false;

/** Unanswered within a second (the primary is gone): counted as not throttled, and logged. */
function askPrimary(op: Op, attempt: SignInAttempt): Promise<number> {
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
    process.send!({ rx: "sign-in-throttle", id, op, attempt } satisfies Question);
  });
}

const countsInPrimary = () => cluster.isWorker && process.env.RX_SERVE_ROLE === "http" && typeof process.send === "function";
const run = (op: Op, attempt: SignInAttempt) => (countsInPrimary() ? askPrimary(op, attempt) : LOCAL[op](attempt));

/** Milliseconds until this attempt may be made; 0 when it may now. */
export const signInRetryAfterMs = (attempt: SignInAttempt) => run("retryAfter", attempt);
/** Counts a failed sign-in (per e-mail and address, and per address; or per device). */
export const recordFailedSignIn = async (attempt: SignInAttempt) => void (await run("failed", attempt));
/** Clears the e-mail and address count (and the device's) after a successful sign-in. */
export const recordSuccessfulSignIn = async (attempt: SignInAttempt) => void (await run("succeeded", attempt));
