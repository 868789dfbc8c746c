import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { ConflictError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { lockWaitingRoomEntry } from "./lock";
import { WAITING_ROOM_STATUS } from "./statuses";

/**
 * The doctor ends the consultation (allocated → completed): completed_at on the entry, ends_at on
 * its meeting, patient_doctor_meeting_updated (change completed, status null); the doctor is free
 * for the next patient. Only the doctor holding the patient completes it; completing it again
 * changes nothing and records nothing (`changed: false`). A waiting, cancelled or another doctor's
 * entry cannot be completed (409).
 */
export async function completeConsultation(
  organisationId: string,
  doctorId: string,
  entryId: string,
  now = new Date(),
): Promise<{ queueUid: string; changed: boolean }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const entry = await lockWaitingRoomEntry(tx, organisationId, entryId);
      const own = entry.doctorId === doctorId;
      if (entry.status === WAITING_ROOM_STATUS.completed && own) return { queueUid: entry.id, changed: false };
      if (entry.status !== WAITING_ROOM_STATUS.allocated) {
        throw new ConflictError(errorText("meetings.cannotComplete", { status: entry.status }));
      }
      if (!own) throw new ConflictError(errorText("meetings.notYourConsultation"), { code: "not_your_consultation" });
      await tx.waitingRoomEntry.update({ where: { id: entry.id }, data: { status: WAITING_ROOM_STATUS.completed, completedAt: now } });
      const meeting = await tx.meeting.update({ where: { waitingRoomEntryId: entry.id }, data: { endsAt: now }, select: { id: true } });
      await recordPatientDoctorMeetingUpdated(tx, organisationId, { meeting_uid: meeting.id, change: "completed", status: null });
      return { queueUid: entry.id, changed: true };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
