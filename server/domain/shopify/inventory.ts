import { database } from "@/server/db/client";
import { log } from "@/server/log";
import type { Wait } from "@/server/http/retry-after";
import { shopifyAdminApi } from "./admin-api";
import { openShopifyConnection } from "./connection";
import { variantGid } from "./variants";

/**
 * Shopify's current available inventory of the variants mapped to a shop's SKUs (the admin
 * catalogue's variation id: a variant GID or its number): per variant, the `available` quantity of
 * its inventory item summed over the store's locations, which Shopify already nets of its orders
 * and draft-order reservations. A variant whose inventory Shopify does not track has no limit
 * (absent from the map). docs/decisions/intake.md#shopify.
 */
const VARIANT_INVENTORY = `query VariantInventory($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ProductVariant {
      id
      inventoryItem {
        tracked
        inventoryLevels(first: 50) {
          nodes {
            quantities(names: ["available"]) {
              name
              quantity
            }
          }
        }
      }
    }
  }
}`;

type VariantNode = {
  id: string;
  inventoryItem: { tracked: boolean; inventoryLevels: { nodes: { quantities: { name: string; quantity: number }[] }[] } } | null;
} | null;

/**
 * Shopify's available quantity per SKU of `skuIds` that the shop maps to a Shopify variant, or null
 * when the shop has no Shopify connection or Shopify could not be asked (logged): then the
 * service's own stock alone answers.
 */
export async function shopifyAvailableBySku(shopId: string, skuIds: readonly string[], wait?: Wait): Promise<Map<string, number> | null> {
  const connection = await openShopifyConnection(shopId);
  if (!connection || skuIds.length === 0) return connection ? new Map() : null;
  const db = await database();
  const mapped = await db.shopSku.findMany({
    where: { shopId, deletedAt: null, skuId: { in: [...skuIds] }, shopVariationId: { not: null } },
    select: { skuId: true, shopVariationId: true },
  });
  const gidOf = new Map<string, string>();
  for (const row of mapped) {
    const gid = variantGid(row.shopVariationId!);
    if (gid && row.skuId) gidOf.set(row.skuId, gid);
  }
  if (gidOf.size === 0) return new Map();
  let nodes: VariantNode[];
  try {
    ({ nodes } = await shopifyAdminApi(connection, wait).request<{ nodes: VariantNode[] }>(VARIANT_INVENTORY, { ids: [...new Set(gidOf.values())] }));
  } catch (error) {
    log.warn("Shopify inventory could not be read; live stock answers from the service's own stock", { shopId, reason: (error as Error).message });
    return null;
  }
  const availableOf = new Map<string, number>();
  for (const node of nodes) {
    if (!node?.inventoryItem?.tracked) continue;
    const sum = node.inventoryItem.inventoryLevels.nodes.flatMap((l) => l.quantities).filter((q) => q.name === "available").reduce((total, q) => total + q.quantity, 0);
    availableOf.set(node.id, Math.max(0, sum));
  }
  const bySku = new Map<string, number>();
  for (const [skuId, gid] of gidOf) {
    const available = availableOf.get(gid);
    // A variant Shopify does not know (deleted) can be sold by nobody.
    if (available !== undefined) bySku.set(skuId, available);
    else if (!nodes.some((n) => n?.id === gid)) bySku.set(skuId, 0);
  }
  return bySku;
}
