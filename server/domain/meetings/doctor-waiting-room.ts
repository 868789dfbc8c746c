import { database } from "@/server/db/client";
import { PREFERRED_DOCTOR_GRACE_MINUTES } from "./take-next-patient";
import { WAITING_ROOM_STATUS } from "./statuses";

/** The waiting room shows at most this many waiting entries (the first in line); the total says how many wait. */
export const WAITING_ROOM_LIST_LIMIT = 100;

/**
 * The waiting room as a doctor sees it: the patient they hold now (allocated to them, with the
 * meeting), and the organisation's waiting entries in line order (position 1 is taken next, the
 * order takeNextPatient uses), each saying whether this doctor may take it now (it names no
 * preferred doctor, names this one, or has waited PREFERRED_DOCTOR_GRACE_MINUTES).
 */
export async function getDoctorWaitingRoom(organisationId: string, doctorId: string, now = new Date()) {
  const db = await database();
  const patient = { select: { id: true, displayName: true, firstName: true, lastName: true, email: true, dateOfBirth: true } } as const;
  const waitingWhere = { organisationId, status: WAITING_ROOM_STATUS.waiting };
  const [current, waiting, total] = await Promise.all([
    db.waitingRoomEntry.findFirst({
      where: { organisationId, doctorId, status: WAITING_ROOM_STATUS.allocated },
      select: { id: true, visitReason: true, videoRoomId: true, allocatedAt: true, createdAt: true, patient, meeting: { select: { id: true } } },
    }),
    db.waitingRoomEntry.findMany({
      where: waitingWhere,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: WAITING_ROOM_LIST_LIMIT,
      select: { id: true, visitReason: true, createdAt: true, preferredDoctorId: true, preferredDoctor: { select: { displayName: true } }, patient },
    }),
    db.waitingRoomEntry.count({ where: waitingWhere }),
  ]);
  const graceEnd = now.getTime() - PREFERRED_DOCTOR_GRACE_MINUTES * 60_000;
  return {
    current,
    total,
    waiting: waiting.map((entry, index) => ({
      ...entry,
      position: index + 1,
      takeableByMe: entry.preferredDoctorId === null || entry.preferredDoctorId === doctorId || entry.createdAt.getTime() <= graceEnd,
    })),
  };
}

export type DoctorWaitingRoom = Awaited<ReturnType<typeof getDoctorWaitingRoom>>;
