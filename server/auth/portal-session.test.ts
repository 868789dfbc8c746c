import { encode } from "next-auth/jwt";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { currentStateOfPortalUser, portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";
import { portalAuthSecret } from "@/server/auth/secrets";
import { handleTrpcRequest } from "@/server/trpc/handler";
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
    },
  });

const withCookie = (token: string, name = "next-auth.session-token") =>
  new Request("http://localhost:3000/api/trpc/pharmacies.list", { headers: { cookie: `other=1; ${name}=${token}` } });

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
    const refused = await handleTrpcRequest(new Request("http://localhost:3000/api/trpc/pharmacies.list"));
    expect(refused.status).toBe(401);
  });
});

describe("currentStateOfPortalUser", () => {
  it("is the user as stored now, or null for a user that no longer exists", async () => {
    expect(await currentStateOfPortalUser(pharmacist.id)).toEqual(pharmacist);
    await t.db.user.update({ where: { id: pharmacist.id }, data: { pharmacyId: t.loosePharmacy.id } });
    expect(await currentStateOfPortalUser(pharmacist.id)).toEqual({ ...pharmacist, pharmacyId: t.loosePharmacy.id });
    await t.db.user.update({ where: { id: pharmacist.id }, data: { pharmacyId: t.pharmacy.id } });
    expect(await currentStateOfPortalUser("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});
