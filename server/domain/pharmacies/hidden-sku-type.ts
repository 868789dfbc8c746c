import { database } from "@/server/db/client";
import type { HiddenSkuType } from "@/server/db/generated/enums";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";

/**
 * The pharmacy account setting "hidden SKU type" (spec): SKUs of this type (digital or physical)
 * do not exist for the pharmacy's External Pharmacy API and its portal (the rule:
 * server/domain/catalogue/pharmacy-skus.ts). Set by the organisation's admins.
 */
export const HIDDEN_SKU_TYPES = ["NONE", "DIGITAL", "PHYSICAL"] as const satisfies readonly HiddenSkuType[];

/** The organisation's pharmacies with their setting, by name. */
export async function listPharmacyHiddenSkuTypes(organisationId: string) {
  const db = await database();
  return db.pharmacy.findMany({
    where: { organisationId },
    select: { id: true, displayName: true, hiddenSkuType: true },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
  });
}

const label = (type: HiddenSkuType) => ({ NONE: "none", DIGITAL: "digital", PHYSICAL: "physical" })[type];

/** Sets a pharmacy's hidden SKU type; from the next request on its API answers accordingly. */
export async function changePharmacyHiddenSkuType(organisationId: string, userId: string, pharmacyId: string, hiddenSkuType: HiddenSkuType): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const [pharmacy] = await tx.$queryRaw<{ displayName: string; hiddenSkuType: HiddenSkuType }[]>`
      SELECT "displayName", "hiddenSkuType"::text AS "hiddenSkuType" FROM "Pharmacy" WHERE "id" = ${pharmacyId} AND "organisationId" = ${organisationId} FOR UPDATE`;
    if (!pharmacy) throw new NotFoundError();
    if (pharmacy.hiddenSkuType === hiddenSkuType) return;
    await tx.pharmacy.update({ where: { id: pharmacyId }, data: { hiddenSkuType } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "pharmacy",
      entityId: pharmacyId,
      action: "hidden_sku_type_changed",
      values: { name: pharmacy.displayName, from: pharmacy.hiddenSkuType, to: hiddenSkuType },
      summary: `Pharmacy "${pharmacy.displayName}": hidden SKU type ${label(pharmacy.hiddenSkuType)} → ${label(hiddenSkuType)}`,
      details: { from: pharmacy.hiddenSkuType, to: hiddenSkuType },
    });
  });
}
