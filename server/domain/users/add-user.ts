import { errorText } from "@/i18n/error-text";
import { hashPassword } from "@/server/auth/password";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import type { UserRole } from "@/server/db/generated/enums";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { checkNewPassword, issuePasswordToken } from "./password-tokens";

/**
 * Where a new user works: admins in the organisation; pharmacists at one pharmacy or one group;
 * doctors as one Doctor of the organisation, an existing one without a user or a new one.
 */
export type UserBinding =
  | { role: "ADMIN" }
  | { role: "PHARMACIST"; pharmacyId: string }
  | { role: "PHARMACIST"; pharmacyGroupId: string }
  | { role: "DOCTOR"; doctorId: string }
  | { role: "DOCTOR"; newDoctor: { displayName: string; email: string | null; canSignQes: boolean } };

export type NewUser = {
  email: string;
  displayName: string;
  binding: UserBinding;
  /** An initial password set by the admin; without one the user is invited (a link to choose one). */
  password?: string;
};

/** An invited user's link: e-mailed to them (`invitationMailed`, the link null) when a mailer is configured, else shown to the admin once. */
export type AddedUser = { id: string; email: string; invitationLink: string | null; invitationExpiresAt: Date | null; invitationMailed: boolean };

const ROLE_WORDS: Record<UserRole, string> = { ADMIN: "admin", PHARMACIST: "pharmacist", DOCTOR: "doctor" };
const emailTaken = () => ValidationError.field("email", errorText("users.emailTaken"));
const doctorHasUser = () => ValidationError.field("doctorUid", errorText("users.doctorHasUser"));

/** The binding's columns, each referenced row checked to be the organisation's (else not found). */
async function bindingColumns(tx: Tx, organisationId: string, binding: UserBinding) {
  const none = { pharmacyId: null, pharmacyGroupId: null, doctorId: null };
  switch (binding.role) {
    case "ADMIN":
      return none;
    case "PHARMACIST":
      if ("pharmacyId" in binding) {
        if (!(await tx.pharmacy.findFirst({ where: { id: binding.pharmacyId, organisationId }, select: { id: true } }))) throw new NotFoundError("Pharmacy not found");
        return { ...none, pharmacyId: binding.pharmacyId };
      }
      if (!(await tx.pharmacyGroup.findFirst({ where: { id: binding.pharmacyGroupId, organisationId }, select: { id: true } }))) throw new NotFoundError("Pharmacy group not found");
      return { ...none, pharmacyGroupId: binding.pharmacyGroupId };
    case "DOCTOR": {
      if ("newDoctor" in binding) {
        const doctor = await tx.doctor.create({ data: { organisationId, ...binding.newDoctor } });
        return { ...none, doctorId: doctor.id };
      }
      const doctor = await tx.doctor.findFirst({ where: { id: binding.doctorId, organisationId }, select: { id: true, user: { select: { id: true } } } });
      if (!doctor) throw new NotFoundError("Doctor not found");
      if (doctor.user) throw doctorHasUser();
      return { ...none, doctorId: doctor.id };
    }
  }
}

/**
 * Adds a portal user to the organisation: with the admin's initial password, or invited (no
 * password; an INVITATION link, valid 7 days, e-mailed or else returned once). One transaction with
 * its audit event and the invitation's e-mail;
 * a taken e-mail (unique across the platform) is a field error, also when two adds race.
 */
export async function addUser(organisationId: string, adminUserId: string, input: NewUser): Promise<AddedUser> {
  if (input.password !== undefined) checkNewPassword(input.password);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const email = input.email.trim();
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      if (await tx.user.findFirst({ where: { email: { equals: email, mode: "insensitive" } }, select: { id: true } })) {
        throw emailTaken();
      }
      const columns = await bindingColumns(tx, organisationId, input.binding);
      const user = await tx.user.create({
        data: { email, displayName: input.displayName, passwordHash, role: input.binding.role, organisationId, ...columns },
        select: { id: true, email: true },
      });
      const invitation = passwordHash ? null : await issuePasswordToken(tx, user.id, "INVITATION", adminUserId);
      const role = ROLE_WORDS[input.binding.role];
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "user",
        entityId: user.id,
        action: invitation ? "invited" : "created",
        values: { via: "admin", email: user.email, role: input.binding.role, mailed: String(Boolean(invitation?.mailId)) },
        summary: invitation
          ? `${user.email} invited as ${role}${invitation.mailId ? " (invitation e-mailed)" : ""}`
          : `${user.email} created as ${role} with an initial password`,
        details: { role: input.binding.role, ...columns },
      });
      const mailed = Boolean(invitation?.mailId);
      return {
        id: user.id,
        email: user.email,
        invitationLink: invitation && !mailed ? invitation.link : null,
        invitationExpiresAt: invitation?.expiresAt ?? null,
        invitationMailed: mailed,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      // A user added at the same moment took the e-mail, or (when not) the Doctor.
      const emailClash = await db.user.findFirst({ where: { email: { equals: email, mode: "insensitive" } }, select: { id: true } });
      throw emailClash ? emailTaken() : doctorHasUser();
    }
    throw error;
  }
}
