import { randomBytes } from "node:crypto";
import type { AuthOptions, DefaultSession } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { config } from "@/server/config";
import { decode, getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { database, databaseDriver } from "@/server/db/client";
import { log } from "@/server/log";
import { clientAddress } from "@/server/rest/rate-limit";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { deviceOfAttempt, issueDeviceCookie } from "./sign-in-device";
import { recordFailedSignIn, recordSuccessfulSignIn, signInRetryAfterMs, type SignInAttempt } from "./sign-in-throttle";
import { portalHome, REQUESTED_PATH_HEADER, sameOriginCallbackUrl, type PortalRole } from "./portal-roles";
import { portalAuthSecret } from "./secrets";

/** What a portal session carries about its user (next-auth JWT strategy: no session table). */
export type PortalSessionUser = {
  id: string;
  email: string;
  name: string;
  role: PortalRole;
  organisationId: string;
  pharmacyId: string | null;
  pharmacyGroupId: string | null;
  /** The Doctor a DOCTOR user acts as (null for other roles). */
  doctorId: string | null;
  /** User.sessionVersion when the session began: the session ends when the user's changes (sign-out, password change). */
  sessionVersion: number;
};

declare module "next-auth" {
  interface Session {
    user: PortalSessionUser & DefaultSession["user"];
  }
  interface User {
    role: PortalRole;
    organisationId: string;
    pharmacyId: string | null;
    pharmacyGroupId: string | null;
    doctorId: string | null;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: PortalRole;
    organisationId?: string;
    pharmacyId?: string | null;
    pharmacyGroupId?: string | null;
    doctorId?: string | null;
    sessionVersion?: number;
  }
}

/**
 * next-auth v4 takes its base URL from NEXTAUTH_URL, read on every request (server side: origin
 * of redirects and callback-URL checks, and whether cookies are `Secure`) and once when
 * `next-auth/react` is first loaded. Without it, it assumes http://localhost:3000. When the
 * operator has not set it, derive it from PUBLIC_BASE_URL (default http://localhost:PORT). Called from
 * instrumentation.ts before the first request, and again before next-auth sees the options.
 */
export function applyPortalAuthUrl(): string {
  const current = process.env.NEXTAUTH_URL?.trim();
  if (current) return current;
  process.env.NEXTAUTH_URL = config().baseUrl;
  return process.env.NEXTAUTH_URL;
}

// A password check runs even for unknown emails, so response time does not reveal which emails exist.
let decoyHash: Promise<string> | undefined;

/** The refusal of a throttled sign-in, as next-auth hands it to the form (`error`): `TooManyAttempts:<minutes>`. */
export const TOO_MANY_ATTEMPTS = "TooManyAttempts";

/** The request headers next-auth passes to authorize (a plain object in the app router), as Headers. */
function headersOf(value: unknown): Headers {
  if (value instanceof Headers) return value;
  const headers = new Headers();
  for (const [name, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    if (typeof v === "string") headers.set(name, v);
  }
  return headers;
}

/**
 * Email and password against the User table, throttled per e-mail and client address and per address,
 * or per device when the browser's device cookie is for this e-mail (server/auth/sign-in-throttle.ts):
 * a throttled attempt throws `TooManyAttempts:<minutes>` without checking the password. A legacy
 * scrypt hash is replaced by argon2id after a successful check.
 */
export async function authorizeCredentials(email: unknown, password: unknown, requestHeaders?: unknown): Promise<PortalSessionUser | null> {
  if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password) return null;
  const headers = headersOf(requestHeaders);
  const attempt: SignInAttempt = { email, address: clientAddress({ headers }), device: deviceOfAttempt(email, headers) };
  const waitMs = await signInRetryAfterMs(attempt);
  if (waitMs > 0) throw new Error(`${TOO_MANY_ATTEMPTS}:${Math.max(1, Math.ceil(waitMs / 60_000))}`);
  const db = await database();
  const user = await db.user.findFirst({
    where: { email: { equals: email.trim(), mode: "insensitive" } },
    select: {
      id: true,
      email: true,
      displayName: true,
      passwordHash: true,
      role: true,
      organisationId: true,
      pharmacyId: true,
      pharmacyGroupId: true,
      doctorId: true,
      deactivatedAt: true,
      sessionVersion: true,
      doctor: { select: { deactivatedAt: true } },
    },
  });
  // Invited users without a password yet and deactivated users cannot sign in; nor can the user of a
  // deactivated doctor (docs/decisions/admin-tool.md#the-doctors-section).
  if (!user || !user.passwordHash || user.deactivatedAt || user.doctor?.deactivatedAt) {
    decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
    await verifyPassword(password, await decoyHash);
    await recordFailedSignIn(attempt);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordFailedSignIn(attempt);
    return null;
  }
  await recordSuccessfulSignIn(attempt);
  if (needsRehash(user.passwordHash)) {
    // Only if unchanged meanwhile (a reset in between wins).
    await db.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash: await hashPassword(password) } });
  }
  return {
    id: user.id,
    email: user.email,
    name: user.displayName,
    role: user.role,
    organisationId: user.organisationId,
    pharmacyId: user.pharmacyId,
    pharmacyGroupId: user.pharmacyGroupId,
    doctorId: user.doctorId,
    sessionVersion: user.sessionVersion,
  };
}

