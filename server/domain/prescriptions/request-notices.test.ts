/**
 * The new-request e-mails to doctors (docs/decisions/prescriptions.md#new-request-e-mails-to-doctors), on a real
 * database with requests that real order intake created and a real SMTP server (tests/smtp-server.ts):
 * off by default, one e-mail with counts and the queue link (no patient data) in the doctor's
 * language, at most one per 15 minutes (the run's clock is passed in), the doctor queue's rule for
 * whose requests count, one e-mail for two runs at once, and the doctor's own setting over tRPC, audited.
 */
import { describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { config } from "@/server/config";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { EMBEDDED_JOBS } from "@/server/jobs/embedded-runner";
import { DOCTOR_REQUEST_NOTICE_JOB, runDoctorRequestNotices } from "@/server/jobs/doctor-request-notices";
import { doctorRequestNotices } from "@/server/jobs/inngest";
import { createCaller } from "@/server/trpc/router";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { useSmtpRelay } from "@/tests/mail";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { createPortalUser } from "@/tests/webhook-logs";
import { REQUEST_NOTICE_INTERVAL_MS, sendDoctorRequestNotices, sendRequestNoticeTo } from "./request-notices";

const relay = useSmtpRelay();
const MINUTE = 60_000;
const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });

/** A tenant with shop SKUs and a doctor who may sign in (their user's language as given), the setting on unless told. */
async function setUp(options: { on?: boolean; locale?: string | null } = {}) {
  const t = await createTenant();
  const refs = await withShopSkus(t);
  const doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Anna Weber", email: null } });
  const user = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id });
  await t.db.user.update({ where: { id: user.id }, data: { locale: options.locale === undefined ? "en" : options.locale } });
  if (options.on !== false) await as(user).doctor.notices.set({ enabled: true });
  return { t, refs, doctor, user };
}

/** The doctor's new-request e-mails in the outbox, oldest first, with their bodies. */
async function noticesTo(t: Tenant, doctorId: string) {
  const rows = await t.db.mailMessage.findMany({ where: { organisationId: t.organisation.id, kind: "doctor_requests_waiting", subjectId: doctorId }, orderBy: { createdAt: "asc" } });
  return rows.map((m) => ({ ...m, text: openSecret(m.sealedText!), html: openSecret(m.sealedHtml!) }));
}

