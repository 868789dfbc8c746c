import { z } from "zod";
import { database } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, ValidationError } from "@/server/domain/errors";
import { issuePasswordToken } from "@/server/domain/users/password-tokens";

/** What an operator gives for a new organisation: its name and its first admin. */
export const newOrganisationInput = z.object({
  name: z.string().trim().min(1).max(200),
  adminEmail: z.email().trim().max(254),
  /** How the admin is greeted in the portals; the e-mail address when not given. */
  adminName: z.string().trim().min(1).max(200).optional(),
});
export type NewOrganisation = z.input<typeof newOrganisationInput>;

export type CreatedOrganisation = {
  organisationId: string;
  displayName: string;
  adminUserId: string;
  adminEmail: string;
  /** The admin's invitation to choose a password (7 days): shown to the operator, and e-mailed when a mailer is configured. */
  invitationLink: string;
  invitationExpiresAt: Date;
  /** The invitation's e-mail in the outbox, or null without a mailer. */
  invitationMailId: string | null;
};

const EMAIL_TAKEN = "A user with this e-mail address already exists.";

/**
 * A real organisation (not the sandbox) with its first admin, invited: one transaction, audited as
 * the system's doing. Everything else (pharmacies, shops, keys, users) the admin then sets up in the
 * admin tool. The e-mail is unique across the platform (a field error, also when two creations race).
 */
export async function createOrganisation(input: NewOrganisation): Promise<CreatedOrganisation> {
  const parsed = newOrganisationInput.safeParse(input);
  if (!parsed.success) {
    const errors = new FieldErrorCollector();
    for (const issue of parsed.error.issues) errors.add(issue.path.map(String), issue.message);
    throw new ValidationError(errors.fields);
  }
  const { name, adminEmail, adminName } = parsed.data;
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      if (await tx.user.findFirst({ where: { email: { equals: adminEmail, mode: "insensitive" } }, select: { id: true } })) {
        throw ValidationError.field("adminEmail", EMAIL_TAKEN);
      }
      const organisation = await tx.organisation.create({ data: { displayName: name, sandbox: false }, select: { id: true, displayName: true } });
      const admin = await tx.user.create({
        data: { organisationId: organisation.id, email: adminEmail, displayName: adminName ?? adminEmail, role: "ADMIN", passwordHash: null },
        select: { id: true, email: true },
      });
      const invitation = await issuePasswordToken(tx, admin.id, "INVITATION", null);
      await recordAuditEvent(tx, organisation.id, { type: "SYSTEM" }, {
        entity: "user",
        entityId: admin.id,
        action: "invited",
        values: { via: "organisation", email: admin.email, organisation: organisation.displayName },
        summary: `${admin.email} invited as admin when the organisation "${organisation.displayName}" was created`,
        details: { role: "ADMIN" },
      });
      return {
        organisationId: organisation.id,
        displayName: organisation.displayName,
        adminUserId: admin.id,
        adminEmail: admin.email,
        invitationLink: invitation.link,
        invitationExpiresAt: invitation.expiresAt,
        invitationMailId: invitation.mailId,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("adminEmail", EMAIL_TAKEN);
    throw error;
  }
}

/**
 * Every organisation, oldest first, with what an operator checks: sandbox or not, how many admins
 * can sign in (active: a password chosen, not deactivated) and how many are invited and have not
 * accepted yet.
 */
export async function listOrganisations() {
  const db = await database();
  const rows = await db.organisation.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      displayName: true,
      sandbox: true,
      createdAt: true,
      users: { where: { role: "ADMIN", deactivatedAt: null }, select: { passwordHash: true } },
    },
  });
  return rows.map((o) => ({
    organisationId: o.id,
    displayName: o.displayName,
    sandbox: o.sandbox,
    createdAt: o.createdAt,
    activeAdmins: o.users.filter((u) => u.passwordHash !== null).length,
    invitedAdmins: o.users.filter((u) => u.passwordHash === null).length,
  }));
}

/**
 * A new link for an organisation's admin whose invitation expired or who lost their password (the
 * operator's way back in when no other admin can issue one in the admin tool): an invitation while
 * they have never set a password, else a password reset; audited as the system's doing. Shown to
 * the operator, and e-mailed as well when a mailer is configured.
 */
export async function issueAdminLink(adminEmail: string): Promise<{ purpose: "INVITATION" | "PASSWORD_RESET"; link: string; expiresAt: Date; mailId: string | null }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const admin = await tx.user.findFirst({
      where: { email: { equals: adminEmail.trim(), mode: "insensitive" }, role: "ADMIN", deactivatedAt: null },
      select: { id: true, email: true, organisationId: true, passwordHash: true },
    });
    if (!admin) throw ValidationError.field("adminEmail", "No active admin has this e-mail address.");
    const purpose = admin.passwordHash ? "PASSWORD_RESET" : "INVITATION";
    const issued = await issuePasswordToken(tx, admin.id, purpose, null);
    await recordAuditEvent(tx, admin.organisationId, { type: "SYSTEM" }, {
      entity: "user",
      entityId: admin.id,
      action: purpose === "INVITATION" ? "invited" : "password_reset_issued",
      values: { via: "operator", email: admin.email },
      summary: `${purpose === "INVITATION" ? "Invitation" : "Password reset link"} issued for ${admin.email} by the operator`,
    });
    return { purpose, ...issued };
  });
}
