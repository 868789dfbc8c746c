import { database } from "@/server/db/client";

/** The organisation's portal users with where each works, newest first. */
export async function listOrganisationUsers(organisationId: string) {
  const db = await database();
  const place = { select: { id: true, displayName: true } } as const;
  const rows = await db.user.findMany({
    where: { organisationId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      email: true,
      displayName: true,
      role: true,
      passwordHash: true,
      deactivatedAt: true,
      createdAt: true,
      pharmacy: place,
      pharmacyGroup: place,
      doctor: place,
    },
  });
  // Whether a password is set (an invited user has none yet); the hash itself never leaves here.
  return rows.map(({ passwordHash, ...user }) => ({ ...user, hasPassword: passwordHash !== null }));
}
export type OrganisationUser = Awaited<ReturnType<typeof listOrganisationUsers>>[number];

/** What the invite form offers: the organisation's pharmacies, groups, and active doctors without a user. */
export async function userBindingChoices(organisationId: string) {
  const db = await database();
  const [pharmacies, groups, doctors] = await Promise.all([
    db.pharmacy.findMany({ where: { organisationId }, orderBy: { displayName: "asc" }, select: { id: true, displayName: true } }),
    db.pharmacyGroup.findMany({ where: { organisationId }, orderBy: { displayName: "asc" }, select: { id: true, displayName: true } }),
    db.doctor.findMany({ where: { organisationId, user: null, deactivatedAt: null }, orderBy: { displayName: "asc" }, select: { id: true, displayName: true, email: true } }),
  ]);
  return { pharmacies, groups, doctors };
}
