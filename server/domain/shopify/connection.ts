import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";
import type { Wait } from "@/server/http/retry-after";
import { shopifyAdminApi, ShopifyApiError, type ShopifyCredentials } from "./admin-api";

/**
 * A shop's Shopify connection (admin tool, Shops page): the store's address, the custom app's Admin
 * API access token and its client secret (the webhooks' HMAC key). Both secrets are sealed like
 * webhook secrets (server/domain/webhooks/secret-box.ts) and never shown again: the admin tool shows
 * their last four characters. Saving again with a secret left blank keeps it, with a new one rotates
 * it. docs/decisions/intake.md#shopify.
 */
export type ShopifyConnectionInput = { storeUrl: string; accessToken?: string; clientSecret?: string };

/** The store's origin: a bare domain gets https. */
export function storeOrigin(storeUrl: string): string {
  const value = storeUrl.trim();
  return new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`).origin;
}

const hintOf = (secret: string) => secret.slice(-4);

async function shopInOrganisation(organisationId: string, shopId: string) {
  const db = await database();
  const shop = await db.shop.findFirst({ where: { id: shopId, organisationId }, select: { id: true, identifier: true } });
  if (!shop) throw new NotFoundError("Shop not found");
  return shop;
}

export async function saveShopifyConnection(organisationId: string, adminUserId: string, shopId: string, input: ShopifyConnectionInput) {
  const shop = await shopInOrganisation(organisationId, shopId);
  const db = await database();
  return db.$transaction(async (tx) => {
    const existing = await tx.shopifyConnection.findUnique({ where: { shopId }, select: { id: true } });
    if (!existing) {
      // A new connection needs both secrets; a change may leave either blank to keep it.
      const errors = new FieldErrorCollector();
      if (!input.accessToken) errors.add(["accessToken"], errorText("shopify.secretRequired"));
      if (!input.clientSecret) errors.add(["clientSecret"], errorText("shopify.secretRequired"));
      errors.throwIfAny();
    }
    const secrets = {
      ...(input.accessToken ? { accessTokenSealed: sealSecret(input.accessToken), accessTokenHint: hintOf(input.accessToken) } : {}),
      ...(input.clientSecret ? { clientSecretSealed: sealSecret(input.clientSecret), clientSecretHint: hintOf(input.clientSecret) } : {}),
    };
    const storeUrl = storeOrigin(input.storeUrl);
    if (existing) await tx.shopifyConnection.update({ where: { shopId }, data: { storeUrl, ...secrets } });
    else await tx.shopifyConnection.create({ data: { shopId, storeUrl, ...(secrets as Required<typeof secrets>) } });
    const rotated = [input.accessToken ? "access token" : null, input.clientSecret ? "client secret" : null].filter(Boolean);
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "shop",
      entityId: shopId,
      action: existing ? "shopify_connection_changed" : "shopify_connected",
      values: {
        identifier: shop.identifier,
        storeUrl,
        rotated: rotated.length === 2 ? "both" : input.accessToken ? "accessToken" : input.clientSecret ? "clientSecret" : "none",
      },
      summary: existing
        ? `Shopify connection of shop ${shop.identifier} changed (${storeUrl}${rotated.length ? `; new ${rotated.join(" and ")}` : ""})`
        : `Shop ${shop.identifier} connected to Shopify (${storeUrl})`,
    });
  });
}

/** What the admin tool shows of a shop's connection: never a secret, only its last four characters. */
export async function shopifyConnectionsOf(organisationId: string) {
  const db = await database();
  return db.shopifyConnection.findMany({
    where: { shop: { organisationId } },
    select: { shopId: true, storeUrl: true, accessTokenHint: true, clientSecretHint: true, updatedAt: true },
  });
}

/** Whether the shop has a Shopify connection (its reservations and checkouts are then Shopify draft orders). */
export async function isShopifyConnected(shopId: string): Promise<boolean> {
  const db = await database();
  return (await db.shopifyConnection.count({ where: { shopId } })) > 0;
}

/** The connection of a shop with its secrets opened, or null when the shop has none. */
export async function openShopifyConnection(shopId: string): Promise<(ShopifyCredentials & { clientSecret: string }) | null> {
  const db = await database();
  const row = await db.shopifyConnection.findUnique({ where: { shopId } });
  if (!row) return null;
  return { storeUrl: row.storeUrl, accessToken: openSecret(row.accessTokenSealed), clientSecret: openSecret(row.clientSecretSealed) };
}

export type ShopifyConnectionTest = { ok: true; shopName: string } | { ok: false; message: string };

const SHOP_QUERY = `query ConnectionTest {
  shop {
    name
    myshopifyDomain
  }
}`;

/** "Test connection": asks the store for its name with the stored token. */
export async function testShopifyConnection(organisationId: string, shopId: string, wait?: Wait): Promise<ShopifyConnectionTest> {
  await shopInOrganisation(organisationId, shopId);
  const connection = await openShopifyConnection(shopId);
  if (!connection) throw new NotFoundError("Shop not found");
  try {
    const data = await shopifyAdminApi(connection, wait).request<{ shop: { name: string } }>(SHOP_QUERY);
    return { ok: true, shopName: data.shop.name };
  } catch (error) {
    if (error instanceof ShopifyApiError) return { ok: false, message: error.message };
    throw error;
  }
}
