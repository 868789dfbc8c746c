import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";

/**
 * Wallet pass templates as admins manage them (admin tool, Settings). The Management API lists a
 * shop's templates (queries.ts, listWalletPassTemplates) from the same rows. A template belongs to
 * one shop for good (its passes are of that shop's customers); its pass type is "generic", the one
 * our .pkpass builder makes (pkpass.ts).
 */
export const WALLET_PASS_TYPES = ["generic"] as const;

export type WalletPassTemplateInput = { displayName: string; requiresSignedPrescription: boolean };

function checkedName(value: string): string {
  const displayName = value.trim();
  if (!displayName) throw ValidationError.field("displayName", errorText("fields.notBlank"));
  if (displayName.length > 200) throw ValidationError.field("displayName", errorText("fields.maxLength", { maximum: 200 }));
  return displayName;
}

/** Every template of the organisation with its shop and how many live passes it has, by shop then name. */
export async function listOrganisationWalletPassTemplates(organisationId: string) {
  const db = await database();
  const rows = await db.walletPassTemplate.findMany({
    where: { organisationId },
    select: {
      id: true,
      displayName: true,
      passType: true,
      requiresSignedPrescription: true,
      createdAt: true,
      shop: { select: { id: true, identifier: true, displayName: true } },
      _count: { select: { passes: { where: { deletedAt: null } } } },
    },
    orderBy: [{ shop: { displayName: "asc" } }, { displayName: "asc" }, { id: "asc" }],
  });
  return rows.map(({ _count, ...row }) => ({ ...row, livePasses: _count.passes }));
}

/** Creates a template for one of the organisation's shops (another organisation's shop: a field error, as an unknown one). */
export async function createWalletPassTemplate(
  organisationId: string,
  userId: string,
  input: WalletPassTemplateInput & { shopId: string },
): Promise<{ id: string }> {
  const displayName = checkedName(input.displayName);
  const db = await database();
  return db.$transaction(async (tx) => {
    const shop = await tx.shop.findFirst({ where: { id: input.shopId, organisationId }, select: { id: true, identifier: true } });
    if (!shop) throw ValidationError.field("shopUid", errorText("walletPasses.chooseShop"));
    const created = await tx.walletPassTemplate.create({
      data: { organisationId, shopId: shop.id, displayName, passType: "generic", requiresSignedPrescription: input.requiresSignedPrescription },
      select: { id: true },
    });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "wallet_pass_template",
      entityId: created.id,
      action: "created",
      summary: `Wallet pass template "${displayName}" created for shop ${shop.identifier}${input.requiresSignedPrescription ? " (requires a signed prescription)" : ""}`,
      values: { name: displayName, shop: shop.identifier, signed: String(Boolean(input.requiresSignedPrescription)) },
    });
    return created;
  });
}

/** Changes a template's name and whether it requires a signed prescription (for new passes and refreshes from now on). */
export async function changeWalletPassTemplate(organisationId: string, userId: string, templateId: string, input: WalletPassTemplateInput): Promise<void> {
  const displayName = checkedName(input.displayName);
  const db = await database();
  await db.$transaction(async (tx) => {
    const current = await tx.walletPassTemplate.findFirst({
      where: { id: templateId, organisationId },
      select: { displayName: true, requiresSignedPrescription: true },
    });
    if (!current) throw new NotFoundError();
    const changes = [
      current.displayName !== displayName ? `name "${current.displayName}" → "${displayName}"` : null,
      current.requiresSignedPrescription !== input.requiresSignedPrescription
        ? input.requiresSignedPrescription
          ? "now requires a signed prescription"
          : "no longer requires a signed prescription"
        : null,
    ].filter((c): c is string => c !== null);
    if (changes.length === 0) return;
    await tx.walletPassTemplate.update({ where: { id: templateId }, data: { displayName, requiresSignedPrescription: input.requiresSignedPrescription } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "wallet_pass_template",
      entityId: templateId,
      action: "changed",
      values: {
        name: current.displayName,
        renamed: String(current.displayName !== displayName),
        newName: displayName,
        signed: current.requiresSignedPrescription === input.requiresSignedPrescription ? "same" : input.requiresSignedPrescription ? "now" : "noLonger",
      },
      summary: `Wallet pass template "${current.displayName}": ${changes.join(", ")}`,
    });
  });
}

/**
 * Deletes a template from which no pass was ever issued. A template with passes (revoked ones too:
 * their rows name it, and verify answers them) is refused, nothing changes.
 */
export async function deleteWalletPassTemplate(organisationId: string, userId: string, templateId: string): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const [template] = await tx.$queryRaw<{ displayName: string }[]>`
      SELECT "displayName" FROM "WalletPassTemplate" WHERE "id" = ${templateId} AND "organisationId" = ${organisationId} FOR UPDATE`;
    if (!template) throw new NotFoundError();
    if ((await tx.walletPass.count({ where: { templateId } })) > 0) throw new ConflictError(errorText("walletPasses.templateHasPasses"), { code: "template_has_passes" });
    await tx.walletPassTemplate.delete({ where: { id: templateId } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "wallet_pass_template",
      entityId: templateId,
      action: "deleted",
      summary: `Wallet pass template "${template.displayName}" deleted`,
      values: { name: template.displayName },
    });
  });
}

/** The shops a new template can belong to: the organisation's, by name. */
export async function listTemplateShops(organisationId: string) {
  const db = await database();
  return db.shop.findMany({ where: { organisationId }, select: { id: true, identifier: true, displayName: true }, orderBy: [{ displayName: "asc" }, { id: "asc" }] });
}
