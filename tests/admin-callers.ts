/** Callers of the admin tool's procedures for authorisation tests: an admin and the people who are refused. */
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createCaller } from "@/server/trpc/router";
import type { Tenant } from "./fixtures";
import { addDoctor } from "./meetings";
import { createPortalUser } from "./webhook-logs";

export type AdminCallers = { admin: PortalSessionUser; pharmacist: PortalSessionUser; doctor: PortalSessionUser };

export async function adminCallers(t: Tenant): Promise<AdminCallers> {
  const doctor = await addDoctor(t);
  return {
    admin: await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id }),
    pharmacist: await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id }),
    doctor: await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id }),
  };
}

export const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
export type Caller = ReturnType<typeof as>;
