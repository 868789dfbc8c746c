import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ValidationError } from "@/server/domain/errors";
import { recordPrescriptionUpdated } from "@/server/domain/events/prescription-events";
import { lockPrescription } from "@/server/domain/prescriptions/lock";
import { lockDoctor, REQUEUE_STATUSES } from "./doctor-settings";

/**
 * "Requeue pending prescriptions" (docs/decisions/admin-tool.md#the-doctors-section): the doctor's
 * requests that are not decided yet (waiting for doctor, on hold) go back to the pool (unassigned:
 * every doctor who may see them is offered them) or to a named active colleague. Approved ones are
 * being signed and stay with the doctor, as do signed and declined ones.
 *
 * One transaction: both doctors' rows are locked (by id, so two requeues between the same two
 * doctors in opposite directions cannot wait on each other), then each request under its own lock
 * (lock.ts: its order first), in the order of their orders, the order every multi-request command
 * takes them in. Under its lock each request is looked at again: one decided or moved meanwhile (a
 * concurrent requeue) is left as it is, so each moves once. Each move emits prescription_updated
 * with the doctor's change (from/to, reason "requeue"); the whole requeue is one audit entry.
 */
export type RequeueTarget = { kind: "pool" } | { kind: "doctor"; doctorId: string };

export async function requeuePendingPrescriptions(
  organisationId: string,
  adminUserId: string,
  fromDoctorId: string,
  target: RequeueTarget,
): Promise<{ moved: string[] }> {
  const toDoctorId = target.kind === "doctor" ? target.doctorId : null;
  if (toDoctorId === fromDoctorId) throw ValidationError.field("to_doctor_uid", errorText("doctors.requeueToSelf"));
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const lockOrder = [fromDoctorId, ...(toDoctorId ? [toDoctorId] : [])].sort();
      const locked = new Map<string, Awaited<ReturnType<typeof lockDoctor>>>();
      for (const id of lockOrder) {
        try {
          locked.set(id, await lockDoctor(tx, organisationId, id));
        } catch (error) {
          if (id === toDoctorId) throw ValidationError.field("to_doctor_uid", errorText("fields.unknownDoctor"));
          throw error;
        }
      }
      const from = locked.get(fromDoctorId)!;
      const to = toDoctorId ? locked.get(toDoctorId)! : null;
      if (to?.deactivatedAt) throw ValidationError.field("to_doctor_uid", errorText("doctors.targetDeactivated"));

      const candidates = await tx.prescription.findMany({
        where: { organisationId, doctorId: fromDoctorId, deletedAt: null, status: { in: REQUEUE_STATUSES } },
        select: { id: true, orderId: true },
      });
      candidates.sort((a, b) => (a.orderId ?? "").localeCompare(b.orderId ?? "") || a.id.localeCompare(b.id));
      const moved: string[] = [];
      for (const candidate of candidates) {
        const p = await lockPrescription(tx, organisationId, candidate.id);
        if (p.doctorId !== fromDoctorId || !REQUEUE_STATUSES.includes(p.status)) continue;
        await tx.prescription.update({ where: { id: p.id }, data: { doctorId: toDoctorId } });
        await recordPrescriptionUpdated(tx, p, p.status, { doctorAssignmentReason: "requeue" });
        moved.push(p.id);
      }
      if (moved.length > 0) {
        await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
          entity: "doctor",
          entityId: fromDoctorId,
          action: "requeued",
          values: { count: moved.length, name: from.displayName, to: to?.displayName ?? null, hasTo: String(Boolean(to)) },
          summary: `${moved.length} pending prescription(s) of "${from.displayName}" requeued ${to ? `to "${to.displayName}"` : "to the pool"}`,
          details: { to_doctor_uid: toDoctorId, prescription_uids: moved },
        });
      }
      return { moved };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}

/** Who a doctor's requests may be requeued to: the organisation's other active doctors, by name. */
export async function requeueTargets(organisationId: string, doctorId: string): Promise<{ id: string; displayName: string }[]> {
  const db = await database();
  return db.doctor.findMany({
    where: { organisationId, deactivatedAt: null, id: { not: doctorId } },
    select: { id: true, displayName: true },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
  });
}
