import { errorText, type Message } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";

/**
 * The organisation's shops and their shipping methods (admin tool). A shop's identifier is the
 * shop_identifier of the Public API, order intake and the patient-data API: unique across the
 * platform and fixed once created (integrations address the shop by it), so only the name changes.
 * A shipping method's external id is what shop orders name it by (order intake also adds methods
 * it meets): unique per shop and fixed; its name changes. Pharmacies map methods to their own
 * identifiers in the pharmacy portal.
 */
const IDENTIFIER_TAKEN = errorText("shops.identifierTaken");
const EXTERNAL_ID_TAKEN = errorText("shops.externalIdTaken");

async function orFieldError<T>(field: string, message: Message, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field(field, message);
    throw error;
  }
}

export async function listAdminShops(organisationId: string) {
  const db = await database();
  return db.shop.findMany({
    where: { organisationId },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    select: {
      id: true,
      identifier: true,
      displayName: true,
      createdAt: true,
      shippingMethods: { select: { id: true, externalId: true, displayName: true, createdAt: true }, orderBy: [{ displayName: "asc" }, { id: "asc" }] },
    },
  });
}
export type AdminShop = Awaited<ReturnType<typeof listAdminShops>>[number];

export async function createShop(organisationId: string, adminUserId: string, fields: { identifier: string; displayName: string }) {
  const db = await database();
  return orFieldError("identifier", IDENTIFIER_TAKEN, () =>
    db.$transaction(async (tx) => {
      if (await tx.shop.findFirst({ where: { identifier: fields.identifier }, select: { id: true } })) throw ValidationError.field("identifier", IDENTIFIER_TAKEN);
      const shop = await tx.shop.create({ data: { organisationId, ...fields }, select: { id: true, identifier: true, displayName: true } });
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "shop",
        entityId: shop.id,
        action: "created",
        summary: `Shop "${shop.displayName}" (${shop.identifier}) created`,
        values: { name: shop.displayName, identifier: shop.identifier },
      });
      return shop;
    }),
  );
}

export async function renameShop(organisationId: string, adminUserId: string, shopId: string, displayName: string) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const before = await tx.shop.findFirst({ where: { id: shopId, organisationId }, select: { displayName: true, identifier: true } });
    if (!before) throw new NotFoundError("Shop not found");
    const shop = await tx.shop.update({ where: { id: shopId }, data: { displayName }, select: { id: true, identifier: true, displayName: true } });
    if (before.displayName !== displayName) {
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "shop",
        entityId: shop.id,
        action: "renamed",
        values: { identifier: shop.identifier, from: before.displayName, to: displayName },
        summary: `Shop ${shop.identifier} renamed from "${before.displayName}" to "${displayName}"`,
      });
    }
    return shop;
  });
}

async function shopOf(tx: Tx, organisationId: string, shopId: string) {
  const shop = await tx.shop.findFirst({ where: { id: shopId, organisationId }, select: { id: true, identifier: true } });
  if (!shop) throw new NotFoundError("Shop not found");
  return shop;
}

export async function createShippingMethod(organisationId: string, adminUserId: string, shopId: string, fields: { externalId: string; displayName: string }) {
  const db = await database();
  return orFieldError("externalId", EXTERNAL_ID_TAKEN, () =>
    db.$transaction(async (tx) => {
      const shop = await shopOf(tx, organisationId, shopId);
      if (await tx.shopShippingMethod.findFirst({ where: { shopId, externalId: fields.externalId }, select: { id: true } })) {
        throw ValidationError.field("externalId", EXTERNAL_ID_TAKEN);
      }
      const method = await tx.shopShippingMethod.create({ data: { shopId, ...fields }, select: { id: true, externalId: true, displayName: true } });
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "shop",
        entityId: shop.id,
        action: "shipping_method_created",
        values: { name: method.displayName, externalId: method.externalId, identifier: shop.identifier },
        summary: `Shipping method "${method.displayName}" (${method.externalId}) added to shop ${shop.identifier}`,
        details: { shippingMethodId: method.id },
      });
      return method;
    }),
  );
}

export async function renameShippingMethod(organisationId: string, adminUserId: string, methodId: string, displayName: string) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const before = await tx.shopShippingMethod.findFirst({
      where: { id: methodId, shop: { organisationId } },
      select: { displayName: true, externalId: true, shop: { select: { id: true, identifier: true } } },
    });
    if (!before) throw new NotFoundError("Shipping method not found");
    const method = await tx.shopShippingMethod.update({ where: { id: methodId }, data: { displayName }, select: { id: true, externalId: true, displayName: true } });
    if (before.displayName !== displayName) {
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "shop",
        entityId: before.shop.id,
        action: "shipping_method_renamed",
        values: { externalId: before.externalId, identifier: before.shop.identifier, from: before.displayName, to: displayName },
        summary: `Shipping method ${before.externalId} of shop ${before.shop.identifier} renamed from "${before.displayName}" to "${displayName}"`,
        details: { shippingMethodId: method.id },
      });
    }
    return method;
  });
}
