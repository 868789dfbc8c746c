/** Inputs of the admin tool's users procedures and the password-link pages (zod and server/wire only). */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/server/auth/password-policy";
import { text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const USER_ROLES = ["ADMIN", "DOCTOR", "PHARMACIST"] as const;

export const newPassword = () =>
  z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

const email = () => z.string().trim().max(254).pipe(z.email("Enter a valid e-mail address."));

/**
 * A new user, flat as the form sends it: a pharmacist names one pharmacy or one group; a doctor an
 * existing Doctor (doctorUid) or a new one (doctorName, doctorEmail, doctorCanSignQes).
 */
export const addUserInput = z
  .object({
    email: email(),
    name: text(200),
    role: z.enum(USER_ROLES),
    pharmacyUid: uid().optional(),
    pharmacyGroupUid: uid().optional(),
    doctorUid: uid().optional(),
    doctorName: z.string().trim().max(200).optional(),
    doctorEmail: z.union([z.literal(""), email()]).optional(),
    doctorCanSignQes: z.boolean().optional(),
    /** Only for "create with a password". */
    password: newPassword().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.role === "PHARMACIST" && !!input.pharmacyUid === !!input.pharmacyGroupUid) {
      ctx.addIssue({ code: "custom", path: ["pharmacyUid"], ...ownMessage("users.choosePharmacyOrGroup") });
    }
    if (input.role === "DOCTOR" && !input.doctorUid && !input.doctorName) {
      ctx.addIssue({ code: "custom", path: ["doctorUid"], ...ownMessage("users.chooseDoctor") });
    }
  });
export type AddUserInput = z.input<typeof addUserInput>;

export const userUidInput = z.object({ userUid: uid() });

export const passwordLinkInput = z.object({ token: z.string().min(1).max(200), purpose: z.enum(["INVITATION", "PASSWORD_RESET"]) });

export const setPasswordInput = passwordLinkInput
  .extend({ password: newPassword(), confirmPassword: z.string() })
  .refine((input) => input.password === input.confirmPassword, { path: ["confirmPassword"], ...ownMessage("users.passwordsDiffer") });
