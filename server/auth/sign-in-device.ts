import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { config } from "@/server/config";
import { portalAuthSecret } from "./secrets";

/**
 * Device cookies (OWASP's answer to lock-out through shared addresses): a browser that signed in as
 * a user gets a signed, httpOnly cookie naming that user; its later attempts for that e-mail are
 * throttled per device instead of per address (server/auth/sign-in-throttle.ts), so an attacker
 * who fails 100 times from the same NAT or unconfigured proxy locks out only browsers that never
 * signed in there. The cookie holds a random id, an expiry and an HMAC over them and the e-mail
 * (lower-cased), not the e-mail itself; one per browser, the last user who signed in with it.
 */
export const DEVICE_COOKIE = "rx-sign-in-device";
const LIFETIME_SECONDS = 30 * 24 * 60 * 60;

let key: { secret: string; bytes: Buffer } | undefined;
function signingKey(): Buffer {
  const secret = portalAuthSecret();
  if (key?.secret !== secret) key = { secret, bytes: Buffer.from(hkdfSync("sha256", secret, "", "rx sign-in device cookie", 32)) };
  return key.bytes;
}

const signature = (email: string, id: string, expires: string) =>
  createHmac("sha256", signingKey()).update(`${email.trim().toLowerCase()}\n${id}\n${expires}`).digest();

/** A fresh cookie value for a browser that has just signed in as `email`. */
export function deviceCookieValue(email: string, nowMs = Date.now()): string {
  const id = randomBytes(16).toString("base64url");
  const expires = String(Math.floor(nowMs / 1000) + LIFETIME_SECONDS);
  return `${id}.${expires}.${signature(email, id, expires).toString("base64url")}`;
}

/** The device id of an attempt for `email`: its request carries an unexpired device cookie signed for that e-mail; else null. */
export function deviceOfAttempt(email: string, headers: Headers, nowMs = Date.now()): string | null {
  const value = new RequestCookies(headers).get(DEVICE_COOKIE)?.value ?? "";
  const [id, expires, mac, extra] = value.split(".");
  if (!id || !expires || !mac || extra !== undefined || !/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= nowMs) return null;
  const expected = signature(email, id, expires);
  const given = Buffer.from(mac, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** Sets the device cookie on the sign-in's answer (next-auth's signIn event, inside the auth route's request). */
export async function issueDeviceCookie(email: string): Promise<void> {
  (await cookies()).set(DEVICE_COOKIE, deviceCookieValue(email), {
    httpOnly: true,
    sameSite: "lax",
    secure: config().baseUrl.startsWith("https:"),
    // Read only by sign-in (the credentials callback).
    path: "/api/auth",
    maxAge: LIFETIME_SECONDS,
  });
}
