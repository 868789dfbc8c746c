import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createPortalUser, createSubscription } from "@/tests/webhook-logs";

const HOUR = 60 * 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

let tenant: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
const subs: Record<string, string> = {};
const lastSuccess = ago(30 * HOUR);

const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  tenant = await createTenant();
  const { db } = tenant;
  const organisationId = tenant.organisation.id;
  pharmacist = await createPortalUser(db, { role: "PHARMACIST", organisationId, pharmacyId: tenant.pharmacy.id });
  groupPharmacist = await createPortalUser(db, { role: "PHARMACIST", organisationId, pharmacyGroupId: tenant.group.id });
  const make = async (name: string, pharmacyId: string, health: { createdAt?: Date; lastSuccessAt?: Date; lastFailureAt?: Date; failuresSinceSuccess?: number }) => {
    const s = await createSubscription(db, { organisationId, pharmacyId, target: `https://example.com/${name}` });
    await db.webhookSubscription.update({ where: { id: s.id }, data: health });
    subs[name] = s.id;
  };
  await make("healthy", tenant.pharmacy.id, { lastSuccessAt: ago(HOUR) });
  await make("dead", tenant.pharmacy.id, { lastSuccessAt: lastSuccess, lastFailureAt: ago(HOUR), failuresSinceSuccess: 12 });
  await make("other", tenant.groupPharmacy.id, { createdAt: ago(2 * HOUR), lastFailureAt: ago(HOUR), failuresSinceSuccess: 5 });
  // One failure just after registering: what was measured is said, but it does not "keep failing".
  await make("new", tenant.pharmacy.id, { lastFailureAt: ago(0), failuresSinceSuccess: 1 });
});

describe("pharmacy.webhooks.health", () => {
  it("shows the pharmacist's own targets, failing ones first, with the last success and the failures since", async () => {
    const health = await as(pharmacist).pharmacy.webhooks.health({});
    expect(health.map((h) => [h.target, h.state])).toEqual([
      ["https://example.com/dead", "failing"],
      ["https://example.com/new", "recovering"],
      ["https://example.com/healthy", "healthy"],
    ]);
    expect(health[0]).toMatchObject({ subscriptionUid: subs.dead, lastSuccessAt: unix(lastSuccess), measuredSince: unix(lastSuccess), failuresSinceSuccess: 12 });
    const fresh = health.find((h) => h.subscriptionUid === subs.new)!;
    expect(fresh).toMatchObject({ failuresSinceSuccess: 1, lastSuccessAt: null, measuredSince: fresh.registeredAt });
    expect(await as(pharmacist).pharmacy.webhooks.health({ subscriptionUid: subs.healthy })).toEqual([
      expect.objectContaining({ subscriptionUid: subs.healthy, state: "healthy", failuresSinceSuccess: 0, lastFailureAt: null }),
    ]);
  });

  it("answers NOT_FOUND for another pharmacy's subscription or pharmacy, and UNAUTHORIZED without a session", async () => {
    expect(await trpcCode(as(pharmacist).pharmacy.webhooks.health({ subscriptionUid: subs.other }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.webhooks.health({ pharmacyUid: tenant.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(null).pharmacy.webhooks.health({}))).toBe("UNAUTHORIZED");
    // A group pharmacist reaches both pharmacies of the group.
    const group = await as(groupPharmacist).pharmacy.webhooks.health({});
    expect(group.map((h) => h.target).sort()).toEqual([
      "https://example.com/dead",
      "https://example.com/healthy",
      "https://example.com/new",
      "https://example.com/other",
    ]);
    expect(group.find((h) => h.subscriptionUid === subs.other)?.state).toBe("failing");
  });
});
