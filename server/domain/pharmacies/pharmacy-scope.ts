import { database, databaseDriver } from "@/server/db/client";
import type { HiddenSkuType } from "@/server/db/generated/enums";

/**
 * Which pharmacy a caller may act for: the one rule, for pharmacy API keys and pharmacists in the
 * portal alike. A caller is bound to one pharmacy or to a pharmacy group, within its organisation.
 */
export type PharmacyReach = { organisationId: string; pharmacyId: string | null; pharmacyGroupId: string | null };

/** A pharmacy as the rule needs it. */
export type ReachablePharmacy = { id: string; organisationId: string; groupId: string | null };

/** A pharmacy a request acts for, as the REST kit and the portal hand it to domain functions. */
export type ScopedPharmacy = ReachablePharmacy & { displayName: string; hiddenSkuType: HiddenSkuType };

/**
 * The rule: a caller bound to a pharmacy acts for it (naming it again is allowed, naming another
 * is not); a caller bound to a group acts for the pharmacy it names, which must be of its group;
 * always within the caller's organisation. `candidate` is the pharmacy read for
 * `candidatePharmacyId(reach, requestedId)`. Null: no pharmacy (out of reach, or none named where
 * one must be). What null means is each door's: the External Pharmacy API's 400 Bad request, the
 * portal's not found.
 */
export function pharmacyInReach<P extends ReachablePharmacy>(reach: PharmacyReach, requestedId: string | null, candidate: P | null): P | null {
  if (!candidate || candidate.organisationId !== reach.organisationId) return null;
  if (reach.pharmacyId) return candidate.id === reach.pharmacyId && (!requestedId || requestedId === reach.pharmacyId) ? candidate : null;
  if (!reach.pharmacyGroupId || candidate.id !== requestedId) return null;
  return candidate.groupId === reach.pharmacyGroupId ? candidate : null;
}

/** The pharmacy to read for the rule: the caller's own, else the one it names. */
export const candidatePharmacyId = (reach: PharmacyReach, requestedId: string | null): string | null => reach.pharmacyId ?? requestedId;

/** pharmacyInReach with the candidate read from the database. */
export async function pharmacyToActFor(reach: PharmacyReach, requestedId: string | null): Promise<ScopedPharmacy | null> {
  const id = candidatePharmacyId(reach, requestedId);
  if (!id) return null;
  const db = await database();
  const candidate = await db.pharmacy.findUnique({
    where: { id },
    select: { id: true, displayName: true, organisationId: true, groupId: true, hiddenSkuType: true },
  });
  return pharmacyInReach(reach, requestedId, candidate);
}

const IN_REACH_COLUMNS = `"id", "displayName", "organisationId", "groupId", "hiddenSkuType"`;

/**
 * Every pharmacy in the caller's reach, by name: its own, or all of its group's. A driver statement:
 * the pharmacy portal's door resolves it once per call (server/trpc/init.ts; the queue's, in the
 * orders benchmark).
 */
export async function pharmaciesInReach(reach: PharmacyReach): Promise<ScopedPharmacy[]> {
  const driver = await databaseDriver();
  if (reach.pharmacyId) {
    return driver.query<ScopedPharmacy>(`SELECT ${IN_REACH_COLUMNS} FROM "Pharmacy" WHERE "id" = $1 AND "organisationId" = $2`, [
      reach.pharmacyId,
      reach.organisationId,
    ]);
  }
  if (reach.pharmacyGroupId) {
    return driver.query<ScopedPharmacy>(
      `SELECT ${IN_REACH_COLUMNS} FROM "Pharmacy" WHERE "groupId" = $1 AND "organisationId" = $2 ORDER BY "displayName", "id"`,
      [reach.pharmacyGroupId, reach.organisationId],
    );
  }
  return [];
}
