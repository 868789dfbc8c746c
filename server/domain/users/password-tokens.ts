import { createHash, randomBytes } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { hashPassword } from "@/server/auth/password";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/server/auth/password-policy";
import { config } from "@/server/config";
import { database, type Tx } from "@/server/db/client";
import type { UserTokenPurpose } from "@/server/db/generated/enums";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { queuePasswordLinkMail } from "@/server/domain/mail/password-link-mails";

/**
 * One-time links to choose a password: an invitation (a user created without a password) and a
 * password reset. The token is 32 random bytes (base64url) shown once, in the link; only its SHA-256
 * is stored (a high-entropy token needs no slow hash). A link is valid for TOKEN_LIFETIME_MS and once.
 * With a mailer (SMTP_URL) the link is e-mailed to its user; without one the admin passes it on
 * (docs/decisions/operations.md#e-mail).
 */
export const TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const PATHS: Record<UserTokenPurpose, string> = { INVITATION: "/invitation", PASSWORD_RESET: "/reset-password" };

export const tokenHashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export type IssuedLink = {
  link: string;
  expiresAt: Date;
  /** The e-mail that carries the link to its user (the outbox's message), or null: no mailer, the link is passed on by hand. */
  mailId: string | null;
};

/**
 * Creates a token of `purpose` for the user inside the caller's transaction, and queues the e-mail
 * of its link when a mailer is configured; earlier unused tokens of that purpose stop working.
 * Returns the link (with the e-mail, the only places the token appears).
 */
export async function issuePasswordToken(tx: Tx, userId: string, purpose: UserTokenPurpose, createdById: string | null, now = new Date()): Promise<IssuedLink> {
  await tx.userToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now } });
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  await tx.userToken.create({ data: { userId, purpose, tokenHash: tokenHashOf(token), expiresAt, createdById } });
  const link = `${config().baseUrl}${PATHS[purpose]}/${token}`;
  const mailId = await queuePasswordLinkMail(tx, { userId, purpose, link, expiresAt, issuedById: createdById });
  return { link, expiresAt, mailId };
}

/**
 * A reset link for an active user of the organisation who may sign in: e-mailed to them when a
 * mailer is configured (the admin never sees it then: `link` null), else shown once to the admin.
 */
export async function issuePasswordReset(
  organisationId: string,
  adminUserId: string,
  userId: string,
): Promise<{ link: string | null; expiresAt: Date; mailedTo: string | null }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({ where: { id: userId, organisationId }, select: { id: true, email: true, deactivatedAt: true } });
    if (!user) throw new NotFoundError("User not found");
    if (user.deactivatedAt) throw ValidationError.field("user", errorText("users.reactivateFirst"));
    const issued = await issuePasswordToken(tx, user.id, "PASSWORD_RESET", adminUserId);
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "user",
      entityId: user.id,
      action: "password_reset_issued",
      values: { via: "admin", email: user.email, mailed: String(Boolean(issued.mailId)) },
      summary: `Password reset link ${issued.mailId ? "e-mailed to" : "issued for"} ${user.email}`,
    });
    return { link: issued.mailId ? null : issued.link, expiresAt: issued.expiresAt, mailedTo: issued.mailId ? user.email : null };
  });
}

export type PasswordTokenState =
  | { state: "valid"; email: string; displayName: string }
  | { state: "expired" | "used" | "invalid" };

/** What a link's page shows: whose it is, or why it no longer works. Reads only. */
export async function describePasswordToken(token: string, purpose: UserTokenPurpose, now = new Date()): Promise<PasswordTokenState> {
  if (!token || token.length > 200) return { state: "invalid" };
  const db = await database();
  const row = await db.userToken.findUnique({
    where: { tokenHash: tokenHashOf(token) },
    select: { purpose: true, usedAt: true, expiresAt: true, user: { select: { email: true, displayName: true, deactivatedAt: true } } },
  });
  if (!row || row.purpose !== purpose || row.user.deactivatedAt) return { state: "invalid" };
  if (row.usedAt) return { state: "used" };
  if (row.expiresAt <= now) return { state: "expired" };
  return { state: "valid", email: row.user.email, displayName: row.user.displayName };
}

/** The refusal of a link that does not (or no longer) work, as a field error on the form. */
const linkRefused = (state: "expired" | "used" | "invalid") => ValidationError.field("token", errorText(`users.link.${state}`));

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw ValidationError.field("password", errorText("users.passwordMin", { min: PASSWORD_MIN_LENGTH }));
  if (password.length > PASSWORD_MAX_LENGTH) throw ValidationError.field("password", errorText("users.passwordMax", { max: PASSWORD_MAX_LENGTH }));
}

/**
 * Sets the password a link is for, once: the token is claimed by one conditional update (unused,
 * not expired), so of two concurrent submits exactly one wins and the other is told the link was
 * used. Every other unused link of the user stops working too. Returns the e-mail to sign in with.
 */
export async function setPasswordWithToken(token: string, purpose: UserTokenPurpose, password: string, now = new Date()): Promise<{ email: string }> {
  checkNewPassword(password);
  const passwordHash = await hashPassword(password);
  const db = await database();
  return db.$transaction(async (tx) => {
    const row = await tx.userToken.findUnique({
      where: { tokenHash: tokenHashOf(token) },
      select: { id: true, purpose: true, user: { select: { id: true, email: true, organisationId: true, deactivatedAt: true } } },
    });
    if (!row || row.purpose !== purpose || row.user.deactivatedAt) throw linkRefused("invalid");
    const claimed = await tx.userToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count === 0) {
      const current = await tx.userToken.findUniqueOrThrow({ where: { id: row.id }, select: { usedAt: true } });
      throw linkRefused(current.usedAt ? "used" : "expired");
    }
    await tx.userToken.updateMany({ where: { userId: row.user.id, usedAt: null }, data: { usedAt: now } });
    // A new password ends every session of the user (docs/security.md#sessions).
    await tx.user.update({ where: { id: row.user.id }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await recordAuditEvent(tx, row.user.organisationId, { type: "USER", userId: row.user.id }, {
      entity: "user",
      entityId: row.user.id,
      action: "password_set",
      values: { email: row.user.email, purpose },
      summary: `${row.user.email} set a password (${purpose === "INVITATION" ? "invitation accepted" : "password reset"})`,
    });
    return { email: row.user.email };
  });
}
