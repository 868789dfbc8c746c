import { randomBytes } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { ConflictError, ValidationError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { WAITING_ROOM_STATUS } from "./statuses";

/**
 * How long a patient who asked for a doctor waits for that doctor alone; after it any doctor may
 * take them, so nobody waits for a doctor who is not there
 * (docs/decisions/telemedicine.md#waiting-room-and-meetings).
 */
export const PREFERRED_DOCTOR_GRACE_MINUTES = 10;

export type Allocation = {
  queueUid: string;
  meetingId: string;
  patientId: string;
  videoRoomId: string;
  allocatedAt: Date;
};

const doctorBusy = (queueUid: string | null) =>
  new ConflictError(errorText("meetings.doctorBusy"), {
    code: "doctor_busy",
    details: queueUid ? { queue_uid: queueUid } : {},
  });

/** The video room's id: opaque and unguessable (192 random bits), so nobody finds a room by trying ids. */
const newVideoRoomId = () => `vr_${randomBytes(24).toString("base64url")}`;

/**
 * A doctor takes the next patient (waiting → allocated): the oldest waiting entry of the
 * organisation that the doctor may take (it names no preferred doctor, names this one, or has
 * waited PREFERRED_DOCTOR_GRACE_MINUTES). Fills the doctor, video_room_id and allocated_at, opens
 * the on-demand meeting (status null) and records patient_doctor_meeting_updated (change
 * confirmed). Returns null when nobody is waiting for this doctor.
 *
 * Two doctors never take the same patient: the entry is claimed FOR UPDATE SKIP LOCKED, so a
 * concurrent call takes the next one. A doctor holds one patient at a time: the doctor's row is
 * locked first, so a doctor's concurrent calls run one after the other and the second finds the
 * first's patient (a 409 doctor_busy); the partial unique index
 * WaitingRoomEntry_one_allocated_per_doctor_key backs this up and answers the same.
 */
export async function takeNextPatient(organisationId: string, doctorId: string, now = new Date()): Promise<Allocation | null> {
  const db = await database();
  try {
    return await db.$transaction(
      async (tx) => {
        const doctors = await tx.$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "Doctor" WHERE "id" = ${doctorId} AND "organisationId" = ${organisationId} FOR UPDATE`;
        if (doctors.length === 0) throw ValidationError.field("doctor_uid", errorText("fields.unknownDoctor"));
        const current = await tx.waitingRoomEntry.findFirst({
          where: { doctorId, status: WAITING_ROOM_STATUS.allocated },
          select: { id: true },
        });
        if (current) throw doctorBusy(current.id);

        const graceEnd = new Date(now.getTime() - PREFERRED_DOCTOR_GRACE_MINUTES * 60_000);
        const [next] = await tx.$queryRaw<{ id: string; patientId: string }[]>`
          SELECT "id", "patientId" FROM "WaitingRoomEntry"
           WHERE "organisationId" = ${organisationId} AND "status" = ${WAITING_ROOM_STATUS.waiting}
             AND ("preferredDoctorId" IS NULL OR "preferredDoctorId" = ${doctorId} OR "createdAt" <= ${graceEnd}::timestamptz)
           ORDER BY "createdAt", "id"
           LIMIT 1
             FOR UPDATE SKIP LOCKED`;
        if (!next) return null;

        const videoRoomId = newVideoRoomId();
        await tx.waitingRoomEntry.update({
          where: { id: next.id },
          data: { status: WAITING_ROOM_STATUS.allocated, doctorId, videoRoomId, allocatedAt: now },
        });
        const meeting = await tx.meeting.create({
          data: {
            organisationId,
            kind: "ON_DEMAND",
            status: null,
            doctorId,
            patientId: next.patientId,
            waitingRoomEntryId: next.id,
            videoRoomId,
            startsAt: now,
          },
          select: { id: true },
        });
        await recordPatientDoctorMeetingUpdated(tx, organisationId, { meeting_uid: meeting.id, change: "confirmed", status: null });
        return { queueUid: next.id, meetingId: meeting.id, patientId: next.patientId, videoRoomId, allocatedAt: now };
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw doctorBusy(null);
    throw error;
  }
}
