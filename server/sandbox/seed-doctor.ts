import { randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "@/server/auth/password";
import type { Db } from "@/server/db/client";

export type DemoDoctorUser = { email: string; password: string };

export const SANDBOX_DOCTOR_EMAIL = "doctor@demo.example";

/**
 * The sandbox doctor's sign-in (demo.json users.doctor): a User with the DOCTOR role bound to the
 * sandbox organisation's doctor, who may sign with a QES (the sandbox signer). The password of the
 * previous demo.json is kept while it still matches, like the other sandbox users'.
 */
export async function seedDoctorUser(
  db: Db,
  organisationId: string,
  doctor: { id: string; displayName: string },
  previous: DemoDoctorUser | undefined,
): Promise<DemoDoctorUser> {
  await db.doctor.update({ where: { id: doctor.id }, data: { canSignQes: true } });
  const binding = { role: "DOCTOR" as const, organisationId, doctorId: doctor.id, pharmacyId: null, pharmacyGroupId: null, deactivatedAt: null };
  const existing = await db.user.findUnique({ where: { email: SANDBOX_DOCTOR_EMAIL } });
  if (existing && previous?.email === SANDBOX_DOCTOR_EMAIL && existing.passwordHash && (await verifyPassword(previous.password, existing.passwordHash))) {
    await db.user.update({ where: { id: existing.id }, data: binding });
    return previous;
  }
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  await db.user.upsert({
    where: { email: SANDBOX_DOCTOR_EMAIL },
    create: { email: SANDBOX_DOCTOR_EMAIL, displayName: doctor.displayName, passwordHash, ...binding },
    update: { passwordHash, sessionVersion: { increment: 1 }, ...binding }, // a new password ends old sessions
  });
  return { email: SANDBOX_DOCTOR_EMAIL, password };
}
