/**
 * The admin tool's users (invite or create, deactivate, reactivate, reset a password) and the public
 * password links (/invitation/…, /reset-password/…). Always the admin's organisation.
 */
import { deactivateUser, reactivateUser } from "@/server/domain/users/activation";
import { addUser, type UserBinding } from "@/server/domain/users/add-user";
import { issuePasswordReset, setPasswordWithToken } from "@/server/domain/users/password-tokens";
import { listOrganisationUsers, userBindingChoices, type OrganisationUser } from "@/server/domain/users/queries";
import { adminProcedure, publicProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import { addUserInput, setPasswordInput, userUidInput } from "./admin-people.schemas";
import type { z } from "zod";

const place = (row: { id: string; displayName: string } | null) => (row ? { uid: row.id, name: row.displayName } : null);

const presentUser = (user: OrganisationUser, viewerId: string) => ({
  /** The signed-in admin's own row (no deactivate button: nobody deactivates themselves). */
  isYou: user.id === viewerId,
  uid: user.id,
  email: user.email,
  name: user.displayName,
  role: user.role,
  status: user.deactivatedAt ? ("deactivated" as const) : user.hasPassword ? ("active" as const) : ("invited" as const),
  pharmacy: place(user.pharmacy),
  pharmacyGroup: place(user.pharmacyGroup),
  doctor: place(user.doctor),
  createdAt: unix(user.createdAt),
  deactivatedAt: unixOrNull(user.deactivatedAt),
});

function bindingOf(input: z.output<typeof addUserInput>): UserBinding {
  switch (input.role) {
    case "ADMIN":
      return { role: "ADMIN" };
    case "PHARMACIST":
      return input.pharmacyUid ? { role: "PHARMACIST", pharmacyId: input.pharmacyUid } : { role: "PHARMACIST", pharmacyGroupId: input.pharmacyGroupUid! };
    case "DOCTOR":
      return input.doctorUid
        ? { role: "DOCTOR", doctorId: input.doctorUid }
        : { role: "DOCTOR", newDoctor: { displayName: input.doctorName!, email: input.doctorEmail || null, canSignQes: input.doctorCanSignQes ?? false } };
  }
}

export const adminUsersRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await listOrganisationUsers(ctx.scope.organisationId)).map((u) => presentUser(u, ctx.user.id))),

  /** The pharmacies, groups and doctors without a user the form may bind a new user to. */
  bindingChoices: adminProcedure.query(async ({ ctx }) => {
    const choices = await userBindingChoices(ctx.scope.organisationId);
    return {
      pharmacies: choices.pharmacies.map((p) => ({ uid: p.id, name: p.displayName })),
      groups: choices.groups.map((g) => ({ uid: g.id, name: g.displayName })),
      doctors: choices.doctors.map((d) => ({ uid: d.id, name: d.displayName, email: d.email })),
    };
  }),

  /**
   * Without a password: invited, the link e-mailed to them when a mailer is configured
   * (`invitationMailed`), else in this response only. With one: a ready account.
   */
  add: adminProcedure.input(addUserInput).mutation(async ({ ctx, input }) => {
    const added = await addUser(ctx.scope.organisationId, ctx.user.id, {
      email: input.email,
      displayName: input.name,
      binding: bindingOf(input),
      password: input.password,
    });
    return {
      uid: added.id,
      email: added.email,
      invitationLink: added.invitationLink,
      invitationMailed: added.invitationMailed,
      invitationExpiresAt: unixOrNull(added.invitationExpiresAt),
    };
  }),

  deactivate: adminProcedure.input(userUidInput).mutation(async ({ ctx, input }) => {
    await deactivateUser(ctx.scope.organisationId, ctx.user.id, input.userUid);
    return { deactivated: true };
  }),

  reactivate: adminProcedure.input(userUidInput).mutation(async ({ ctx, input }) => {
    await reactivateUser(ctx.scope.organisationId, ctx.user.id, input.userUid);
    return { reactivated: true };
  }),

  /** The reset link is e-mailed to the user (`mailedTo`) or else in this response only; earlier unused reset links stop working. */
  issuePasswordReset: adminProcedure.input(userUidInput).mutation(async ({ ctx, input }) => {
    const issued = await issuePasswordReset(ctx.scope.organisationId, ctx.user.id, input.userUid);
    return { resetLink: issued.link, mailedTo: issued.mailedTo, expiresAt: unix(issued.expiresAt) };
  }),
});

/** The public pages of a password link: anyone holding the link may choose the password, once. */
export const passwordLinksRouter = router({
  setPassword: publicProcedure.input(setPasswordInput).mutation(async ({ input }) => setPasswordWithToken(input.token, input.purpose, input.password)),
});
