/**
 * The e-mails that changes cause, against a real SMTP server in this process (tests/smtp-server.ts):
 * meeting e-mails behind the organisation's default-off setting (one per change and recipient, a
 * reschedule one e-mail, never a cancellation and a confirmation; the webhook event unchanged),
 * what a patient wrote escaped in the HTML, and the pharmacy_email notice of a new pharmacy order
 * (its name and portal link, no patient data).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { cancelAppointment } from "@/server/domain/meetings/cancel-appointment";
import { rescheduleAppointment } from "@/server/domain/meetings/reschedule-appointment";
import { scheduleAppointment } from "@/server/domain/meetings/schedule-appointment";
import { releaseOrderHold } from "@/server/domain/orders/release-order-hold";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { addDoctor, addPatient, meetingEvents } from "@/tests/meetings";
import { createTestOrder, fulfillmentAt, item, orderBody, withShopSkus } from "@/tests/orders";
import { useSmtpRelay } from "@/tests/mail";
import { until } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";
import { changeMeetingEmailRecipients } from "./meeting-email-setting";

const relay = useSmtpRelay();
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000);
const unique = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Every message queued for the organisation, oldest first. */
const outbox = (t: Tenant) => t.db.mailMessage.findMany({ where: { organisationId: t.organisation.id }, orderBy: { createdAt: "asc" } });

describe("meeting e-mails", () => {
  let t: Tenant;
  let admin: { id: string; email: string };
  beforeAll(async () => {
    t = await createTenant();
    admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  });

  async function participants(patientName = "Max Muster") {
    const doctor = await t.db.doctor.update({ where: { id: (await addDoctor(t, "Dr. Anna Weber")).id }, data: { email: unique("doctor") } });
    const patient = await t.db.patientProfile.update({ where: { id: (await addPatient(t, patientName)).id }, data: { email: unique("patient") } });
    return { doctor, patient };
  }

  it("are off by default: booking, moving and cancelling send none, and the webhook events are as always", async () => {
    const { doctor, patient } = await participants();
    const booked = await scheduleAppointment(t.organisation.id, { doctorId: doctor.id, patientId: patient.id, startsAt: inHours(30), durationMinutes: 30 });
    const moved = await rescheduleAppointment(t.organisation.id, booked.meetingId, { startsAt: inHours(40), reason: "Patient asked" });
    await cancelAppointment(t.organisation.id, moved.meetingId, "Doctor ill");
    expect(await outbox(t)).toEqual([]);
    expect((await meetingEvents(t)).map((e) => e.change)).toEqual(["confirmed", "cancelled", "rebooked", "cancelled"]);
  });

  it("once chosen, one e-mail per change and recipient: confirmed, one for a reschedule, cancelled", async () => {
    await changeMeetingEmailRecipients(t.organisation.id, admin.id, ["patient", "doctor"]);
    const { doctor, patient } = await participants();
    const startsAt = new Date(Date.UTC(2031, 2, 14, 9, 30));
    const booked = await scheduleAppointment(t.organisation.id, { doctorId: doctor.id, patientId: patient.id, startsAt, durationMinutes: 45 });
    expect((await outbox(t)).map((m) => [m.kind, m.recipient])).toEqual([
      ["meeting_confirmed", patient.email],
      ["meeting_confirmed", doctor.email],
    ]);
    const moved = await rescheduleAppointment(t.organisation.id, booked.meetingId, { startsAt: new Date(Date.UTC(2031, 2, 21, 14, 0)), reason: "Patient asked" });
    await cancelAppointment(t.organisation.id, moved.meetingId, "Doctor ill");
    await cancelAppointment(t.organisation.id, moved.meetingId, "Again: changes nothing");
    const kinds = (await outbox(t)).map((m) => `${m.kind} ${m.recipient === patient.email ? "patient" : "doctor"}`);
    expect(kinds).toEqual([
      "meeting_confirmed patient",
      "meeting_confirmed doctor",
      "meeting_rescheduled patient",
      "meeting_rescheduled doctor",
      "meeting_cancelled patient",
      "meeting_cancelled doctor",
    ]);
    // The webhook does not change with the e-mails.
    expect((await meetingEvents(t)).slice(-3).map((e) => e.change)).toEqual(["cancelled", "rebooked", "cancelled"]);

    await relay.startRunner();
    await until(async () => (await outbox(t)).every((m) => m.status === "SENT"));
    // Sent side by side: their order of arrival is not the order of the changes.
    const toPatient = new Map(relay.smtp.received.filter((m) => m.to.includes(patient.email!)).map((m) => [m.subject, m]));
    expect([...toPatient.keys()].sort()).toEqual([
      "Termin abgesagt: Freitag, 21. März 2031 um 15:00 MEZ",
      "Termin bestätigt: Freitag, 14. März 2031 um 10:30 MEZ",
      "Termin verschoben auf Freitag, 21. März 2031 um 15:00 MEZ",
    ]);
    const moveText = toPatient.get("Termin verschoben auf Freitag, 21. März 2031 um 15:00 MEZ")!.text;
    expect(moveText).toMatch(/^Guten Tag Max Muster,/);
    expect(moveText).toContain("Der Termin von Max Muster bei Dr. Anna Weber wurde von Freitag, 14. März 2031 um 10:30 MEZ auf Freitag, 21. März 2031 um 15:00 MEZ verschoben (45 Minuten).");
  });

  it("go to the admins in their own language, one e-mail per address", async () => {
    await t.db.user.update({ where: { id: admin.id }, data: { locale: "en" } });
    await changeMeetingEmailRecipients(t.organisation.id, admin.id, ["admins", "doctor"]);
    const { doctor, patient } = await participants();
    // The doctor's address is also an admin's: one e-mail.
    await t.db.doctor.update({ where: { id: doctor.id }, data: { email: admin.email.toUpperCase() } });
    const before = (await outbox(t)).length;
    await scheduleAppointment(t.organisation.id, { doctorId: doctor.id, patientId: patient.id, startsAt: new Date(Date.UTC(2031, 6, 1, 8, 0)), durationMinutes: 30 });
    const queued = (await outbox(t)).slice(before);
    expect(queued.map((m) => [m.kind, m.recipient.toLowerCase(), m.locale])).toEqual([["meeting_confirmed", admin.email, "en"]]);
    expect(queued[0].subject).toBe("Appointment confirmed: Tuesday, July 1, 2031 at 10:00 GMT+2");
  });

  it("escape in the HTML what a patient's name holds", async () => {
    await changeMeetingEmailRecipients(t.organisation.id, admin.id, ["patient"]);
    const { doctor, patient } = await participants(`<img src=x onerror="alert(1)"> & 'Co'`);
    await scheduleAppointment(t.organisation.id, { doctorId: doctor.id, patientId: patient.id, startsAt: inHours(50), durationMinutes: 30 });
    await relay.startRunner();
    const mail = await relay.mailTo(patient.email!);
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("Guten Tag &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Co&#39;,");
    expect(mail.text).toContain(`Guten Tag <img src=x onerror="alert(1)"> & 'Co',`);
  });
});

