import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createPortalUser } from "@/tests/webhook-logs";
import { handleTrpcRequest } from "./handler";

let t: Tenant;
let pharmacist: PortalSessionUser;
let another: PortalSessionUser;
beforeAll(async () => {
  t = await createTenant();
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  another = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
});
afterEach(() => {
  process.env.TRPC_RATE_LIMIT_PER_SECOND = "1000000";
  reloadConfig();
});

const limitTo = (perSecond: number) => {
  process.env.TRPC_RATE_LIMIT_PER_SECOND = String(perSecond);
  reloadConfig();
};

/** One HTTP request to the portals' tRPC endpoint from `address` (as the entry sets it), as `user`. */
const call = (user: PortalSessionUser | null, address: string, path = "pharmacy.pharmacies.list") =>
  handleTrpcRequest(new Request(`http://localhost:3000/api/trpc/${path}`, { headers: { "x-forwarded-for": address } }), async () => user);

const TOO_MANY = { message: "Too many requests: try again in a moment.", code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } };

describe("the portals' tRPC rate limit (TRPC_RATE_LIMIT_PER_SECOND)", () => {
  it("counts a signed-in user's requests whatever address they come from: TOO_MANY_REQUESTS, HTTP 429, in tRPC's envelope", async () => {
    limitTo(3);
    // At once, so they fall in one or two one-second windows: at most 6 pass.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(pharmacist, `198.51.100.${i + 1}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await refused.json()).error).toMatchObject(TOO_MANY);
  });

  it("counts requests per address, signed in or not, and refuses every call of a batch", async () => {
    limitTo(3);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? null : another, "203.0.113.50")));
    expect(answers.map((r) => r.status)).toContain(429);
    limitTo(1);
    const batches = await Promise.all(Array.from({ length: 5 }, () => call(another, "203.0.113.51", "pharmacy.pharmacies.list,pharmacy.pharmacies.list?batch=1")));
    const refused = batches.find((r) => r.status === 429)!;
    const body = (await refused.json()) as { error: unknown }[];
    expect(body).toHaveLength(2);
    for (const entry of body) expect(entry.error).toMatchObject(TOO_MANY);
  });

  it("lets a request through under the limit (the default limit is a setting)", async () => {
    const ok = await call(pharmacist, "192.0.2.200");
    expect(ok.status).toBe(200);
    expect((await ok.json()).result.data).toEqual([{ uid: t.pharmacy.id, displayName: t.pharmacy.displayName }]);
  });
});
