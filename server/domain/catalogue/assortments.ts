/**
 * A pharmacy's assortment: which SKUs of its organisation's catalogue it carries, each a pharmacy
 * SKU with the pharmacy's id for it, its price and its stock (docs/decisions/catalogue.md#pharmacy-assortments).
 * An administrator adds SKUs (one or many at once) and removes them; a CSV import adds and updates
 * many (import-assortment.ts). Every change of one pharmacy's assortment holds the lock of
 * lockAssortment, so two adds of the same SKU cannot both find it missing.
 */
import { randomUUID } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { routeWaitingWhenStockArrives } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { recordEvents } from "@/server/domain/events/outbox";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";
import { euros, hidesSku, organisationPharmacy, type PharmacyScope } from "./pharmacy-skus";

/**
 * Serialises the changes of one pharmacy's assortment (add, remove, import) for the rest of the
 * transaction. FOR NO KEY UPDATE, not FOR UPDATE: rows that merely reference the pharmacy (a new
 * pharmacy order, a pharmacy SKU) take a key-share lock, which this one does not block, so intake
 * and completions carry on while a long import runs. The partial unique index on the live
 * (pharmacyId, skuId) stays the last guard.
 */
export async function lockAssortment(tx: Tx, pharmacyId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Pharmacy" WHERE "id" = ${pharmacyId} FOR NO KEY UPDATE`;
}

/** The conflict of the spec's example ("Pharmacy SKU already exists"); for a form, on the entry that clashes. */
function pharmacySkuExists(entry?: number) {
  const message = errorText("catalogue.duplicatePharmacySku");
  return new ConflictError(message, {}, entry === undefined ? undefined : { entries: { [entry]: { sku_uid: [message] } } });
}

export type NewPharmacySku = { skuId: string; externalId: string; price: number; stock: number };

/**
 * Inserts pharmacy SKUs for a pharmacy whose assortment the caller has locked, in a few statements
 * however many. A starting stock above 0 is stock that arrived: an INITIAL stock movement and a
 * pharmacy_sku_stock_updated each, like any other stock change; a stock of 0 changed nothing and
 * records neither. Returns the new pharmacy SKUs' ids in the order given.
 */
export async function insertPharmacySkus(tx: Tx, pharmacy: PharmacyScope, rows: readonly NewPharmacySku[], actor: Actor): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => randomUUID());
  try {
    await tx.$executeRaw`
      INSERT INTO "PharmacySku" ("id", "pharmacyId", "skuId", "externalId", "price", "stock", "updatedAt")
      SELECT v."id", ${pharmacy.id}, v."skuId", v."externalId", v."price", v."stock", now()
        FROM unnest(${ids}::text[], ${rows.map((r) => r.skuId)}::text[], ${rows.map((r) => r.externalId)}::text[],
                    ${rows.map((r) => r.price)}::int[], ${rows.map((r) => r.stock)}::int[]) AS v("id", "skuId", "externalId", "price", "stock")`;
  } catch (error) {
    // Only a writer that skipped lockAssortment can get here (the index is the last guard).
    if (isUniqueViolation(error)) throw pharmacySkuExists();
    throw error;
  }
  const stocked = rows.flatMap((r, i) => (r.stock > 0 ? [{ id: ids[i], stock: r.stock }] : []));
  await recordStockMovements(tx, pharmacy, stocked.map((s) => ({ pharmacySkuId: s.id, delta: s.stock, stockAfter: s.stock })), "INITIAL", actor);
  return ids;
}

type StockChange = { pharmacySkuId: string; delta: number; stockAfter: number };

/** Stock movements for changes already written, and one pharmacy_sku_stock_updated per SKU, in two statements. */
export async function recordStockMovements(tx: Tx, pharmacy: PharmacyScope, changes: readonly StockChange[], reason: "INITIAL" | "STOCK_UPDATE", actor: Actor) {
  if (changes.length === 0) return;
  const who = actorColumns(actor);
  await tx.$executeRaw`
    INSERT INTO "StockMovement" ("id", "pharmacySkuId", "delta", "stockAfter", "reason", "actorType", "actorApiKeyId", "actorUserId")
    SELECT v."id", v."pharmacySkuId", v."delta", v."stockAfter", ${reason}::"StockMovementReason", ${who.actorType}::"ActorType", ${who.actorApiKeyId}, ${who.actorUserId}
      FROM unnest(${changes.map(() => randomUUID())}::text[], ${changes.map((c) => c.pharmacySkuId)}::text[],
                  ${changes.map((c) => c.delta)}::int[], ${changes.map((c) => c.stockAfter)}::int[]) WITH ORDINALITY AS v("id", "pharmacySkuId", "delta", "stockAfter", "n")
     ORDER BY v."n"`;
  await recordEvents(
    tx,
    changes.map((c) => ({ type: "pharmacy_sku_stock_updated", organisationId: pharmacy.organisationId, pharmacyId: pharmacy.id, subjectId: c.pharmacySkuId })),
  );
  if (changes.some((c) => c.delta > 0)) await routeWaitingWhenStockArrives(tx, pharmacy.organisationId);
}

