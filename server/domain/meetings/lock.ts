import type { Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

export type LockedEntry = {
  id: string;
  organisationId: string;
  patientId: string;
  doctorId: string | null;
  status: string;
};

/** Locks a waiting-room entry of the organisation for the rest of the transaction; another organisation's is not found. */
export async function lockWaitingRoomEntry(tx: Tx, organisationId: string, entryId: string): Promise<LockedEntry> {
  const [row] = await tx.$queryRaw<LockedEntry[]>`
    SELECT "id", "organisationId", "patientId", "doctorId", "status" FROM "WaitingRoomEntry"
     WHERE "id" = ${entryId} AND "organisationId" = ${organisationId}
       FOR UPDATE`;
  if (!row) throw new NotFoundError();
  return row;
}

export type LockedMeeting = {
  id: string;
  organisationId: string;
  kind: "ON_DEMAND" | "SCHEDULED";
  status: string | null;
  doctorId: string;
  patientId: string;
  startsAt: Date;
  endsAt: Date | null;
};

/**
 * Locks a meeting of the organisation (of the given kind, and of `doctorId` when given: a doctor's
 * reach) for the rest of the transaction; any other is not found.
 */
export async function lockMeeting(
  tx: Tx,
  organisationId: string,
  meetingId: string,
  kind: LockedMeeting["kind"],
  doctorId?: string,
): Promise<LockedMeeting> {
  const [row] = await tx.$queryRaw<LockedMeeting[]>`
    SELECT "id", "organisationId", "kind"::text AS "kind", "status", "doctorId", "patientId", "startsAt", "endsAt" FROM "Meeting"
     WHERE "id" = ${meetingId} AND "organisationId" = ${organisationId} AND "kind" = ${kind}::"MeetingKind"
       AND (${doctorId ?? null}::text IS NULL OR "doctorId" = ${doctorId ?? null})
       FOR UPDATE`;
  if (!row) throw new NotFoundError();
  // Timestamps of a raw row arrive as Date or text depending on the driver.
  return { ...row, startsAt: new Date(row.startsAt), endsAt: row.endsAt === null ? null : new Date(row.endsAt) };
}
