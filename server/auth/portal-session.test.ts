import NextAuth from "next-auth";
import { encode } from "next-auth/jwt";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { currentStateOfPortalUser, portalAuthOptions, portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";
import { portalAuthSecret } from "@/server/auth/secrets";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { hashPassword } from "@/server/auth/password";
import { deactivateUser, reactivateUser } from "@/server/domain/users/activation";
import { issuePasswordReset, setPasswordWithToken } from "@/server/domain/users/password-tokens";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let pharmacist: PortalSessionUser;

beforeAll(async () => {
  t = await createTenant();
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
});

afterEach(() => vi.useRealTimers());

/** A session token as next-auth's sign-in writes it (jwt callback's claims), valid for `maxAge` seconds. */
const sessionToken = (user: PortalSessionUser, maxAge = 60 * 60, secret = portalAuthSecret()) =>
  encode({
    secret,
    maxAge,
    token: {
      sub: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      organisationId: user.organisationId,
      pharmacyId: user.pharmacyId,
      pharmacyGroupId: user.pharmacyGroupId,
      sessionVersion: user.sessionVersion,
    },
  });

const withCookie = (token: string, name = "next-auth.session-token") =>
  new Request("http://localhost:3000/api/trpc/pharmacy.pharmacies.list", { headers: { cookie: `other=1; ${name}=${token}` } });

describe("portalUserOfRequest (the tRPC context's user)", () => {
  it("reads the user from the session cookie, again from its cache", async () => {
    const token = await sessionToken(pharmacist);
    expect(await portalUserOfRequest(withCookie(token))).toEqual(pharmacist);
    expect(await portalUserOfRequest(withCookie(token))).toEqual(pharmacist);
  });

  it("refuses no cookie, a token of another secret and a tampered token", async () => {
    expect(await portalUserOfRequest(new Request("http://localhost:3000/api/trpc/x"))).toBeNull();
    expect(await portalUserOfRequest(withCookie(await sessionToken(pharmacist, 3600, "another-secret-another-secret-0000")))).toBeNull();
    const token = await sessionToken(pharmacist);
    const tampered = token.slice(0, -6) + (token.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA");
    expect(await portalUserOfRequest(withCookie(tampered))).toBeNull();
    expect(await portalUserOfRequest(withCookie(token, "some-other.session-token"))).toBeNull();
  });

  it("refuses a token once it has expired, even one read (and cached) before", async () => {
    const token = await sessionToken(pharmacist, 60);
    expect(await portalUserOfRequest(withCookie(token))).toEqual(pharmacist);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    expect(await portalUserOfRequest(withCookie(token))).toBeNull();
  });

  it("serves a procedure to the cookie's user through the real handler, and UNAUTHORIZED without it", async () => {
    const token = await sessionToken(pharmacist);
    const ok = await handleTrpcRequest(withCookie(token));
    expect(ok.status).toBe(200);
    expect((await ok.json()).result.data).toEqual([{ uid: t.pharmacy.id, displayName: t.pharmacy.displayName }]);
    const refused = await handleTrpcRequest(new Request("http://localhost:3000/api/trpc/pharmacy.pharmacies.list"));
    expect(refused.status).toBe(401);
  });
});

describe("currentStateOfPortalUser", () => {
  it("is the user as stored now, or null for a user that no longer exists or a session version that is not current", async () => {
    expect(await currentStateOfPortalUser(pharmacist.id, pharmacist.sessionVersion)).toEqual(pharmacist);
    await t.db.user.update({ where: { id: pharmacist.id }, data: { pharmacyId: t.loosePharmacy.id } });
    expect(await currentStateOfPortalUser(pharmacist.id, pharmacist.sessionVersion)).toEqual({ ...pharmacist, pharmacyId: t.loosePharmacy.id });
    await t.db.user.update({ where: { id: pharmacist.id }, data: { pharmacyId: t.pharmacy.id } });
    expect(await currentStateOfPortalUser(pharmacist.id, pharmacist.sessionVersion + 1)).toBeNull();
    expect(await currentStateOfPortalUser("00000000-0000-4000-8000-000000000000", 0)).toBeNull();
  });
});

// ── Sessions end at sign-out, at a password change and at deactivation (issue 21 item 7) ──

type AuthAnswer = { status: number; body: unknown; cookies: Record<string, string> };

/**
 * next-auth's own handler with the portals' options, in its pages-router form (the app-router form
 * of app/api/auth/[...nextauth] reads cookies through next/headers, which needs Next's request
 * scope): both hand the same request to next-auth's core.
 */
async function auth(path: string, init: { method?: string; cookies?: Record<string, string>; body?: Record<string, unknown> } = {}): Promise<AuthAnswer> {
  const answer: AuthAnswer = { status: 200, body: undefined, cookies: {} };
  const headers = new Map<string, string | string[]>();
  const res = {
    status: (code: number) => ((answer.status = code), res),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: string | string[]) => (headers.set(name.toLowerCase(), value), res),
    json: (body: unknown) => void (answer.body = body),
    send: (body: unknown) => void (answer.body = body),
    end: () => undefined,
  };
  const req = {
    method: init.method ?? "GET",
    query: { nextauth: path.split("/") },
    headers: { host: "localhost:3000" },
    cookies: init.cookies ?? {},
    body: init.body ?? {},
  };
  await (NextAuth as unknown as (req: unknown, res: unknown, options: unknown) => Promise<void>)(req, res, portalAuthOptions());
  for (const line of [headers.get("set-cookie") ?? []].flat()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    answer.cookies[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
  }
  return answer;
}

/** Signs in with e-mail and password through next-auth's credentials callback; the session cookie it sets. */
async function signIn(email: string, password: string): Promise<string> {
  const csrf = await auth("csrf");
  const signedIn = await auth("callback/credentials", {
    method: "POST",
    cookies: { "next-auth.csrf-token": csrf.cookies["next-auth.csrf-token"] },
    body: { email, password, csrfToken: (csrf.body as { csrfToken: string }).csrfToken, json: "true" },
  });
  const session = signedIn.cookies["next-auth.session-token"];
  if (!session) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.body)}`);
  return session;
}

async function signOut(session: string): Promise<void> {
  const csrf = await auth("csrf");
  await auth("signout", {
    method: "POST",
    cookies: { "next-auth.csrf-token": csrf.cookies["next-auth.csrf-token"], "next-auth.session-token": session },
    body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, json: "true" },
  });
}

/** What a tRPC procedure answers to the session cookie. */
const trpcStatus = async (session: string) => (await handleTrpcRequest(withCookie(session))).status;
/** What next-auth's session endpoint (page loads read the same callbacks) answers to it. */
const sessionUserId = async (session: string) =>
  ((await auth("session", { cookies: { "next-auth.session-token": session } })).body as { user?: { id: string } } | undefined)?.user?.id ?? null;

describe("a session ends", () => {
  const PASSWORD = "correct horse battery staple";
  let user: PortalSessionUser;

  beforeAll(async () => {
    user = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    await t.db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  });

  it("at sign-out: every session of the user, a copy of the cookie included; a new sign-in works", async () => {
    const first = await signIn(user.email, PASSWORD);
    const second = await signIn(user.email, PASSWORD);
    expect([await trpcStatus(first), await trpcStatus(second)]).toEqual([200, 200]);
    expect(await sessionUserId(second)).toBe(user.id);
    await signOut(first);
    expect([await trpcStatus(first), await trpcStatus(second)]).toEqual([401, 401]);
    expect([await sessionUserId(first), await sessionUserId(second)]).toEqual([null, null]);
    // A session that has already ended cannot end the next one.
    const third = await signIn(user.email, PASSWORD);
    await signOut(first);
    expect(await trpcStatus(third)).toBe(200);
    await signOut(third);
  });

  it("at a password reset: a token minted before it is refused after it", async () => {
    const before = await sessionToken((await currentStateOfPortalUser(user.id, (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion))!);
    expect(await trpcStatus(before)).toBe(200);
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    const { link } = await issuePasswordReset(t.organisation.id, admin.id, user.id);
    await setPasswordWithToken(link!.split("/").at(-1)!, "PASSWORD_RESET", `${PASSWORD} 2`);
    expect(await trpcStatus(before)).toBe(401);
    expect(await sessionUserId(before)).toBeNull();
    expect(await trpcStatus(await signIn(user.email, `${PASSWORD} 2`))).toBe(200);
  });

  it("at deactivation, and reactivation does not bring it back", async () => {
    const session = await signIn(user.email, `${PASSWORD} 2`);
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    await deactivateUser(t.organisation.id, admin.id, user.id);
    expect(await trpcStatus(session)).toBe(401);
    await reactivateUser(t.organisation.id, admin.id, user.id);
    expect(await trpcStatus(session)).toBe(401);
  });

  it("for a token minted before session versions existed (no version in it)", async () => {
    const { sessionVersion: _dropped, ...claims } = user;
    const legacy = await encode({ secret: portalAuthSecret(), maxAge: 3600, token: { sub: claims.id, email: claims.email, role: claims.role, organisationId: claims.organisationId, pharmacyId: claims.pharmacyId } });
    expect(await trpcStatus(legacy)).toBe(401);
  });
});
