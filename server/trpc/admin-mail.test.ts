/**
 * E-mail through the admin tool, against a real SMTP server in this process (tests/smtp-server.ts):
 * an invitation and a password reset arrive and their links work (the admin never sees them);
 * without SMTP_URL nothing is recorded and the link is shown as before; the outbox page lists an
 * organisation's messages with failure reasons, and a failed one is sent again (once, audited);
 * the meeting e-mails setting is changed and audited; only admins reach any of it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { authorizeCredentials, type PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { setPasswordWithToken } from "@/server/domain/users/password-tokens";
import { adminCallers, as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { useSmtpRelay } from "@/tests/mail";
import { trpcCode } from "@/tests/trpc";
import { until } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";

const relay = useSmtpRelay();
const PASSWORD = "a long enough password";
const tokenOf = (link: string) => link.split("/").at(-1)!;
const linkIn = (text: string, path: "invitation" | "reset-password") => new RegExp(`https?://\\S+/${path}/[A-Za-z0-9_-]{43}`).exec(text)?.[0];

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
let otherAdmin: PortalSessionUser;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  ({ admin, pharmacist, doctor } = await adminCallers(t));
  ({ admin: otherAdmin } = await adminCallers(other));
});

const outboxOf = async (who: PortalSessionUser, input: { status?: "pending" | "sent" | "failed" } = {}) => (await as(who).admin.mail.list(input)).items;

describe("invitations and password resets by e-mail", () => {
  it("an invited user gets the link by e-mail (the admin does not see it), and it sets their password", async () => {
    const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const added = await as(admin).admin.users.add({ email, name: "Ina Vited", role: "PHARMACIST", pharmacyUid: t.pharmacy.id });
    expect(added).toMatchObject({ invitationLink: null, invitationMailed: true });
    const [queued] = await outboxOf(admin);
    expect(queued).toMatchObject({ kind: "invitation", recipient: email, status: "pending", subjectUid: added.uid, locale: "de" });
    // The one-time link is stored sealed: the row holds no token in plain text.
    const stored = await t.db.mailMessage.findUniqueOrThrow({ where: { id: queued.uid } });
    expect(`${stored.sealedText}${stored.sealedHtml}`).not.toMatch(/invitation\//);

    await relay.startRunner();
    const mail = await relay.mailTo(email);
    expect(mail.subject).toBe(`Ihre Einladung zu ${t.organisation.displayName}`);
    const link = linkIn(mail.text, "invitation")!;
    expect(link).toBeTruthy();
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain(admin.name);
    await setPasswordWithToken(tokenOf(link), "INVITATION", PASSWORD);
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.7" })).toMatchObject({ id: added.uid });
    expect(await until(async () => (await outboxOf(admin)).find((m) => m.uid === queued.uid && m.status === "sent"))).toMatchObject({
      attempts: 1,
      sentAt: expect.any(Number),
      smtpMessageId: `<${queued.uid}@rx.example>`,
    });
  });

  it("a password reset goes to the user in their saved language; the audit log says it was e-mailed", async () => {
    const created = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    const user = await t.db.user.update({ where: { id: created.id }, data: { locale: "en" } });
    const issued = await as(admin).admin.users.issuePasswordReset({ userUid: user.id });
    expect(issued).toMatchObject({ resetLink: null, mailedTo: user.email });
    await relay.startRunner();
    const mail = await relay.mailTo(user.email);
    expect(mail.subject).toBe(`Choose a new password for ${t.organisation.displayName}`);
    const link = linkIn(mail.text, "reset-password")!;
    await setPasswordWithToken(tokenOf(link), "PASSWORD_RESET", PASSWORD);
    expect(await authorizeCredentials(user.email, PASSWORD, { "x-forwarded-for": "198.51.100.8" })).toMatchObject({ id: user.id });
    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { entityId: user.id, action: "password_reset_issued" } });
    expect(audit.summary).toBe(`Password reset link e-mailed to ${user.email}`);
  });

  it("without SMTP_URL nothing is recorded or sent, and the link is shown once as before", async () => {
    const url = process.env.SMTP_URL!;
    delete process.env.SMTP_URL;
    reloadConfig();
    try {
      const before = await t.db.mailMessage.count();
      const email = `nomail-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const added = await as(admin).admin.users.add({ email, name: "No Mail", role: "ADMIN" });
      expect(added).toMatchObject({ invitationMailed: false, invitationLink: expect.stringMatching(/\/invitation\/[A-Za-z0-9_-]{43}$/) });
      const reset = await as(admin).admin.users.issuePasswordReset({ userUid: doctor.id });
      expect(reset).toMatchObject({ mailedTo: null, resetLink: expect.stringMatching(/\/reset-password\//) });
      expect(await t.db.mailMessage.count()).toBe(before);
      expect(await t.db.backgroundTask.count({ where: { name: "mail.send", state: "PENDING" } })).toBe(0);
      expect(await as(admin).admin.mail.list({})).toMatchObject({ mailerConfigured: false });
      await setPasswordWithToken(tokenOf(added.invitationLink!), "INVITATION", PASSWORD);
      expect(relay.smtp.received.some((m) => m.to.includes(email))).toBe(false);
    } finally {
      process.env.SMTP_URL = url;
      reloadConfig();
    }
  });
});

describe("the outbox page", () => {
  it("lists the organisation's messages, newest first, filtered by status, with a failure's reason; re-sends a failed one once, audited", async () => {
    const email = `bounce-${crypto.randomUUID().slice(0, 8)}@example.com`;
    relay.smtp.answers.push({ code: 550, message: "5.1.1 Mailbox unavailable" });
    const added = await as(admin).admin.users.add({ email, name: "Bo Unce", role: "ADMIN" });
    await relay.startRunner();
    const failed = await until(async () => (await outboxOf(admin, { status: "failed" })).find((m) => m.recipient === email));
    expect(failed).toMatchObject({ kind: "invitation", status: "failed", attempts: 1, sentAt: null, subjectUid: added.uid });
    expect(failed.lastError).toMatch(/550 5\.1\.1 Mailbox unavailable/);
    const list = await as(admin).admin.mail.list({});
    expect(list.items.map((m) => m.createdAt)).toEqual([...list.items.map((m) => m.createdAt)].sort((a, b) => b - a));
    expect(list).toMatchObject({ mailerConfigured: true, total: list.items.length });
    expect((await outboxOf(admin, { status: "sent" })).every((m) => m.status === "sent")).toBe(true);
    // Another organisation sees none of it, and cannot re-send it.
    expect(await outboxOf(otherAdmin)).toEqual([]);
    expect(await trpcCode(as(otherAdmin).admin.mail.resend({ mailUid: failed.uid }))).toBe("NOT_FOUND");

    const [first, second] = await Promise.all([as(admin).admin.mail.resend({ mailUid: failed.uid }), as(admin).admin.mail.resend({ mailUid: failed.uid })]);
    expect([first.queued, second.queued].sort()).toEqual([false, true]);
    const mail = await relay.mailTo(email);
    expect(linkIn(mail.text, "invitation")).toBeTruthy();
    expect(await until(async () => (await outboxOf(admin)).find((m) => m.uid === failed.uid && m.status === "sent"))).toMatchObject({ attempts: 2, lastError: null });
    expect(relay.smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
    expect(await t.db.auditEvent.findMany({ where: { entityId: failed.uid }, select: { entityType: true, action: true, actorUserId: true } })).toEqual([
      { entityType: "mail_message", action: "resent", actorUserId: admin.id },
    ]);
    // A sent message is never sent again.
    expect(await trpcCode(as(admin).admin.mail.resend({ mailUid: failed.uid }))).toBe("CONFLICT");
  });

  it("is the admins' only", async () => {
    for (const who of [pharmacist, doctor]) {
      expect(await trpcCode(as(who).admin.mail.list({}))).toBe("FORBIDDEN");
      expect(await trpcCode(as(who).admin.mail.meetingEmails())).toBe("FORBIDDEN");
      expect(await trpcCode(as(who).admin.mail.changeMeetingEmails({ recipients: ["patient"] }))).toBe("FORBIDDEN");
    }
    expect(await trpcCode(as(null).admin.mail.list({}))).toBe("UNAUTHORIZED");
  });
});

describe("the meeting e-mails setting", () => {
  it("is off by default; an admin chooses the recipients, audited with before and after; saving the same again records nothing", async () => {
    expect(await as(admin).admin.mail.meetingEmails()).toEqual({ recipients: [], mailerConfigured: true });
    expect(await as(admin).admin.mail.changeMeetingEmails({ recipients: ["admins", "patient", "patient"] })).toEqual({ recipients: ["patient", "admins"] });
    expect(await as(admin).admin.mail.changeMeetingEmails({ recipients: ["patient", "admins"] })).toEqual({ recipients: ["patient", "admins"] });
    expect((await as(admin).admin.mail.meetingEmails()).recipients).toEqual(["patient", "admins"]);
    expect((await as(otherAdmin).admin.mail.meetingEmails()).recipients).toEqual([]);
    await as(admin).admin.mail.changeMeetingEmails({ recipients: [] });
    const audit = await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, action: "meeting_emails_changed" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.summary)).toEqual(["Meeting e-mails: off → patient, admins", "Meeting e-mails: patient, admins → off"]);
    expect(audit[0]).toMatchObject({ entityType: "setting", actorUserId: admin.id, details: { from: [], to: ["patient", "admins"] } });
  });
});
