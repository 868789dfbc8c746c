import { database, type Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { WAITING_ROOM_STATUS } from "./statuses";

/**
 * Where an entry stands in its organisation's queue, and how long it may still wait
 * (docs/decisions/telemedicine.md#waiting-room-and-meetings):
 *
 *   position  = 1 + the organisation's waiting entries registered before this one (first come, first served)
 *   estimate  = ceil(position × mean consultation minutes / consulting doctors)
 *
 * The mean is over the organisation's last RECENT_CONSULTATIONS completed consultations
 * (allocated_at to completion), DEFAULT_CONSULTATION_MINUTES when there are none; consulting doctors
 * are those holding a patient now or who completed a consultation in the last
 * ACTIVE_DOCTOR_WINDOW_MINUTES, at least one. An entry that no longer waits has position 0 and
 * estimate 0.
 */
export const RECENT_CONSULTATIONS = 20;
export const DEFAULT_CONSULTATION_MINUTES = 15;
export const ACTIVE_DOCTOR_WINDOW_MINUTES = 60;

export type WaitingRoomStanding = {
  id: string;
  status: string;
  position: number;
  estimatedWaitMinutes: number;
  videoRoomId: string | null;
  allocatedAt: Date | null;
};

type Row = {
  id: string;
  status: string;
  videoRoomId: string | null;
  allocatedAt: Date | null;
  ahead: number;
  meanSeconds: number | null;
  doctors: number;
};

export function estimateWaitMinutes(position: number, meanSeconds: number | null, doctors: number): number {
  if (position <= 0) return 0;
  const meanMinutes = meanSeconds === null ? DEFAULT_CONSULTATION_MINUTES : meanSeconds / 60;
  return Math.ceil((position * meanMinutes) / Math.max(1, doctors));
}

/** One statement: the entry, the waiting entries ahead of it, the recent mean and the consulting doctors. */
export async function waitingRoomStanding(tx: Pick<Tx, "$queryRaw">, organisationId: string, entryId: string): Promise<WaitingRoomStanding> {
  const [row] = await tx.$queryRaw<Row[]>`
    SELECT me."id", me."status", me."videoRoomId", me."allocatedAt",
           (SELECT count(*)::int FROM "WaitingRoomEntry" w
             WHERE w."organisationId" = me."organisationId" AND w."status" = ${WAITING_ROOM_STATUS.waiting}
               AND (w."createdAt", w."id") < (me."createdAt", me."id")) AS "ahead",
           (SELECT avg(extract(epoch FROM r."completedAt" - r."allocatedAt"))::float8
              FROM (SELECT "completedAt", "allocatedAt" FROM "WaitingRoomEntry"
                     WHERE "organisationId" = me."organisationId" AND "status" = ${WAITING_ROOM_STATUS.completed}
                       AND "allocatedAt" IS NOT NULL AND "completedAt" IS NOT NULL
                     ORDER BY "completedAt" DESC LIMIT ${RECENT_CONSULTATIONS}) r) AS "meanSeconds",
           (SELECT count(DISTINCT "doctorId")::int FROM "WaitingRoomEntry"
             WHERE "organisationId" = me."organisationId" AND "doctorId" IS NOT NULL
               AND ("status" = ${WAITING_ROOM_STATUS.allocated}
                    OR ("status" = ${WAITING_ROOM_STATUS.completed}
                        AND "completedAt" > now() - ${ACTIVE_DOCTOR_WINDOW_MINUTES} * interval '1 minute'))) AS "doctors"
      FROM "WaitingRoomEntry" me
     WHERE me."id" = ${entryId} AND me."organisationId" = ${organisationId}`;
  if (!row) throw new NotFoundError();
  const position = row.status === WAITING_ROOM_STATUS.waiting ? row.ahead + 1 : 0;
  return {
    id: row.id,
    status: row.status,
    position,
    estimatedWaitMinutes: estimateWaitMinutes(position, row.meanSeconds, row.doctors),
    videoRoomId: row.videoRoomId,
    allocatedAt: row.allocatedAt === null ? null : new Date(row.allocatedAt), // Date or text, by driver
  };
}

/** GET /waiting-room/{queue_uid}/status: another organisation's entry is not found. */
export async function getWaitingRoomStatus(organisationId: string, entryId: string): Promise<WaitingRoomStanding> {
  return waitingRoomStanding(await database(), organisationId, entryId);
}
