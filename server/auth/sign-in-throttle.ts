import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * Sign-in throttling against password guessing (rate-limiter-flexible's login-protection pattern):
 * - consecutive failures per e-mail and client address: 10 within 15 minutes, then that pair is
 *   refused for 15 minutes; a successful sign-in clears the pair's count;
 * - failures per client address: 100 within a day (many e-mails from one address), then that
 *   address is refused for a day.
 * A refused attempt does not check the password at all. Counts live in this process's memory: the
 * app signs users in from one process (a restart forgets the counts, which only shortens a block).
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
export async function signInRetryAfterMs(email: string, address: string): Promise<number> {
  const [pair, addr] = await Promise.all([byEmailAndAddress.get(pairKey(email, address)), byAddress.get(address)]);
  const waits = [
    pair && pair.consumedPoints >= SIGN_IN_LIMITS.perEmailAndAddress.points ? pair.msBeforeNext : 0,
    addr && addr.consumedPoints >= SIGN_IN_LIMITS.perAddress.points ? addr.msBeforeNext : 0,
  ];
  return Math.max(0, ...waits);
}

/** Counts a failed sign-in against both subjects (a consume over the limit blocks; its rejection is expected). */
export async function recordFailedSignIn(email: string, address: string): Promise<void> {
  const swallowLimit = (error: unknown) => {
    if (error instanceof Error) throw error; // a real failure, not a RateLimiterRes
    return error as RateLimiterRes;
  };
  await Promise.all([byEmailAndAddress.consume(pairKey(email, address)).catch(swallowLimit), byAddress.consume(address).catch(swallowLimit)]);
}

/** A successful sign-in: the e-mail and address pair starts again from zero (the address count stays). */
export async function recordSuccessfulSignIn(email: string, address: string): Promise<void> {
  await byEmailAndAddress.delete(pairKey(email, address));
}
