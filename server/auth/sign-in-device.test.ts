import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/server/auth/password";
import { authorizeCredentials } from "@/server/auth/portal-session";
import { DEVICE_COOKIE, deviceCookieValue, deviceOfAttempt } from "@/server/auth/sign-in-device";
import { SIGN_IN_LIMITS } from "@/server/auth/sign-in-throttle";
import { createTenant, type Tenant } from "@/tests/fixtures";

const PASSWORD = "a long enough password";
let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

async function newUser(): Promise<string> {
  const email = `device-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await t.db.user.create({ data: { email, displayName: "Device test", passwordHash: await hashPassword(PASSWORD), role: "ADMIN", organisationId: t.organisation.id } });
  return email;
}

/** The headers next-auth hands to authorize: the address the entry set, and the browser's cookies. */
const from = (address: string, cookie?: string) => ({ "x-forwarded-for": address, ...(cookie ? { cookie: `${DEVICE_COOKIE}=${cookie}` } : {}) });

/** Fills the per-address budget of a day with failures for unknown e-mails (credential stuffing). */
async function blockAddress(address: string) {
  const stuffing = Array.from({ length: SIGN_IN_LIMITS.perAddress.points }, (_, i) => authorizeCredentials(`nobody-${i}-${address}@example.com`, "whatever", from(address)));
  for (const result of await Promise.all(stuffing)) expect(result).toBeNull();
}

describe("device cookies: a shared address blocked by one attacker", () => {
  it("today's rule, kept for browsers without a device cookie: 100 failures from an address lock everyone there out for a day", async () => {
    const email = await newUser();
    const address = "192.0.2.10";
    await blockAddress(address);
    await expect(authorizeCredentials(email, PASSWORD, from(address))).rejects.toThrow(/^TooManyAttempts:1440$/);
    // Credential stuffing from the address stays stopped.
    await expect(authorizeCredentials(`nobody-more@example.com`, "whatever", from(address))).rejects.toThrow(/^TooManyAttempts:/);
  });

  it("a user whose browser signed in before still signs in from the blocked address; the stuffing run stays stopped", async () => {
    const email = await newUser();
    const other = await newUser();
    const address = "192.0.2.11";
    const cookie = deviceCookieValue(email);
    await blockAddress(address);

    expect(await authorizeCredentials(email, PASSWORD, from(address, cookie))).toMatchObject({ email });
    // Case does not matter, as for the e-mail itself.
    expect(await authorizeCredentials(email.toUpperCase(), PASSWORD, from(address, cookie))).toMatchObject({ email });
    // The cookie is for one e-mail: an attacker's own cookie does not open the others.
    await expect(authorizeCredentials(other, PASSWORD, from(address, cookie))).rejects.toThrow(/^TooManyAttempts:/);
    // A forged, tampered or expired cookie is no cookie.
    const [id, expires, mac] = cookie.split(".");
    for (const bad of [`${id}.${expires}.${mac.slice(0, -2)}AA`, `${id}x.${expires}.${mac}`, `${id}.${Number(expires) + 1}.${mac}`, "garbage", `${cookie}.x`]) {
      await expect(authorizeCredentials(email, PASSWORD, from(address, bad))).rejects.toThrow(/^TooManyAttempts:/);
    }
    const expired = deviceCookieValue(email, Date.now() - 31 * 24 * 60 * 60 * 1000);
    expect(deviceOfAttempt(email, new Headers(from(address, expired)))).toBeNull();
    await expect(authorizeCredentials(email, PASSWORD, from(address, expired))).rejects.toThrow(/^TooManyAttempts:/);
  });

  it("a device cookie has a limit of its own: 10 failures block that device for 15 minutes", async () => {
    const email = await newUser();
    const cookie = deviceCookieValue(email);
    for (let i = 0; i < SIGN_IN_LIMITS.perDevice.points; i++) expect(await authorizeCredentials(email, `wrong ${i}`, from("192.0.2.12", cookie))).toBeNull();
    await expect(authorizeCredentials(email, PASSWORD, from("192.0.2.13", cookie))).rejects.toThrow(/^TooManyAttempts:15$/);
    // Another browser of the same user (its own cookie) is not blocked, nor is the address.
    expect(await authorizeCredentials(email, PASSWORD, from("192.0.2.12", deviceCookieValue(email)))).toMatchObject({ email });
    expect(await authorizeCredentials(email, PASSWORD, from("192.0.2.12"))).toMatchObject({ email });
  });
});
