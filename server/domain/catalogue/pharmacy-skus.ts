import { database, type Tx } from "@/server/db/client";
import { routeWaitingWhenStockArrives } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import type { HiddenSkuType } from "@/server/db/generated/enums";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";
import { recordEvent } from "@/server/domain/events/outbox";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";
import { LOW_STOCK_THRESHOLD } from "./stock-threshold";

export type PharmacyScope = { id: string; organisationId: string; hiddenSkuType: HiddenSkuType };

/**
 * What a pharmacy sees of its SKUs: its live pharmacy SKUs (deleting a SKU deletes them too),
 * without the SKU type the account hides (digital or physical), which is left out of lists,
 * totals and updates alike. Only that setting needs a join with the SKU.
 */
export function visibleTo(pharmacy: PharmacyScope) {
  const hidden =
    pharmacy.hiddenSkuType === "DIGITAL"
      ? { sku: { digital: false } }
      : pharmacy.hiddenSkuType === "PHYSICAL"
        ? { sku: { digital: true } }
        : {};
  return { pharmacyId: pharmacy.id, deletedAt: null, ...hidden };
}

/** The same setting for one SKU: whether the pharmacy hides it (its type is the hidden one). */
export const hidesSku = (pharmacy: PharmacyScope, sku: { digital: boolean }) =>
  pharmacy.hiddenSkuType === (sku.digital ? "DIGITAL" : "PHYSICAL");

const withSku = { sku: { include: { product: true } } } as const;

export type PharmacySkuFilters = {
  /** Case-insensitive substring of the SKU's display name, its PZN or the pharmacy's external id. */
  search?: string;
  /** Only SKUs with this stock or less (running out). */
  maxStock?: number;
};

export async function listPharmacySkus(pharmacy: PharmacyScope, page: Page, filters: PharmacySkuFilters = {}) {
  const db = await database();
  const term = filters.search?.trim();
  const stock = filters.maxStock === undefined ? {} : { stock: { lte: filters.maxStock } };
  const where = term
    ? {
        ...visibleTo(pharmacy),
        ...stock,
        AND: [
          {
            OR: [
              { sku: { displayName: containsInsensitive(term) } },
              { sku: { pzn: containsInsensitive(term) } },
              { externalId: containsInsensitive(term) },
            ],
          },
        ],
      }
    : { ...visibleTo(pharmacy), ...stock };
  const [items, total] = await Promise.all([
    db.pharmacySku.findMany({
      where,
      include: withSku,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...pageArgs(page),
    }),
    db.pharmacySku.count({ where }),
  ]);
  return { items, total };
}

export type PharmacySkuChanges = { price?: number; stock?: number; externalId?: string };

/**
 * Updates a pharmacy SKU the pharmacy can see. A stock change locks the row, writes a stock
 * movement and records pharmacy_sku_stock_updated in the same transaction.
 */
export async function updatePharmacySku(
  pharmacy: PharmacyScope,
  pharmacySkuId: string,
  changes: PharmacySkuChanges,
  actor: Actor,
) {
  const db = await database();
  return db.$transaction(async (tx) => (await applyChanges(tx, pharmacy, pharmacySkuId, changes, actor)).row);
}

async function applyChanges(tx: Tx, pharmacy: PharmacyScope, pharmacySkuId: string, changes: PharmacySkuChanges, actor: Actor) {
  const visible = await tx.pharmacySku.findFirst({ where: { id: pharmacySkuId, ...visibleTo(pharmacy) }, select: { id: true, price: true } });
  if (!visible) throw new NotFoundError();
  const stockBefore =
    changes.stock !== undefined
      ? await setStock(tx, { pharmacySkuId, organisationId: pharmacy.organisationId, pharmacyId: pharmacy.id }, changes.stock, actor)
      : null;
  const priceBefore = changes.price !== undefined ? visible.price : null;
  const row = await tx.pharmacySku.update({
    where: { id: pharmacySkuId },
    data: { price: changes.price, externalId: changes.externalId },
    include: withSku,
  });
  return { row, stockBefore, priceBefore };
}

