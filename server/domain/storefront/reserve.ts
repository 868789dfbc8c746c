import { database } from "@/server/db/client";
import { ConflictError, FieldErrorCollector } from "@/server/domain/errors";
import { openShopifyConnection } from "@/server/domain/shopify/connection";
import { saveShopifyDraftOrder, shopPlatformError } from "@/server/domain/shopify/draft-orders";
import { NOT_A_SHOPIFY_VARIANT, variantGid } from "@/server/domain/shopify/variants";
import type { Wait } from "@/server/http/retry-after";
import { offeredSkus, type StockRequest } from "./offered-skus";
import { shopOfOrganisation } from "./shops";
import { DRAFT_ORDER_STATUS, RESERVATION_HOLD_MINUTES } from "./statuses";
import { availableQuantities } from "./stock";

export type Reservation = {
  /** The id the answer names (draft-order-id.ts): the Shopify draft's legacy id for a connected shop, else ours. */
  draftOrderId: string;
  status: string;
  holdExpiresAt: Date;
  lines: { skuId: string; shopSkuId: string | null; quantity: number; unitPrice: number | null }[];
};

export const UNKNOWN_SKU = "Unknown SKU: the shop does not offer it.";

/**
 * Reserves the quantities in a draft order (kind RESERVATION, status reserved) whose lines hold
 * stock for RESERVATION_HOLD_MINUTES: all lines or none. The SKU rows are locked (FOR UPDATE, in id
 * order, so two reservations of overlapping SKUs wait for each other instead of deadlocking) before
 * the available quantities are summed, so concurrent reservations never hold more than the stock.
 * Two items of one SKU are reserved together (their sum must be available). A SKU the shop does not
 * offer: a field error; not enough stock: a conflict naming what each line could have.
 *
 * A shop connected to Shopify also reserves in a Shopify draft order (draftOrderCreate with
 * reserveInventoryUntil = the hold's end), made after the hold committed so that no lock waits for
 * Shopify; every SKU must be mapped to a Shopify variant (else a field error, nothing written). When
 * Shopify fails, the hold is removed again and the reservation refused (502 refused, 503
 * unavailable). docs/decisions/intake.md#shopify.
 */
export async function reserveStock(
  organisationId: string,
  shopIdentifier: string,
  items: StockRequest[],
  now: Date = new Date(),
  wait?: Wait,
): Promise<Reservation> {
  const db = await database();
  const shop = await shopOfOrganisation(db, organisationId, shopIdentifier);
  const shopify = await openShopifyConnection(shop.id);
  const variantOf = new Map<string, string>();
  const draft = await db.$transaction(async (tx) => {
    const offered = await offeredSkus(tx, shop.id, items.map((i) => i.skuId));
    const unknown = new FieldErrorCollector();
    items.forEach((item, i) => {
      const offer = offered.get(item.skuId);
      if (!offer) return unknown.add(["items", i, "sku_uid"], UNKNOWN_SKU);
      const gid = offer.shopVariationId ? variantGid(offer.shopVariationId) : null;
      if (gid) variantOf.set(item.skuId, gid);
      else if (shopify) unknown.add(["items", i, "sku_uid"], NOT_A_SHOPIFY_VARIANT);
    });
    unknown.throwIfAny();

    const wanted = new Map<string, number>();
    for (const item of items) wanted.set(item.skuId, (wanted.get(item.skuId) ?? 0) + item.quantity);
    const skuIds = [...wanted.keys()].sort();
    await tx.$queryRaw`SELECT "id" FROM "Sku" WHERE "id" = ANY(${skuIds}::text[]) ORDER BY "id" FOR UPDATE`;
    const available = await availableQuantities(tx, organisationId, skuIds, now);
    const short = skuIds.filter((id) => (available.get(id) ?? 0) < wanted.get(id)!);
    if (short.length > 0) {
      throw new ConflictError("Not enough stock to reserve every item.", {
        code: "insufficient_stock",
        details: {
          items: skuIds.map((id) => ({ sku_uid: id, quantity: wanted.get(id)!, available_quantity: available.get(id) ?? 0 })),
        },
      });
    }

    return tx.draftOrder.create({
      data: {
        organisationId,
        shopId: shop.id,
        kind: "RESERVATION",
        status: DRAFT_ORDER_STATUS.reserved,
        holdExpiresAt: new Date(now.getTime() + RESERVATION_HOLD_MINUTES * 60_000),
        lines: {
          create: items.map((item) => {
            const offer = offered.get(item.skuId)!;
            return { skuId: item.skuId, shopSkuId: offer.shopSkuId, quantity: item.quantity, unitPrice: offer.price };
          }),
        },
      },
      select: {
        id: true,
        legacyId: true,
        status: true,
        holdExpiresAt: true,
        lines: { select: { skuId: true, shopSkuId: true, quantity: true, unitPrice: true } },
      },
    });
  });
  const reservation = { status: draft.status, holdExpiresAt: draft.holdExpiresAt!, lines: draft.lines };
  if (!shopify) return { draftOrderId: draft.legacyId.toString(), ...reservation };

  let gid: string;
  let legacyId: string;
  try {
    ({ gid, legacyId } = await saveShopifyDraftOrder(
      shopify,
      {
        draftOrderId: draft.id,
        lines: draft.lines.map((l) => ({ variantGid: variantOf.get(l.skuId)!, quantity: l.quantity, unitPrice: l.unitPrice })),
        reserveUntil: reservation.holdExpiresAt,
      },
      null,
      wait,
    ));
  } catch (error) {
    // No hold without its Shopify draft: the reservation is refused, and nothing of it stays.
    await db.draftOrder.delete({ where: { id: draft.id } });
    throw shopPlatformError(error, "Shopify could not reserve the items");
  }
  await db.draftOrder.update({ where: { id: draft.id }, data: { shopifyDraftOrderGid: gid } });
  return { draftOrderId: legacyId, ...reservation };
}
