import { randomUUID } from "node:crypto";
import type { RawTx } from "@/server/db/client";
import { presentedStatus } from "@/server/domain/prescriptions/statuses";
import { outboxInsertSql } from "./outbox";

/**
 * The prescription events of organisation subscriptions (docs/decisions/webhooks.md#order-and-prescription-events):
 * prescription_created when a prescription is recorded (a doctor's request of order intake, an inline
 * signed PDF), prescription_updated when its status or its doctor changes (each decision, external
 * signing, a cancelled fulfillment). Both are written in the transaction of the change; the payload
 * is the prescription as GET /v1/management/prescriptions/{uid} shows it at send time, and
 * prescription_updated adds what changed, captured here.
 */

/**
 * Why the assigned doctor changed. decision: the doctor who made the decision was assigned (a request
 * taken from the doctors' queue, or a decision naming another doctor); requeue: the admin team moved
 * the doctor's pending requests to the pool or to a colleague (server/domain/doctors/requeue.ts).
 */
export const DOCTOR_ASSIGNMENT_REASONS = ["decision", "requeue"] as const;
export type DoctorAssignmentReason = (typeof DOCTOR_ASSIGNMENT_REASONS)[number];

/**
 * What prescription_updated records. Statuses in their one spelling; `reason` is the note the change
 * was made with (a hold's question, a decline's reason), null without one; the doctor fields are the
 * assignment before and after, and doctor_assignment_reason is null unless the doctor changed.
 */
export type PrescriptionChange = {
  from_status: string;
  to_status: string;
  reason: string | null;
  from_doctor_uid: string | null;
  to_doctor_uid: string | null;
  doctor_assignment_reason: DoctorAssignmentReason | null;
};

export async function recordPrescriptionCreated(tx: RawTx, prescription: { organisationId: string; id: string }): Promise<void> {
  await tx.$executeRaw`${outboxInsertSql({ type: "prescription_created", organisationId: prescription.organisationId, subjectId: prescription.id })}`;
}

/**
 * prescription_updated for a change of `before` (the prescription as locked before the change) to
 * `toStatus`, called after the prescription's row was written: the doctor after the change is read
 * from it in the same statement, so a caller need not say whether it changed.
 */
export async function recordPrescriptionUpdated(
  tx: RawTx,
  before: { id: string; organisationId: string; status: string; doctorId: string | null },
  toStatus: string,
  options: { reason?: string | null; doctorAssignmentReason?: DoctorAssignmentReason } = {},
): Promise<void> {
  const change = {
    from_status: presentedStatus(before.status),
    to_status: presentedStatus(toStatus),
    reason: options.reason?.trim() || null,
    from_doctor_uid: before.doctorId,
  };
  const assignmentReason: DoctorAssignmentReason = options.doctorAssignmentReason ?? "decision";
  await tx.$executeRaw`
    INSERT INTO "OutboxEvent" ("id", "eventType", "organisationId", "pharmacyId", "subjectId", "data", "createdAt")
    SELECT ${randomUUID()}, 'prescription_updated', p."organisationId", NULL, p."id",
           ${JSON.stringify(change)}::jsonb || jsonb_build_object(
             'to_doctor_uid', p."doctorId",
             'doctor_assignment_reason', CASE WHEN p."doctorId" IS DISTINCT FROM ${before.doctorId}::text THEN ${assignmentReason}::text END),
           clock_timestamp()
      FROM "Prescription" p
     WHERE p."id" = ${before.id}`;
}
