import type { Tx } from "@/server/db/client";
import type { UserTokenPurpose } from "@/server/db/generated/enums";
import { mailerConfigured } from "@/server/mail/smtp";
import { mailLocale, queueMail } from "./outbox";

/**
 * The e-mail of a one-time password link (an invitation, a reset) to its user, in the user's saved
 * language, else the language of who issued it, else German. Returns the message's id, or null
 * without a mailer: the link is then passed on by hand, as before.
 */
export async function queuePasswordLinkMail(
  tx: Tx,
  issued: { userId: string; purpose: UserTokenPurpose; link: string; expiresAt: Date; issuedById: string | null },
): Promise<string | null> {
  if (!mailerConfigured()) return null;
  const user = await tx.user.findUniqueOrThrow({
    where: { id: issued.userId },
    select: { email: true, displayName: true, locale: true, organisationId: true, organisation: { select: { displayName: true } } },
  });
  const issuer = issued.issuedById ? await tx.user.findUnique({ where: { id: issued.issuedById }, select: { displayName: true, locale: true } }) : null;
  const common = { name: user.displayName, organisation: user.organisation.displayName, link: issued.link, expiresAt: issued.expiresAt };
  return queueMail(tx, {
    organisationId: user.organisationId,
    to: user.email,
    locale: mailLocale(user.locale, issuer?.locale),
    subjectId: issued.userId,
    template:
      issued.purpose === "INVITATION"
        ? { kind: "invitation", inviter: issuer?.displayName ?? null, ...common }
        : { kind: "password_reset", email: user.email, ...common },
  });
}