/** Thrown by the jwt callback for a session that has ended: next-auth then clears the cookie and reports no session. */
class SessionEndedError extends Error {}

let options: AuthOptions | undefined;

/**
 * next-auth options for the portals: email + password against the User table, JWT sessions.
 * Built on first use rather than at import, so that `next build` (which loads the auth route)
 * neither reads secrets nor touches DATA_DIR.
 */
export function portalAuthOptions(): AuthOptions {
  applyPortalAuthUrl();
  options ??= {
    secret: portalAuthSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60, updateAge: 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: (credentials, request) => authorizeCredentials(credentials?.email, credentials?.password, request?.headers),
      }),
    ],
    callbacks: {
      // Where next-auth sends the browser after sign-in or sign-out: this origin only.
      redirect({ url, baseUrl }) {
        return sameOriginCallbackUrl(url, baseUrl) ?? baseUrl;
      },
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.role = user.role;
          token.organisationId = user.organisationId;
          token.pharmacyId = user.pharmacyId;
          token.pharmacyGroupId = user.pharmacyGroupId;
          token.doctorId = user.doctorId;
          token.sessionVersion = user.sessionVersion;
          return token;
        }
        // Every later read of the session (page loads, /api/auth/session): a session ended by sign-out,
        // a password change or deactivation is no session, and its cookie is cleared.
        if (!token.sub || !(await currentStateOfPortalUser(token.sub, sessionVersionOf(token)))) {
          throw new SessionEndedError("The session has ended (signed out, password changed or user deactivated).");
        }
        return token;
      },
      session({ session, token }) {
        session.user = sessionUserOfToken(token);
        return session;
      },
    },
    logger: {
      // An ended session presented again is expected (a second tab, a copied cookie), not an error.
      error(code, metadata) {
        if (metadata instanceof SessionEndedError) log.info("portal session refused: it has ended", { code });
        else log.error("next-auth error", { code, error: metadata });
      },
    },
    events: {
      // The browser that signed in gets its device cookie (renewed at every sign-in).
      signIn: ({ user }) => issueDeviceCookie(user.email ?? ""),
      // Signing out ends every session of the user, not only this cookie (the token is sealed, not
      // revocable by itself). Only a session still current does so: an ended one changes nothing.
      async signOut({ token }) {
        if (token?.sub) await endSessions(token.sub, sessionVersionOf(token));
      },
    },
  };
  return options;
}

/**
 * Ends every session of the user (sign-out): raises User.sessionVersion, when the session that asks
 * is still current (`fromVersion`). A password change raises it in its own transaction.
 */
export async function endSessions(userId: string, fromVersion: number): Promise<void> {
  const driver = await databaseDriver();
  await driver.query(`UPDATE "User" SET "sessionVersion" = "sessionVersion" + 1 WHERE "id" = $1 AND "sessionVersion" = $2`, [userId, fromVersion]);
}

/** A token minted before session versions existed matches no user: it has ended. */
const sessionVersionOf = (token: JWT): number => (typeof token.sessionVersion === "number" ? token.sessionVersion : -1);

/** The user a session token names, as the session callback hands it to pages. */
function sessionUserOfToken(token: JWT): PortalSessionUser {
  return {
    id: token.sub ?? "",
    email: token.email ?? "",
    name: token.name ?? "",
    role: token.role ?? "PHARMACIST",
    organisationId: token.organisationId ?? "",
    pharmacyId: token.pharmacyId ?? null,
    pharmacyGroupId: token.pharmacyGroupId ?? null,
    doctorId: token.doctorId ?? null,
    sessionVersion: sessionVersionOf(token),
  };
}

/** The signed-in portal user of the current request (server components, route handlers), or null. */
export async function currentPortalUser(): Promise<PortalSessionUser | null> {
  const session = await getServerSession(portalAuthOptions());
  return session?.user?.id ? session.user : null;
}

