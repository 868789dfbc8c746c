import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";
import { mailerConfigured } from "@/server/mail/smtp";

/**
 * A doctor's own setting "e-mail me when new requests wait" (off by default; the e-mails:
 * server/domain/prescriptions/request-notices.ts), where they would go, and whether e-mail goes out
 * at all (SMTP_URL). docs/decisions/prescriptions.md#new-request-e-mails-to-doctors.
 */
export async function requestNoticeSetting(organisationId: string, doctorId: string) {
  const db = await database();
  const doctor = await db.doctor.findFirst({
    where: { id: doctorId, organisationId },
    select: { notifyNewRequests: true, email: true, user: { select: { email: true } } },
  });
  if (!doctor) throw new NotFoundError();
  return { enabled: doctor.notifyNewRequests, recipient: doctor.email ?? doctor.user?.email ?? null, mailerConfigured: mailerConfigured() };
}

/**
 * The doctor turns the e-mails on or off, audited as other changes of who gets what are; the row is
 * locked so two saves at once are recorded in order. Saving the same choice again records nothing.
 */
export async function changeRequestNoticeSetting(organisationId: string, doctorId: string, userId: string, enabled: boolean): Promise<boolean> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ notifyNewRequests: boolean; displayName: string }[]>`
      SELECT "notifyNewRequests", "displayName" FROM "Doctor" WHERE "id" = ${doctorId} AND "organisationId" = ${organisationId} FOR UPDATE`;
    if (!current) throw new NotFoundError();
    if (current.notifyNewRequests === enabled) return enabled;
    await tx.doctor.update({ where: { id: doctorId }, data: { notifyNewRequests: enabled } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "doctor",
      entityId: doctorId,
      action: "request_notices_changed",
      values: { name: current.displayName, enabled: String(enabled) },
      summary: `New-request e-mails of "${current.displayName}" turned ${enabled ? "on" : "off"}`,
      details: { from: current.notifyNewRequests, to: enabled },
    });
    return enabled;
  });
}
