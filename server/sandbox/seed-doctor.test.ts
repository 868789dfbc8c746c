import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/server/auth/password";
import { createTenant } from "@/tests/fixtures";
import { SANDBOX_DOCTOR_EMAIL, seedDoctorUser } from "./seed-doctor";

describe("the sandbox doctor's sign-in", () => {
  it("binds a DOCTOR user to the sandbox doctor, keeps a password that still matches and re-binds a changed user", async () => {
    const t = await createTenant();
    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Anna Weber", canSignQes: false } });

    const first = await seedDoctorUser(t.db, t.organisation.id, doctor, undefined);
    expect(first.email).toBe(SANDBOX_DOCTOR_EMAIL);
    const user = await t.db.user.findUniqueOrThrow({ where: { email: SANDBOX_DOCTOR_EMAIL } });
    expect(user).toMatchObject({ role: "DOCTOR", doctorId: doctor.id, organisationId: t.organisation.id, deactivatedAt: null });
    expect(await verifyPassword(first.password, user.passwordHash!)).toBe(true);
    // The sandbox doctor signs with the sandbox QES signer.
    expect((await t.db.doctor.findUniqueOrThrow({ where: { id: doctor.id } })).canSignQes).toBe(true);

    await t.db.user.update({ where: { id: user.id }, data: { deactivatedAt: new Date() } });
    expect(await seedDoctorUser(t.db, t.organisation.id, doctor, first)).toEqual(first);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).deactivatedAt).toBeNull();

    const replaced = await seedDoctorUser(t.db, t.organisation.id, doctor, { email: SANDBOX_DOCTOR_EMAIL, password: "not-the-password" });
    expect(replaced.password).not.toBe(first.password);
    expect(await verifyPassword(replaced.password, (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash!)).toBe(true);
  });
});
