import { config } from "@/server/config";
import { database, type Tx } from "@/server/db/client";
import { mailLocale, queueMail } from "@/server/domain/mail/outbox";
import { mailerConfigured } from "@/server/mail/smtp";
import { doctorQueueWhere } from "./doctor-queue";
import { PRESCRIPTION_STATUS } from "./statuses";

/** At most one new-request e-mail per doctor in this long. */
export const REQUEST_NOTICE_INTERVAL_MS = 15 * 60_000;

const WAITING = [PRESCRIPTION_STATUS.waitingForDoctor];

/** Thrown inside a doctor's transaction to undo its claim when nothing is left to tell (not an error). */
class NothingToTell extends Error {}

/**
 * The new-request e-mails (docs/decisions/prescriptions.md#new-request-e-mails-to-doctors): each doctor who turned
 * them on, whose user may sign in, and who was not e-mailed in the last 15 minutes gets one e-mail
 * when requests of their queue (unassigned or theirs, waiting for a doctor) arrived since their last
 * one: how many are new and how many wait, and a link to the queue; no patient data. Returns how
 * many e-mails were queued. Safe to run in several processes at once: see notifyDoctor.
 */
export async function sendDoctorRequestNotices(now = new Date()): Promise<{ sent: number }> {
  if (!mailerConfigured()) return { sent: 0 };
  const db = await database();
  const due = new Date(now.getTime() - REQUEST_NOTICE_INTERVAL_MS);
  const doctors = await db.doctor.findMany({
    where: {
      notifyNewRequests: true,
      deactivatedAt: null,
      OR: [{ newRequestsNotifiedAt: null }, { newRequestsNotifiedAt: { lte: due } }],
      user: { is: { role: "DOCTOR", deactivatedAt: null } },
    },
    select: { id: true, organisationId: true, newRequestsNotifiedAt: true },
    orderBy: { id: "asc" },
  });
  let sent = 0;
  for (const doctor of doctors) {
    const since = doctor.newRequestsNotifiedAt;
    // A cheap look first: most runs find nothing new and take no lock.
    const fresh = await db.prescription.count({ where: { ...doctorQueueWhere(doctor.organisationId, doctor.id, WAITING), ...(since ? { createdAt: { gt: since } } : {}) } });
    if (fresh === 0) continue;
    if (await sendRequestNoticeTo(doctor.id, now)) sent += 1;
  }
  return { sent };
}

/**
 * One doctor's e-mail, if the rule allows it now (see notifyDoctor): whatever the caller read
 * before, the claim decides. True when an e-mail was queued.
 */
export async function sendRequestNoticeTo(doctorId: string, now: Date): Promise<boolean> {
  const db = await database();
  try {
    await db.$transaction((tx) => notifyDoctor(tx, doctorId, now));
    return true;
  } catch (error) {
    if (error instanceof NothingToTell) return false;
    throw error;
  }
}

/**
 * One doctor's e-mail, in one transaction with its claim: the conditional UPDATE moves the last
 * notice time to `now` only while it is 15 minutes old (or unset) and the setting is on. Of two runs
 * at once the second waits for the first's row lock, then finds the time moved and claims nothing,
 * so one e-mail is queued however many processes run. The mail row commits with the claim or not at all.
 */
async function notifyDoctor(tx: Tx, doctorId: string, now: Date): Promise<void> {
  const due = new Date(now.getTime() - REQUEST_NOTICE_INTERVAL_MS);
  const claimed = await tx.$queryRaw<{ previous: Date | null }[]>`
    UPDATE "Doctor" d SET "newRequestsNotifiedAt" = ${now}
      FROM (SELECT "id", "newRequestsNotifiedAt" AS previous FROM "Doctor" WHERE "id" = ${doctorId} FOR UPDATE) old
     WHERE d."id" = old."id" AND d."notifyNewRequests" AND (d."newRequestsNotifiedAt" IS NULL OR d."newRequestsNotifiedAt" <= ${due})
    RETURNING old.previous`;
  if (claimed.length === 0) throw new NothingToTell();
  const since = claimed[0].previous;
  const doctor = await tx.doctor.findUniqueOrThrow({
    where: { id: doctorId },
    select: {
      organisationId: true,
      displayName: true,
      email: true,
      organisation: { select: { displayName: true } },
      user: { select: { email: true, locale: true } },
    },
  });
  const queue = doctorQueueWhere(doctor.organisationId, doctorId, WAITING);
  const [fresh, waiting] = await Promise.all([
    tx.prescription.count({ where: { ...queue, ...(since ? { createdAt: { gt: since } } : {}) } }),
    tx.prescription.count({ where: queue }),
  ]);
  // Decided meanwhile by a colleague: no e-mail, and the claim is undone with the rollback.
  if (fresh === 0) throw new NothingToTell();
  // The doctor's own address as other doctor e-mails choose it (meeting-mails.ts), else their sign-in address.
  const to = doctor.email ?? doctor.user?.email;
  if (!to) throw new NothingToTell();
  await queueMail(tx, {
    organisationId: doctor.organisationId,
    to,
    locale: mailLocale(doctor.user?.locale),
    subjectId: doctorId,
    template: {
      kind: "doctor_requests_waiting",
      name: doctor.displayName,
      organisation: doctor.organisation.displayName,
      newCount: fresh,
      waitingCount: waiting,
      link: `${config().baseUrl}/admin/doctor`,
    },
  });
}
