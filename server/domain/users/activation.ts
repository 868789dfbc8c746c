import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { BadRequestError, NotFoundError } from "@/server/domain/errors";

/**
 * Deactivates a user of the organisation: they cannot sign in, and every session of theirs ends at
 * once (procedures and pages re-read the user on every call: currentStateOfPortalUser,
 * requirePortalViewer); their unused links stop working. An admin cannot deactivate themselves, nor
 * the organisation's last active admin: the organisation row is locked first, so two admins
 * deactivating each other at the same moment cannot leave none.
 */
export async function deactivateUser(organisationId: string, adminUserId: string, userId: string, now = new Date()): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Organisation" WHERE "id" = ${organisationId} FOR UPDATE`;
    const user = await tx.user.findFirst({ where: { id: userId, organisationId }, select: { id: true, email: true, role: true, deactivatedAt: true } });
    if (!user) throw new NotFoundError("User not found");
    if (user.deactivatedAt) return;
    if (user.id === adminUserId) throw new BadRequestError(errorText("users.selfDeactivation"), { code: "self_deactivation" });
    if (user.role === "ADMIN") {
      const otherAdmins = await tx.user.count({ where: { organisationId, role: "ADMIN", deactivatedAt: null, id: { not: user.id } } });
      if (otherAdmins === 0) throw new BadRequestError(errorText("users.lastAdmin"), { code: "last_admin" });
    }
    // The version too: reactivating the user later does not bring their old sessions back.
    await tx.user.update({ where: { id: user.id }, data: { deactivatedAt: now, sessionVersion: { increment: 1 } } });
    await tx.userToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "user",
      entityId: user.id,
      action: "deactivated",
      summary: `${user.email} deactivated`,
      values: { email: user.email },
    });
  });
}

/** Lets a deactivated user sign in again (with the password they had; an invited one needs a new link). */
export async function reactivateUser(organisationId: string, adminUserId: string, userId: string): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({ where: { id: userId, organisationId }, select: { id: true, email: true, deactivatedAt: true } });
    if (!user) throw new NotFoundError("User not found");
    if (!user.deactivatedAt) return;
    await tx.user.update({ where: { id: user.id }, data: { deactivatedAt: null } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "user",
      entityId: user.id,
      action: "reactivated",
      summary: `${user.email} reactivated`,
      values: { email: user.email },
    });
  });
}
