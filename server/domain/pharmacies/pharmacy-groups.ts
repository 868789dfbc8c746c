import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";

/**
 * The organisation's pharmacy groups (a group's pharmacists and API keys act for each pharmacy of
 * the group). A pharmacy joins or leaves a group by its own edit (changePharmacy's groupId).
 */
export async function listPharmacyGroups(organisationId: string) {
  const db = await database();
  return db.pharmacyGroup.findMany({
    where: { organisationId },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    select: { id: true, displayName: true, createdAt: true, pharmacies: { select: { id: true, displayName: true }, orderBy: { displayName: "asc" } } },
  });
}
export type AdminPharmacyGroup = Awaited<ReturnType<typeof listPharmacyGroups>>[number];

export async function createPharmacyGroup(organisationId: string, adminUserId: string, displayName: string) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const group = await tx.pharmacyGroup.create({ data: { organisationId, displayName }, select: { id: true, displayName: true } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "pharmacy_group",
      entityId: group.id,
      action: "created",
      summary: `Pharmacy group "${group.displayName}" created`,
      values: { name: group.displayName },
    });
    return group;
  });
}

export async function renamePharmacyGroup(organisationId: string, adminUserId: string, groupId: string, displayName: string) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const before = await tx.pharmacyGroup.findFirst({ where: { id: groupId, organisationId }, select: { displayName: true } });
    if (!before) throw new NotFoundError("Pharmacy group not found");
    const group = await tx.pharmacyGroup.update({ where: { id: groupId }, data: { displayName }, select: { id: true, displayName: true } });
    if (before.displayName !== displayName) {
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "pharmacy_group",
        entityId: group.id,
        action: "renamed",
        summary: `Pharmacy group "${before.displayName}" renamed to "${displayName}"`,
        values: { from: before.displayName, to: displayName },
      });
    }
    return group;
  });
}
