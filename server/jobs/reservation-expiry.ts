import { expireReservations } from "@/server/domain/storefront/expire-reservations";
import { log } from "@/server/log";

/** Marks reservations whose hold ended as expired, every minute, on Inngest or in-process. */
export const RESERVATION_EXPIRY_JOB = { id: "reservation-expiry", cron: "* * * * *", everyMs: 60_000 } as const;

export async function runReservationExpiry(now = new Date()): Promise<{ expired: number }> {
  const expired = await expireReservations(now);
  if (expired > 0) log.info("reservations expired", { job: RESERVATION_EXPIRY_JOB.id, expired });
  return { expired };
}
