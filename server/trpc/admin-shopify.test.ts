import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ValidationError } from "@/server/domain/errors";
import { openShopifyConnection } from "@/server/domain/shopify/connection";
import { DELETE_DRAFT_TASK } from "@/server/domain/shopify/draft-orders";
import { PUSH_TRACKING_TASK } from "@/server/domain/shopify/push-tracking";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, item, offerSku, routedOrderBody } from "@/tests/orders";
import { startShopifyStandIn, type ShopifyStandIn } from "@/tests/shopify-stand-in";
import { trpcCode } from "@/tests/trpc";
import { useEnv } from "@/tests/wait";

// The stand-in listens on loopback: the existing allowance of the outgoing-request guard.
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const TOKEN = "shpat_admin_tool_9876";
let standIn: ShopifyStandIn;
let t: Tenant;
let other: Tenant;
let c: AdminCallers;

beforeAll(async () => {
  standIn = await startShopifyStandIn({ accessToken: TOKEN, shopName: "Versandapotheke Test" });
  t = await createTenant();
  other = await createTenant();
  c = await adminCallers(t);
});
afterAll(async () => {
  await standIn.close();
});

describe("a shop's Shopify connection in the admin tool", () => {
  it("needs both secrets for a new connection", async () => {
    const error = await as(c.admin)
      .admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: standIn.url, accessToken: "", clientSecret: "" })
      .catch((e: unknown) => e);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect(((error as TRPCError).cause as ValidationError).fields).toEqual({
      accessToken: ["Required for a new connection."],
      clientSecret: ["Required for a new connection."],
    });
    expect(await t.db.shopifyConnection.count({ where: { shopId: t.shop.id } })).toBe(0);
  });

  it("refuses a store address with a path", async () => {
    expect(await trpcCode(as(c.admin).admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: "https://x.myshopify.com/admin", accessToken: "a", clientSecret: "b" }))).toBe("BAD_REQUEST");
  });

  it("stores the secrets sealed, shows only their last four characters, keeps a blank one and rotates a new one (audited)", async () => {
    await as(c.admin).admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: "demo-store.myshopify.com", accessToken: "shpat_first_1111", clientSecret: "secret_first_2222" });
    const row = await t.db.shopifyConnection.findUniqueOrThrow({ where: { shopId: t.shop.id } });
    expect(row.storeUrl).toBe("https://demo-store.myshopify.com");
    expect(row.accessTokenSealed).not.toContain("shpat_first");
    expect(row.clientSecretSealed).not.toContain("secret_first");
    const listed = (await as(c.admin).admin.shops.list()).find((s) => s.uid === t.shop.id)!;
    expect(listed.shopify).toMatchObject({ storeUrl: "https://demo-store.myshopify.com", accessTokenHint: "1111", clientSecretHint: "2222" });
    expect(JSON.stringify(listed)).not.toContain("shpat_first");

    await as(c.admin).admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: standIn.url, accessToken: TOKEN, clientSecret: "" });
    expect(await openShopifyConnection(t.shop.id)).toEqual({ storeUrl: standIn.url, accessToken: TOKEN, clientSecret: "secret_first_2222" });
    const audit = await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "shop", entityId: t.shop.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["shopify_connected", "shopify_connection_changed"]);
    expect(audit[1].summary).toContain("new access token");
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
  });

  it("tests the connection against the store with the stored token", async () => {
    expect(await as(c.admin).admin.shops.testShopify({ shopUid: t.shop.id })).toEqual({ ok: true, shopName: "Versandapotheke Test" });
    const request = standIn.requests.at(-1)!;
    expect(request.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(request.query).toMatch(/^query ConnectionTest \{\s+shop \{\s+name\s+myshopifyDomain/);

    await as(c.admin).admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: standIn.url, accessToken: "shpat_revoked_0000", clientSecret: "" });
    expect(await as(c.admin).admin.shops.testShopify({ shopUid: t.shop.id })).toEqual({ ok: false, message: "Shopify refused the access token (HTTP 401)." });
  });

  it("answers NOT_FOUND for another organisation's shop and for a shop without a connection", async () => {
    expect(await trpcCode(as(c.admin).admin.shops.saveShopify({ shopUid: other.shop.id, storeUrl: standIn.url, accessToken: "a", clientSecret: "b" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(c.admin).admin.shops.testShopify({ shopUid: other.shop.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(c.admin).admin.shops.testShopify({ shopUid: t.otherShop.id }))).toBe("NOT_FOUND");
    expect(await other.db.shopifyConnection.count({ where: { shopId: other.shop.id } })).toBe(0);
  });

  it("is for admins only", async () => {
    for (const user of [null, c.pharmacist, c.doctor]) {
      const code = user ? "FORBIDDEN" : "UNAUTHORIZED";
      expect(await trpcCode(as(user).admin.shops.saveShopify({ shopUid: t.shop.id, storeUrl: standIn.url, accessToken: "a", clientSecret: "b" }))).toBe(code);
      expect(await trpcCode(as(user).admin.shops.testShopify({ shopUid: t.shop.id }))).toBe(code);
      expect(await trpcCode(as(user).admin.shops.shopifyTaskProblems())).toBe(code);
    }
  });

  it("lists Shopify tasks that keep failing (tracking pushes, draft deletions), of the organisation's shops only", async () => {
    await offerSku(t, { shopVariationId: "variant-1", price: 100 });
    const created = await createTestOrder(t, routedOrderBody(t, `o-${crypto.randomUUID()}`, t.pharmacy.id, [item("variant-1")]));
    const pharmacyOrder = created.pharmacyOrders[0];
    await t.db.backgroundTask.create({
      data: {
        name: PUSH_TRACKING_TASK,
        payload: { pharmacyOrderId: pharmacyOrder.id, shopId: t.shop.id, trackingUrl: "https://dhl.de/1", carrier: "DHL" },
        state: "FAILED",
        attempts: 5,
        lastError: "Shopify answered HTTP 500.",
        nextAttemptAt: null,
      },
    });
    const retryAt = new Date("2030-01-01T00:00:00Z");
    await t.db.backgroundTask.create({
      data: {
        name: DELETE_DRAFT_TASK,
        payload: { draftOrderId: crypto.randomUUID(), shopId: t.shop.id, shopifyDraftOrderGid: "gid://shopify/DraftOrder/1069920475" },
        createdAt: new Date(Date.now() + 60_000),
        attempts: 2,
        lastError: "Shopify answered HTTP 502.",
        nextAttemptAt: retryAt,
      },
    });
    expect(await as(c.admin).admin.shops.shopifyTaskProblems()).toEqual([
      { taskUid: expect.any(String), shopUid: t.shop.id, kind: "draft_deletion", subject: "1069920475", state: "PENDING", attempts: 2, lastError: "Shopify answered HTTP 502.", nextAttemptAt: retryAt.getTime() / 1000 },
      { taskUid: expect.any(String), shopUid: t.shop.id, kind: "tracking", subject: pharmacyOrder.name, state: "FAILED", attempts: 5, lastError: "Shopify answered HTTP 500.", nextAttemptAt: null },
    ]);
    const otherAdmin = (await adminCallers(other)).admin;
    expect(await as(otherAdmin).admin.shops.shopifyTaskProblems()).toEqual([]);
  });
});
