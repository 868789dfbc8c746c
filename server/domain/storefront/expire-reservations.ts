import { database } from "@/server/db/client";
import { enqueueShopifyDraftDeletion } from "@/server/domain/shopify/draft-orders";
import { DRAFT_ORDER_STATUS } from "./statuses";

/**
 * Marks reservations whose hold has ended as expired (the job every minute). Their stock stopped
 * counting as held when the hold ended (stock.ts); this makes the draft's status say so. A checkout
 * that consumed a reservation set it open first, so it is left alone. A reservation with a Shopify
 * draft gets, in the same transaction, the background task that deletes that draft (Shopify ended
 * its inventory reservation at the same time; the deletion clears the abandoned draft from the
 * Shopify admin). Returns how many expired.
 */
export async function expireReservations(now: Date = new Date()): Promise<number> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const expired = await tx.$queryRaw<{ id: string; shopId: string; shopifyDraftOrderGid: string | null }[]>`
      UPDATE "DraftOrder" SET "status" = ${DRAFT_ORDER_STATUS.expired}, "updatedAt" = now()
       WHERE "kind" = 'RESERVATION' AND "status" = ${DRAFT_ORDER_STATUS.reserved} AND "holdExpiresAt" <= ${now}::timestamptz
   RETURNING "id", "shopId", "shopifyDraftOrderGid"`;
    for (const draft of expired) {
      if (draft.shopifyDraftOrderGid) await enqueueShopifyDraftDeletion(tx, { ...draft, shopifyDraftOrderGid: draft.shopifyDraftOrderGid });
    }
    return expired.length;
  });
}
