import { database } from "@/server/db/client";
import { DRAFT_ORDER_STATUS } from "./statuses";

/**
 * Marks reservations whose hold has ended as expired (the job every minute). Their stock stopped
 * counting as held when the hold ended (stock.ts); this makes the draft's status say so. A checkout
 * that consumed a reservation set it open first, so it is left alone. Returns how many expired.
 */
export async function expireReservations(now: Date = new Date()): Promise<number> {
  const db = await database();
  return db.$executeRaw`
    UPDATE "DraftOrder" SET "status" = ${DRAFT_ORDER_STATUS.expired}, "updatedAt" = now()
     WHERE "kind" = 'RESERVATION' AND "status" = ${DRAFT_ORDER_STATUS.reserved} AND "holdExpiresAt" <= ${now}::timestamptz`;
}
