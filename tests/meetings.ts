/** Doctors and patients for waiting-room and appointment tests, inserted directly (their own commands belong to other areas). */
import type { Tenant } from "./fixtures";

export async function addDoctor(t: Tenant, displayName = "Dr. Weber") {
  return t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName } });
}

export async function addPatient(t: Tenant, displayName = "Max Muster") {
  return t.db.patientProfile.create({ data: { organisationId: t.organisation.id, displayName } });
}

/** The outbox's patient_doctor_meeting_updated data of the organisation, oldest first. */
export async function meetingEvents(t: Tenant) {
  const rows = await t.db.outboxEvent.findMany({
    where: { organisationId: t.organisation.id, eventType: "patient_doctor_meeting_updated" },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => r.data as { meeting_uid: string; change: string; status: string | null });
}