/** SKUs of the organisation's catalogue a pharmacy does not carry yet (nor hides), by name: the admin tool's "Add SKUs" picker. */
export async function listSkusOutsideAssortment(organisationId: string, pharmacyId: string, search: string | undefined, page: Page) {
  const pharmacy = await organisationPharmacy(organisationId, pharmacyId);
  const db = await database();
  const term = search?.trim();
  const where = {
    organisationId,
    deletedAt: null,
    pharmacySkus: { none: { pharmacyId: pharmacy.id, deletedAt: null } },
    ...(pharmacy.hiddenSkuType === "NONE" ? {} : { digital: pharmacy.hiddenSkuType === "PHYSICAL" }),
    ...(term ? { OR: [{ displayName: containsInsensitive(term) }, { pzn: containsInsensitive(term) }, { product: { displayName: containsInsensitive(term) } }] } : {}),
  };
  const [items, total] = await Promise.all([
    db.sku.findMany({
      where,
      select: { id: true, displayName: true, pzn: true, digital: true, product: { select: { displayName: true } } },
      orderBy: [{ displayName: "asc" }, { id: "asc" }],
      ...pageArgs(page),
    }),
    db.sku.count({ where }),
  ]);
  return { items, total };
}

/**
 * Adds SKUs of the organisation to a pharmacy's assortment, all or none, as an administrator: each
 * entry a live SKU of the catalogue the pharmacy does not hide, at most once; a SKU the pharmacy
 * already carries is the conflict "Pharmacy SKU already exists". Field messages name the entry
 * (`entries.<i>.sku_uid`). Audited per SKU added.
 */
export async function addToAssortment(organisationId: string, pharmacyId: string, entries: readonly NewPharmacySku[], userId: string) {
  const pharmacy = await organisationPharmacy(organisationId, pharmacyId);
  const actor: Actor = { type: "USER", userId };
  const db = await database();
  return db.$transaction(async (tx) => {
    await lockAssortment(tx, pharmacy.id);
    const skuIds = entries.map((e) => e.skuId);
    const skus = new Map(
      (await tx.sku.findMany({ where: { id: { in: skuIds }, organisationId, deletedAt: null }, select: { id: true, displayName: true, digital: true } })).map((s) => [s.id, s]),
    );
    const invalid = new FieldErrorCollector();
    entries.forEach((entry, i) => {
      const sku = skus.get(entry.skuId);
      const at = ["entries", i, "sku_uid"];
      if (!sku) invalid.add(at, errorText("catalogue.skuNotFound"));
      else if (hidesSku(pharmacy, sku)) invalid.add(at, errorText("assortments.hiddenType", { type: sku.digital ? "digital" : "physical" }));
      else if (skuIds.indexOf(entry.skuId) !== i) invalid.add(at, errorText("assortments.addedTwice"));
    });
    invalid.throwIfAny();
    const carried = new Set(
      (await tx.pharmacySku.findMany({ where: { pharmacyId: pharmacy.id, skuId: { in: skuIds }, deletedAt: null }, select: { skuId: true } })).map((p) => p.skuId),
    );
    const first = entries.findIndex((e) => carried.has(e.skuId));
    if (first >= 0) throw pharmacySkuExists(first);
    const ids = await insertPharmacySkus(tx, pharmacy, entries, actor);
    for (const [i, entry] of entries.entries()) {
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "pharmacy_sku",
        entityId: ids[i],
        action: "added",
        values: { name: skus.get(entry.skuId)!.displayName, pharmacy: pharmacy.displayName, stock: String(entry.stock), price: euros(entry.price) },
        summary: `"${skus.get(entry.skuId)!.displayName}" added to the assortment of ${pharmacy.displayName}: stock ${entry.stock}, price ${euros(entry.price)} EUR`,
      });
    }
    return ids;
  });
}

/**
 * Removes a SKU from a pharmacy's assortment, as an administrator: the pharmacy SKU is soft-deleted
 * (as deleting a SKU does), so routing no longer offers the pharmacy for it and its stock and price
 * leave every list; pharmacy orders that hold it keep their reference. Audited.
 */
export async function removeFromAssortment(organisationId: string, pharmacyId: string, pharmacySkuId: string, userId: string): Promise<void> {
  const pharmacy = await organisationPharmacy(organisationId, pharmacyId);
  const db = await database();
  await db.$transaction(async (tx) => {
    await lockAssortment(tx, pharmacy.id);
    const row = await tx.pharmacySku.findFirst({
      where: { id: pharmacySkuId, pharmacyId: pharmacy.id, deletedAt: null },
      select: { stock: true, sku: { select: { displayName: true, digital: true } } },
    });
    if (!row || hidesSku(pharmacy, row.sku)) throw new NotFoundError();
    await tx.pharmacySku.update({ where: { id: pharmacySkuId }, data: { deletedAt: new Date() } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "pharmacy_sku",
      entityId: pharmacySkuId,
      action: "removed",
      values: { name: row.sku.displayName, pharmacy: pharmacy.displayName, stock: String(row.stock) },
      summary: `"${row.sku.displayName}" removed from the assortment of ${pharmacy.displayName} (stock ${row.stock})`,
    });
  });
}
