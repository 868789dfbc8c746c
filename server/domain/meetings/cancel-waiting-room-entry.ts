import { database } from "@/server/db/client";
import { ConflictError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { lockWaitingRoomEntry } from "./lock";
import { WAITING_ROOM_STATUS } from "./statuses";

/**
 * Cancels a registration (DELETE /waiting-room/{queue_uid}; docs/decisions/telemedicine.md#waiting-room-and-meetings):
 * a waiting entry leaves the queue; an allocated one (the patient leaves the consultation) ends its
 * meeting (ends_at) with patient_doctor_meeting_updated (change cancelled, status null) and frees
 * the doctor. Cancelling a cancelled entry again changes nothing (`changed: false`, no second
 * event); a completed consultation cannot be cancelled (409).
 */
export async function cancelWaitingRoomEntry(
  organisationId: string,
  entryId: string,
  now = new Date(),
): Promise<{ queueUid: string; changed: boolean }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const entry = await lockWaitingRoomEntry(tx, organisationId, entryId);
      if (entry.status === WAITING_ROOM_STATUS.cancelled) return { queueUid: entry.id, changed: false };
      if (entry.status === WAITING_ROOM_STATUS.completed) {
        throw new ConflictError("The consultation is already completed: its registration can no longer be cancelled.");
      }
      await tx.waitingRoomEntry.update({ where: { id: entry.id }, data: { status: WAITING_ROOM_STATUS.cancelled, cancelledAt: now } });
      if (entry.status === WAITING_ROOM_STATUS.allocated) {
        const meeting = await tx.meeting.update({ where: { waitingRoomEntryId: entry.id }, data: { endsAt: now }, select: { id: true } });
        await recordPatientDoctorMeetingUpdated(tx, organisationId, { meeting_uid: meeting.id, change: "cancelled", status: null });
      }
      return { queueUid: entry.id, changed: true };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
