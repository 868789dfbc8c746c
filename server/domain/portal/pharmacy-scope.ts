import type { Db, Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

/** The part of a portal user that decides which pharmacies they may see. */
export type PharmacyScopeHolder = { organisationId: string; pharmacyId: string | null; pharmacyGroupId: string | null };

export type PortalPharmacy = { id: string; displayName: string };

/**
 * The pharmacies a portal user works for, by name: their own pharmacy (`pharmacyId`), or every
 * pharmacy of their group (`pharmacyGroupId`), always within their organisation. A user with
 * neither works for none. This is the one place that rule lives.
 */
export async function portalPharmacies(db: Db | Tx, user: PharmacyScopeHolder): Promise<PortalPharmacy[]> {
  const select = { id: true, displayName: true } as const;
  if (user.pharmacyId) {
    return db.pharmacy.findMany({ where: { id: user.pharmacyId, organisationId: user.organisationId }, select });
  }
  if (user.pharmacyGroupId) {
    return db.pharmacy.findMany({
      where: { groupId: user.pharmacyGroupId, organisationId: user.organisationId },
      select,
      orderBy: [{ displayName: "asc" }, { id: "asc" }],
    });
  }
  return [];
}

/**
 * The ids of the pharmacies a request of this user may read or act on. Without `requestedPharmacyId`
 * all of the user's pharmacies; with it exactly that one, which must be one of them (otherwise
 * NotFoundError, so that a pharmacy outside the user's reach looks the same as one that does not exist).
 */
export async function resolvePharmacyScope(
  db: Db | Tx,
  user: PharmacyScopeHolder,
  requestedPharmacyId?: string | null,
): Promise<string[]> {
  const ids = (await portalPharmacies(db, user)).map((p) => p.id);
  if (requestedPharmacyId === undefined || requestedPharmacyId === null) return ids;
  if (!ids.includes(requestedPharmacyId)) throw new NotFoundError();
  return [requestedPharmacyId];
}