describe("the pharmacy_email notice", () => {
  let t: Tenant;
  let otc: string;
  beforeAll(async () => {
    t = await createTenant();
    otc = (await withShopSkus(t)).otcReference;
  });

  it("tells pharmacy_email of each new pharmacy order at the order's pharmacy_uid: its name and portal link, no patient data", async () => {
    const to = unique("apotheke-a");
    const order = await createTestOrder(
      t,
      orderBody(t, [], {
        customer: { id: "c-notice", email: "erika.private@example.com" },
        pharmacy_uid: t.pharmacy.id,
        pharmacy_email: to,
        fulfillments: [fulfillmentAt("f-a", t.pharmacy.id, [item(otc, { quantity: 2 }), item(otc)]), fulfillmentAt("f-b", t.groupPharmacy.id, [item(otc)])],
      }),
    );
    const [atA] = order.pharmacyOrders;
    const queued = await outbox(t);
    expect(queued.map((m) => [m.kind, m.recipient, m.subjectId, m.locale])).toEqual([["pharmacy_order_created", to, atA.id, "de"]]);

    await relay.startRunner();
    const mail = await relay.mailTo(to);
    expect(mail.subject).toBe(`Neue Bestellung ${atA.name}`);
    expect(mail.text).toContain(`${t.organisation.displayName} hat eine neue Bestellung an Apotheke A gesendet: ${atA.name}, 2 Artikel.`);
    expect(mail.html).toContain(`href="http://localhost:3000/pharmacy/orders/${atA.id}"`);
    for (const body of [mail.text, mail.html]) {
      for (const personal of ["Erika", "Mustermann", "Hauptstra", "erika.private", "c-notice"]) expect(body).not.toContain(personal);
    }
  });

  it("without pharmacy_uid, for every pharmacy order; an order on hold tells it when released; none without pharmacy_email", async () => {
    const to = unique("apotheke");
    const plain = await createTestOrder(t, orderBody(t, [], { pharmacy_email: to, fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(otc)]), fulfillmentAt("f-2", t.groupPharmacy.id, [item(otc)])] }));
    expect((await t.db.mailMessage.findMany({ where: { recipient: to } })).map((m) => m.subjectId).sort()).toEqual(plain.pharmacyOrders.map((p) => p.id).sort());

    const held = unique("held");
    const onHold = await createTestOrder(t, orderBody(t, [], { pharmacy_email: held, on_hold: true, fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(otc)])] }));
    expect(await t.db.mailMessage.count({ where: { recipient: held } })).toBe(0);
    await releaseOrderHold(t.organisation.id, onHold.orderId, { type: "SYSTEM" });
    const released = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: onHold.orderId } });
    expect(await t.db.mailMessage.findMany({ where: { recipient: held }, select: { subjectId: true } })).toEqual([{ subjectId: released.id }]);

    const before = await t.db.mailMessage.count();
    await createTestOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(otc)])] }));
    expect(await t.db.mailMessage.count()).toBe(before);
  });
});