/**
 * A pharmacy of the organisation, as the admin tool acts for it (any pharmacy of the organisation;
 * another organisation's is not found), with the pharmacy's own SKU visibility.
 */
export async function organisationPharmacy(organisationId: string, pharmacyId: string): Promise<PharmacyScope & { displayName: string }> {
  const db = await database();
  const pharmacy = await db.pharmacy.findFirst({
    where: { id: pharmacyId, organisationId },
    select: { id: true, organisationId: true, hiddenSkuType: true, displayName: true },
  });
  if (!pharmacy) throw new NotFoundError();
  return pharmacy;
}

/** The organisation's pharmacies, by name, with how many of their live SKUs are running out (the admin tool's pharmacy picker). */
export async function listOrganisationPharmacies(organisationId: string) {
  const db = await database();
  const rows = await db.pharmacy.findMany({
    where: { organisationId },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    select: {
      id: true,
      displayName: true,
      _count: { select: { pharmacySkus: { where: { deletedAt: null, stock: { lte: LOW_STOCK_THRESHOLD } } } } },
    },
  });
  return rows.map((p) => ({ id: p.id, displayName: p.displayName, runningOut: p._count.pharmacySkus }));
}

/** Cents as euros with two decimals, for the audit log's summaries. */
export const euros = (cents: number) => (cents / 100).toFixed(2);

/**
 * updatePharmacySku as an administrator: the same rules, stock movement and event, plus an audit
 * event naming what changed, in the same transaction. Pharmacies and their keys change stock all
 * day; the audit log records only the organisation's own hand on a pharmacy's stock and prices.
 */
export async function updatePharmacySkuAsAdmin(
  organisationId: string,
  pharmacyId: string,
  pharmacySkuId: string,
  changes: PharmacySkuChanges,
  userId: string,
) {
  const pharmacy = await organisationPharmacy(organisationId, pharmacyId);
  const actor: Actor = { type: "USER", userId };
  const db = await database();
  return db.$transaction(async (tx) => {
    const { row, stockBefore, priceBefore } = await applyChanges(tx, pharmacy, pharmacySkuId, changes, actor);
    const parts = [
      ...(stockBefore !== null && stockBefore !== row.stock ? [`stock ${stockBefore} → ${row.stock}`] : []),
      ...(priceBefore !== null && priceBefore !== row.price ? [`price ${euros(priceBefore)} → ${euros(row.price)} EUR`] : []),
      ...(changes.externalId !== undefined ? ["external id"] : []),
    ];
    if (parts.length > 0) {
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "pharmacy_sku",
        entityId: row.id,
        action: "updated",
        values: {
          name: row.sku.displayName,
          pharmacy: pharmacy.displayName,
          stock: stockBefore !== null && stockBefore !== row.stock ? `${stockBefore} → ${row.stock}` : "none",
          price: priceBefore !== null && priceBefore !== row.price ? `${euros(priceBefore)} → ${euros(row.price)}` : "none",
          externalId: String(changes.externalId !== undefined),
        },
        summary: `"${row.sku.displayName}" at ${pharmacy.displayName}: ${parts.join(", ")}`,
      });
    }
    return row;
  });
}

/** A stock movement as the pharmacy sees it: what changed the stock, when, and who. */
export type StockMovementEntry = {
  id: string;
  delta: number;
  stockAfter: number;
  reason: "STOCK_UPDATE" | "ORDER_COMPLETION" | "ORDER_CANCELLATION" | "INITIAL";
  pharmacyOrder: { id: string; name: string | null } | null;
  actor: { type: "API_KEY" | "USER" | "SYSTEM"; id: string | null; name: string | null };
  createdAt: Date;
};

/**
 * The most recent stock movements of a pharmacy SKU the pharmacy can see, newest first (the
 * ledger's order), with who made each: a key or a user by name, or the system.
 */
