import { z } from "zod";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import type { Db } from "@/server/db/client";
import { resolvePharmacyScope } from "@/server/domain/portal/pharmacy-scope";

/**
 * Input field of pharmacy-portal procedures: a group pharmacist picks one of the group's pharmacies
 * (none: all of them); a single-pharmacy user may name their own. Any other pharmacy is NOT_FOUND.
 */
export const pharmacyUidInput = z.string().trim().min(1).max(100).optional();

/** The pharmacy ids this call may see (server/domain/portal/pharmacy-scope.ts holds the rule). */
export const pharmacyIdsFor = (ctx: { db: Db; user: PortalSessionUser }, pharmacyUid: string | undefined) =>
  resolvePharmacyScope(ctx.db, ctx.user, pharmacyUid);
