import { database } from "@/server/db/client";
import { ConflictError, FieldErrorCollector } from "@/server/domain/errors";
import { offeredSkus, type StockRequest } from "./offered-skus";
import { shopOfOrganisation } from "./shops";
import { DRAFT_ORDER_STATUS, RESERVATION_HOLD_MINUTES } from "./statuses";
import { availableQuantities } from "./stock";

export type Reservation = {
  legacyId: bigint;
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
 */
export async function reserveStock(
  organisationId: string,
  shopIdentifier: string,
  items: StockRequest[],
  now: Date = new Date(),
): Promise<Reservation> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const shop = await shopOfOrganisation(tx, organisationId, shopIdentifier);
    const offered = await offeredSkus(tx, shop.id, items.map((i) => i.skuId));
    const unknown = new FieldErrorCollector();
    items.forEach((item, i) => {
      if (!offered.has(item.skuId)) unknown.add(["items", i, "sku_uid"], UNKNOWN_SKU);
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

    const draft = await tx.draftOrder.create({
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
        legacyId: true,
        status: true,
        holdExpiresAt: true,
        lines: { select: { skuId: true, shopSkuId: true, quantity: true, unitPrice: true } },
      },
    });
    return { ...draft, holdExpiresAt: draft.holdExpiresAt! };
  });
}
