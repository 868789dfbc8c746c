import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { WAITING_ROOM_STATUS } from "./statuses";
import { waitingRoomStanding, type WaitingRoomStanding } from "./waiting-room-queries";

export type WaitingRoomRegistration = {
  shopId: string;
  patientId: string;
  preferredDoctorId?: string | null;
  visitReason?: string | null;
};

/**
 * Puts a patient of the organisation in its waiting room (POST /waiting-room/register). The shop,
 * the patient profile and the preferred doctor must be the organisation's (else not found, the same
 * answer for an unknown uid). A patient who already waits or is with a doctor gets that
 * entry back (`created: false`) instead of a second place in the queue, so a retried request is
 * safe: the patient's row is locked first, so concurrent registrations of one patient make one entry
 * (docs/decisions/telemedicine.md#waiting-room-and-meetings).
 */
export async function registerInWaitingRoom(
  organisationId: string,
  input: WaitingRoomRegistration,
): Promise<{ standing: WaitingRoomStanding; created: boolean }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const shop = await tx.shop.findFirst({ where: { id: input.shopId, organisationId }, select: { id: true } });
      const doctor = input.preferredDoctorId
        ? await tx.doctor.findFirst({ where: { id: input.preferredDoctorId, organisationId }, select: { id: true } })
        : null;
      const patients = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "PatientProfile" WHERE "id" = ${input.patientId} AND "organisationId" = ${organisationId} FOR UPDATE`;
      if (!shop || patients.length === 0 || (input.preferredDoctorId && !doctor)) throw new NotFoundError();

      const active = await tx.waitingRoomEntry.findFirst({
        where: {
          organisationId,
          patientId: input.patientId,
          status: { in: [WAITING_ROOM_STATUS.waiting, WAITING_ROOM_STATUS.allocated] },
        },
        select: { id: true },
      });
      if (active) return { standing: await waitingRoomStanding(tx, organisationId, active.id), created: false };

      const entry = await tx.waitingRoomEntry.create({
        data: {
          organisationId,
          shopId: input.shopId,
          patientId: input.patientId,
          preferredDoctorId: input.preferredDoctorId ?? null,
          visitReason: input.visitReason || null,
          status: WAITING_ROOM_STATUS.waiting,
        },
        select: { id: true },
      });
      return { standing: await waitingRoomStanding(tx, organisationId, entry.id), created: true };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