describe("new-request e-mails to doctors", () => {
  it("run every minute in-process and as an Inngest cron", () => {
    expect(EMBEDDED_JOBS.find((j) => j.id === DOCTOR_REQUEST_NOTICE_JOB.id)?.everyMs).toBe(60_000);
    expect(doctorRequestNotices.opts).toMatchObject({ id: "doctor-request-notices", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } });
  });

  it("are off by default: a waiting request sends nothing", async () => {
    const { t, refs, doctor, user } = await setUp({ on: false });
    expect(await as(user).doctor.notices.get()).toMatchObject({ enabled: false, mailerConfigured: true });
    await placeWaitingOrder(t, refs);
    await runDoctorRequestNotices();
    expect(await noticesTo(t, doctor.id)).toEqual([]);
  });

  it("send nothing while no request waits", async () => {
    const { t, doctor } = await setUp();
    await runDoctorRequestNotices();
    expect(await noticesTo(t, doctor.id)).toEqual([]);
    expect((await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).newRequestsNotifiedAt).toBeNull();
  });

  it("send one e-mail with the counts and the queue link, no patient data, and it reaches the relay", async () => {
    const { t, refs, doctor, user } = await setUp();
    const first = await placeWaitingOrder(t, refs);
    await placeWaitingOrder(t, refs, { customerId: "rx-customer-2" });
    const now = new Date();
    await runDoctorRequestNotices(now);
    const [notice, ...more] = await noticesTo(t, doctor.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ recipient: user.email, locale: "en", subject: "2 new prescription requests wait for you" });
    expect(notice.text).toContain("2 new prescription requests have arrived in your queue");
    expect(notice.text).toContain("In all, 2 requests wait for you.");
    expect(notice.text).toContain(`${config().baseUrl}/admin/doctor`);
    expect((await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).newRequestsNotifiedAt).toEqual(now);

    // Nothing of the patient: their names, date of birth, e-mail, the order's name.
    const p = await t.db.prescription.findUniqueOrThrow({ where: { id: first.prescriptionId }, select: { patient: true, order: { select: { name: true } } } });
    const personal = [p.patient.displayName, p.patient.firstName, p.patient.lastName, p.patient.email, p.order?.name, first.prescriptionId].filter((v): v is string => Boolean(v));
    expect(personal.length).toBeGreaterThanOrEqual(3);
    for (const value of personal) for (const part of [notice.subject, notice.text, notice.html]) expect(part).not.toContain(value);

    await relay.startRunner();
    const received = await relay.mailTo(user.email);
    expect(received.subject).toBe("2 new prescription requests wait for you");
    expect(received.text).toContain(`${config().baseUrl}/admin/doctor`);
  });

  it("are written in German when the doctor chose no language", async () => {
    const { t, refs, doctor } = await setUp({ locale: null });
    await placeWaitingOrder(t, refs);
    await runDoctorRequestNotices();
    const [notice] = await noticesTo(t, doctor.id);
    expect(notice).toMatchObject({ locale: "de", subject: "1 neue Rezeptanfrage wartet auf Sie" });
    expect(notice.text).toContain("Insgesamt wartet 1 Anfrage auf Sie.");
  });

  it("send at most one e-mail per 15 minutes, then one about the requests that came since", async () => {
    const { t, refs, doctor } = await setUp();
    await placeWaitingOrder(t, refs);
    const start = new Date();
    await runDoctorRequestNotices(start);
    expect(await noticesTo(t, doctor.id)).toHaveLength(1);

    // A new request within the 15 minutes: no e-mail, up to the last minute of them.
    await placeWaitingOrder(t, refs, { customerId: "rx-customer-2" });
    await runDoctorRequestNotices(new Date(start.getTime() + MINUTE));
    await runDoctorRequestNotices(new Date(start.getTime() + REQUEST_NOTICE_INTERVAL_MS - 1));
    expect(await noticesTo(t, doctor.id)).toHaveLength(1);

    // 15 minutes on: one more, counting only the request since the last e-mail as new.
    const later = new Date(start.getTime() + REQUEST_NOTICE_INTERVAL_MS);
    await runDoctorRequestNotices(later);
    await runDoctorRequestNotices(new Date(later.getTime() + MINUTE));
    const notices = await noticesTo(t, doctor.id);
    expect(notices.map((n) => n.subject)).toEqual(["1 new prescription request waits for you", "1 new prescription request waits for you"]);
    expect(notices[1].text).toContain("In all, 2 requests wait for you.");

    // Another 15 minutes without a new request: nothing, though two still wait.
    await runDoctorRequestNotices(new Date(later.getTime() + REQUEST_NOTICE_INTERVAL_MS + MINUTE));
    expect(await noticesTo(t, doctor.id)).toHaveLength(2);
  });

  it("hold the 15 minutes in the claim itself, whatever a run read before it", async () => {
    const { t, refs, doctor } = await setUp();
    await placeWaitingOrder(t, refs);
    const start = new Date();
    expect(await sendRequestNoticeTo(doctor.id, start)).toBe(true);
    // A run that chose this doctor from a stale read: the conditional UPDATE still refuses it.
    await placeWaitingOrder(t, refs, { customerId: "rx-customer-2" });
    expect(await sendRequestNoticeTo(doctor.id, new Date(start.getTime() + 5 * MINUTE))).toBe(false);
    expect(await noticesTo(t, doctor.id)).toHaveLength(1);
    expect((await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).newRequestsNotifiedAt).toEqual(start);
    // Nothing new after 15 minutes: refused, and the last notice time stays (the claim rolled back).
    expect(await sendRequestNoticeTo(doctor.id, new Date(start.getTime() + REQUEST_NOTICE_INTERVAL_MS))).toBe(true);
    expect(await sendRequestNoticeTo(doctor.id, new Date(start.getTime() + 2 * REQUEST_NOTICE_INTERVAL_MS))).toBe(false);
    expect((await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).newRequestsNotifiedAt).toEqual(new Date(start.getTime() + REQUEST_NOTICE_INTERVAL_MS));
  });

  it("count only the doctor's queue: a request assigned to a colleague sends them nothing", async () => {
    const { t, refs, doctor } = await setUp();
    const colleague = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Kollege" } });
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await t.db.prescription.update({ where: { id: prescriptionId }, data: { doctorId: colleague.id } });
    await runDoctorRequestNotices();
    expect(await noticesTo(t, doctor.id)).toEqual([]);
  });

  it("stop when the doctor turns them off, or their user is deactivated", async () => {
    const { t, refs, doctor, user } = await setUp();
    await as(user).doctor.notices.set({ enabled: false });
    await placeWaitingOrder(t, refs);
    await runDoctorRequestNotices();
    expect(await noticesTo(t, doctor.id)).toEqual([]);
    await as(user).doctor.notices.set({ enabled: true });
    await t.db.user.update({ where: { id: user.id }, data: { deactivatedAt: new Date() } });
    await runDoctorRequestNotices();
    expect(await noticesTo(t, doctor.id)).toEqual([]);
  });

  it("send one e-mail when two runs go at once", async () => {
    const { t, refs, doctor } = await setUp();
    await placeWaitingOrder(t, refs);
    const now = new Date();
    await Promise.all([sendDoctorRequestNotices(now), sendDoctorRequestNotices(now), sendDoctorRequestNotices(new Date(now.getTime() + 1))]);
    expect(await noticesTo(t, doctor.id)).toHaveLength(1);
    expect(await t.db.backgroundTask.count({ where: { name: "mail.send", payload: { path: ["mailId"], equals: (await noticesTo(t, doctor.id))[0].id } } })).toBe(1);
  });

  it("is the doctor's own setting: off by default, audited when changed, saving the same again records nothing", async () => {
    const { t, doctor, user } = await setUp({ on: false });
    expect(await as(user).doctor.notices.get()).toEqual({ enabled: false, recipient: user.email, mailerConfigured: true });
    expect(await as(user).doctor.notices.set({ enabled: true })).toMatchObject({ enabled: true });
    await as(user).doctor.notices.set({ enabled: true });
    await as(user).doctor.notices.set({ enabled: false });
    const audit = await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "doctor", entityId: doctor.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.summary, a.actorUserId])).toEqual([
      ["request_notices_changed", 'New-request e-mails of "Dr. Anna Weber" turned on', user.id],
      ["request_notices_changed", 'New-request e-mails of "Dr. Anna Weber" turned off', user.id],
    ]);
    // The doctor's own address wins over their sign-in address, as in other e-mails to doctors.
    await t.db.doctor.update({ where: { id: doctor.id }, data: { email: "praxis@example.com" } });
    expect(await as(user).doctor.notices.get()).toMatchObject({ recipient: "praxis@example.com" });
    // Only doctors have it: an admin is refused.
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    await expect(as(admin).doctor.notices.set({ enabled: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
