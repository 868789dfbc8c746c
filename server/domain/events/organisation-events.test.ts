import { describe, expect, it } from "vitest";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { createTenant } from "@/tests/fixtures";
import { recordAppointmentReminderDue, recordPatientDoctorMeetingUpdated } from "./organisation-events";

describe("organisation-only events", () => {
  it("record their data as captured and go to organisation subscriptions only", async () => {
    const t = await createTenant();
    const sealed = "v1.x.y.z";
    const org = await t.db.webhookSubscription.create({
      data: { organisationId: t.organisation.id, scope: "ORGANISATION", notificationType: "patient_doctor_meeting_updated", target: "https://93.184.215.14/m", secretEncrypted: sealed },
    });
    // A pharmacy-scoped row of this type cannot be registered through the APIs; even if one existed it gets nothing.
    const pharmacy = await t.db.webhookSubscription.create({
      data: { organisationId: t.organisation.id, scope: "PHARMACY", pharmacyId: t.pharmacy.id, notificationType: "patient_doctor_meeting_updated", target: "https://93.184.215.14/p", secretEncrypted: sealed },
    });
    await t.db.$transaction(async (tx) => {
      await recordPatientDoctorMeetingUpdated(tx, t.organisation.id, { meeting_uid: "m-old", change: "cancelled", status: "cancelled" });
      await recordPatientDoctorMeetingUpdated(tx, t.organisation.id, { meeting_uid: "m-new", change: "rebooked", status: null });
    });
    const events = await t.db.outboxEvent.findMany({ where: { organisationId: t.organisation.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.data)).toEqual([
      { meeting_uid: "m-old", change: "cancelled", status: "cancelled" },
      { meeting_uid: "m-new", change: "rebooked", status: null },
    ]);
    await dispatchOutboxEvents();
    expect(await t.db.webhookDelivery.count({ where: { subscriptionId: org.id } })).toBe(2);
    expect(await t.db.webhookDelivery.count({ where: { subscriptionId: pharmacy.id } })).toBe(0);
  });

  it("refuse payloads that break their rules, writing nothing", async () => {
    const t = await createTenant();
    await expect(
      t.db.$transaction((tx) =>
        recordAppointmentReminderDue(tx, t.organisation.id, { appointment_uid: "a-1", recipient_role: "doctor", rebook_allowed: true, cancel_allowed: false, starts_at: 1_800_000_000 }),
      ),
    ).rejects.toThrow(/only when recipient_role is patient/);
    await expect(
      t.db.$transaction((tx) => recordPatientDoctorMeetingUpdated(tx, t.organisation.id, { meeting_uid: "m", change: "moved" as never, status: null })),
    ).rejects.toThrow();
    expect(await t.db.outboxEvent.count({ where: { organisationId: t.organisation.id } })).toBe(0);
    await t.db.$transaction((tx) =>
      recordAppointmentReminderDue(tx, t.organisation.id, { appointment_uid: "a-2", recipient_role: "patient", rebook_allowed: true, cancel_allowed: true, starts_at: 1_800_000_000 }),
    );
    expect(await t.db.outboxEvent.count({ where: { organisationId: t.organisation.id, eventType: "appointment_reminder_due" } })).toBe(1);
  });
});