export async function listStockMovements(pharmacy: PharmacyScope, pharmacySkuId: string, limit: number): Promise<StockMovementEntry[]> {
  const db = await database();
  const visible = await db.pharmacySku.findFirst({ where: { id: pharmacySkuId, ...visibleTo(pharmacy) }, select: { id: true } });
  if (!visible) throw new NotFoundError();
  const rows = await db.stockMovement.findMany({
    where: { pharmacySkuId },
    orderBy: { sequence: "desc" },
    take: limit,
    select: {
      id: true,
      delta: true,
      stockAfter: true,
      reason: true,
      actorType: true,
      actorApiKeyId: true,
      actorUserId: true,
      createdAt: true,
      pharmacyOrder: { select: { id: true, name: true } },
    },
  });
  const keyIds = [...new Set(rows.flatMap((r) => (r.actorApiKeyId ? [r.actorApiKeyId] : [])))];
  const userIds = [...new Set(rows.flatMap((r) => (r.actorUserId ? [r.actorUserId] : [])))];
  const [keys, users] = await Promise.all([
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, displayName: true } }) : [],
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, displayName: true } }) : [],
  ]);
  const names = new Map([...keys, ...users].map((x) => [x.id, x.displayName]));
  return rows.map((r) => {
    const actorId = r.actorApiKeyId ?? r.actorUserId;
    return {
      id: r.id,
      delta: r.delta,
      stockAfter: r.stockAfter,
      reason: r.reason,
      pharmacyOrder: r.pharmacyOrder,
      actor: { type: r.actorType, id: actorId, name: actorId ? (names.get(actorId) ?? null) : null },
      createdAt: r.createdAt,
    };
  });
}

/** A pharmacy SKU with its SKU and product, whoever's it is (webhook payloads); null when it is gone. */
export async function findPharmacySku(pharmacySkuId: string) {
  return (await database()).pharmacySku.findUnique({ where: { id: pharmacySkuId }, include: withSku });
}

/** The shop that sells a SKU, with the shop's ids of it: the oldest live shop SKU when several do. */
export async function findShopOfSku(skuId: string): Promise<ShopOfSku> {
  const shopSku = await (await database()).shopSku.findFirst({
    where: { skuId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { shopVariationId: true, shopProduct: { select: { externalId: true } }, shop: { select: { identifier: true } } },
  });
  return {
    shopVariationId: shopSku?.shopVariationId ?? null,
    shopProductExternalId: shopSku?.shopProduct.externalId ?? null,
    shopIdentifier: shopSku?.shop.identifier ?? null,
  };
}

export type ShopOfSku = { shopVariationId: string | null; shopProductExternalId: string | null; shopIdentifier: string | null };

/**
 * Sets the stock of a pharmacy SKU under a row lock; records a movement and an event only when it
 * changed. Returns the stock before.
 */
async function setStock(
  tx: Tx,
  target: { pharmacySkuId: string; organisationId: string; pharmacyId: string },
  stock: number,
  actor: Actor,
): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ stock: number }[]>`
    SELECT "stock" FROM "PharmacySku" WHERE "id" = ${target.pharmacySkuId} FOR UPDATE`;
  if (!row) return null;
  if (row.stock === stock) return row.stock;
  await tx.pharmacySku.update({ where: { id: target.pharmacySkuId }, data: { stock } });
  await tx.stockMovement.create({
    data: {
      pharmacySkuId: target.pharmacySkuId,
      delta: stock - row.stock,
      stockAfter: stock,
      reason: "STOCK_UPDATE",
      ...actorColumns(actor),
    },
  });
  await recordEvent(tx, {
    type: "pharmacy_sku_stock_updated",
    organisationId: target.organisationId,
    pharmacyId: target.pharmacyId,
    subjectId: target.pharmacySkuId,
  });
  if (stock > row.stock) await routeWaitingWhenStockArrives(tx, target.organisationId);
  return row.stock;
}