/**
 * Decoded session tokens by their text, until they expire. A token is encrypted and authenticated
 * (JWE), so the same text always decodes to the same claims; decoding derives its key with HKDF and
 * decrypts on every call, which the portal's busiest request (the queue, refreshed every 10 s) need
 * not repeat. Bounded: the oldest entry goes first.
 */
const decodedTokens = new Map<string, { token: JWT; expiresAtMs: number }>();
const DECODED_TOKENS_MAX = 1_000;

async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  const text = params.token;
  if (!text) return null;
  const cached = decodedTokens.get(text);
  if (cached && cached.expiresAtMs > Date.now()) return cached.token;
  decodedTokens.delete(text);
  const token = await decode(params);
  if (token && typeof token.exp === "number") {
    if (decodedTokens.size >= DECODED_TOKENS_MAX) decodedTokens.delete(decodedTokens.keys().next().value!);
    decodedTokens.set(text, { token, expiresAtMs: token.exp * 1000 });
  }
  return token;
}

/**
 * The signed-in portal user of an API request (tRPC), from its session cookie, or null. Unlike
 * currentPortalUser it does not run next-auth's session route, which would derive keys, decrypt,
 * re-encrypt and set a renewed cookie on every call: the token is only read (cached, above). The
 * session's 12 hours are renewed by page loads, not by the queue's background refreshes.
 */
export async function portalUserOfRequest(request: Request): Promise<PortalSessionUser | null> {
  applyPortalAuthUrl();
  const token = await getToken({
    req: { headers: request.headers, cookies: new RequestCookies(request.headers) } as unknown as NextRequest,
    secret: portalAuthSecret(),
    decode: decodeSessionToken,
  });
  return token?.sub ? sessionUserOfToken(token) : null;
}

/**
 * The portal user as they are now in the database (role, organisation, pharmacy and group), or null
 * when the user no longer exists, is deactivated (or is the user of a deactivated doctor), or the session (of `sessionVersion`) has ended by
 * sign-out or a password change: procedures check every call against this rather than the session
 * token (valid 12 hours), so a change to the user applies at once. A driver statement: it runs on
 * every portal call.
 */
export async function currentStateOfPortalUser(userId: string, sessionVersion: number): Promise<PortalSessionUser | null> {
  const driver = await databaseDriver();
  const [current] = await driver.query<PortalSessionUser>(
    `SELECT "id", "email", "displayName" AS "name", "role", "organisationId", "pharmacyId", "pharmacyGroupId", "doctorId", "sessionVersion"
       FROM "User" u WHERE "id" = $1 AND "deactivatedAt" IS NULL AND "sessionVersion" = $2
        AND (u."doctorId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Doctor" d WHERE d."id" = u."doctorId" AND d."deactivatedAt" IS NOT NULL))`,
    [userId, sessionVersion],
  );
  return current ?? null;
}

/** The signed-in user as the portals show them: names of their organisation, pharmacy or group. */
export type PortalViewer = {
  id: string;
  email: string;
  displayName: string;
  role: PortalRole;
  organisation: { id: string; displayName: string };
  pharmacy: { id: string; displayName: string } | null;
  pharmacyGroup: { id: string; displayName: string } | null;
};

async function loadViewer(user: PortalSessionUser): Promise<PortalViewer | null> {
  const db = await database();
  const place = { select: { id: true, displayName: true } } as const;
  return db.user.findFirst({
    where: { id: user.id, deactivatedAt: null, sessionVersion: user.sessionVersion },
    select: {
      id: true,
      email: true,
      displayName: true,
      role: true,
      organisation: place,
      pharmacy: place,
      pharmacyGroup: place,
    },
  });
}

/**
 * For portal layouts and pages: the signed-in user if their role may open this portal. Otherwise redirects:
 * to sign-in (with a callbackUrl back to the page asked for: proxy.ts puts its path on the request) when there is no session, its user no longer
 * exists or its session has ended (sign-out, password change), and to the user's own portal when the role does not fit. Roles are checked against the
 * database, not only the session token.
 */
export async function requirePortalViewer(role: PortalRole | readonly PortalRole[]): Promise<PortalViewer> {
  const roles: readonly PortalRole[] = typeof role === "string" ? [role] : role;
  const path = (await headers()).get(REQUESTED_PATH_HEADER) ?? portalHome(roles[0]);
  const signIn = `/signin?callbackUrl=${encodeURIComponent(path)}`;
  const user = await currentPortalUser();
  if (!user) redirect(signIn);
  const viewer = await loadViewer(user);
  if (!viewer) redirect(signIn);
  if (!roles.includes(viewer.role)) redirect(portalHome(viewer.role));
  return viewer;
}
