/**
 * Importing a pharmacy's assortment from CSV (the format: assortment-csv.ts): a preview that says,
 * row by row, what the file would do to the assortment as it is now (create, update, unchanged, or
 * the row's errors) and writes nothing; and the import itself, which plans the same file again
 * inside one transaction under the assortment's lock and writes all of it or, when any row is an
 * error, nothing. The import does not compare with the preview: it applies the file to the
 * assortment as it then is and reports what it did (docs/decisions/catalogue.md#pharmacy-assortments).
 *
 * An administrator's import adds SKUs and updates those the pharmacy carries; a pharmacist's only
 * updates stock, price and external id of SKUs already in the assortment. Rows never remove a SKU,
 * and SKUs the file does not name stay as they are.
 */
import { errorText, type ErrorText } from "@/i18n/error-text";
import { database, type Db, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { UnprocessableError } from "@/server/domain/errors";
import { parseAssortmentCsv, type AssortmentCsvRow } from "./assortment-csv";
import { insertPharmacySkus, lockAssortment, recordStockMovements } from "./assortments";
import { hidesSku, type PharmacyScope } from "./pharmacy-skus";

/** Who imports: an administrator may add SKUs to the assortment, a pharmacist may not. */
export type ImportMode = "admin" | "pharmacy";

export type ImportedSku = { id: string; displayName: string; pzn: string | null; digital: boolean };
export type PharmacySkuValues = { externalId: string; price: number; stock: number };

export type ImportRow =
  | { line: number; outcome: "create"; sku: ImportedSku; after: PharmacySkuValues }
  | { line: number; outcome: "update"; sku: ImportedSku; pharmacySkuId: string; before: PharmacySkuValues; after: PharmacySkuValues }
  | { line: number; outcome: "unchanged"; sku: ImportedSku; pharmacySkuId: string }
  | { line: number; outcome: "error"; sku: ImportedSku | null; reference: string; errors: ErrorText[] };

export type ImportCounts = { create: number; update: number; unchanged: number; error: number };

export type ImportPreview = { ok: true; rows: ImportRow[]; counts: ImportCounts } | { ok: false; error: ErrorText };

type Carried = { id: string } & PharmacySkuValues;

/** The SKUs the rows name, by uid and by PZN, among the organisation's live SKUs. */
async function skusNamed(db: Db | Tx, organisationId: string, rows: AssortmentCsvRow[]) {
  const uids = [...new Set(rows.flatMap((r) => (r.skuUid ? [r.skuUid] : [])))];
  const pzns = [...new Set(rows.flatMap((r) => (r.pzn ? [r.pzn] : [])))];
  const skus = await db.sku.findMany({
    where: { organisationId, deletedAt: null, OR: [{ id: { in: uids } }, { pzn: { in: pzns } }] },
    select: { id: true, displayName: true, pzn: true, digital: true },
  });
  const byId = new Map(skus.map((s) => [s.id, s]));
  const byPzn = new Map<string, ImportedSku[]>();
  for (const sku of skus) if (sku.pzn) byPzn.set(sku.pzn, [...(byPzn.get(sku.pzn) ?? []), sku]);
  return { byId, byPzn };
}

/** The row's SKU, or why it names none. */
function skuOf(row: AssortmentCsvRow, named: Awaited<ReturnType<typeof skusNamed>>): ImportedSku | ErrorText {
  if (row.skuUid) {
    const sku = named.byId.get(row.skuUid);
    if (!sku) return errorText("assortments.csv.skuUnknown");
    if (row.pzn && sku.pzn !== row.pzn) return errorText("assortments.csv.pznMismatch", { pzn: row.pzn, skuPzn: sku.pzn ?? "—" });
    return sku;
  }
  const candidates = named.byPzn.get(row.pzn!) ?? [];
  if (candidates.length === 0) return errorText("assortments.csv.pznUnknown", { pzn: row.pzn! });
  if (candidates.length > 1) return errorText("assortments.csv.pznAmbiguous", { pzn: row.pzn!, count: candidates.length });
  return candidates[0];
}

const NEW_SKU_FIELDS = [
  ["externalId", "external_id"],
  ["price", "price_cents"],
  ["stock", "stock"],
] as const;

/**
 * What each row does to the assortment `carried` (the pharmacy's live pharmacy SKUs by SKU id): the
 * one rule of preview and import alike.
 */
function plan(rows: AssortmentCsvRow[], named: Awaited<ReturnType<typeof skusNamed>>, carried: Map<string, Carried>, pharmacy: PharmacyScope, mode: ImportMode): ImportRow[] {
  const lineOf = new Map<string, number>();
  return rows.map((row): ImportRow => {
    if (!row.skuUid && !row.pzn) return { line: row.line, outcome: "error", sku: null, reference: "", errors: row.errors };
    const reference = row.skuUid ?? row.pzn!;
    const found = skuOf(row, named);
    if (!("id" in found)) return { line: row.line, outcome: "error", sku: null, reference, errors: [found, ...row.errors] };
    const sku = found;
    const errors = [...row.errors];
    const earlier = lineOf.get(sku.id);
    if (earlier === undefined) lineOf.set(sku.id, row.line);
    else errors.push(errorText("assortments.csv.duplicateSku", { line: earlier }));
    const current = carried.get(sku.id);
    if (hidesSku(pharmacy, sku)) errors.push(errorText("assortments.hiddenType", { type: sku.digital ? "digital" : "physical" }));
    else if (!current && mode === "pharmacy") errors.push(errorText("assortments.csv.notInAssortment"));
    else if (!current) {
      const missing = NEW_SKU_FIELDS.filter(([field]) => row[field] === undefined).map(([, column]) => column);
      if (missing.length > 0) errors.push(errorText("assortments.csv.missingForNew", { columns: missing.join(", ") }));
    }
    if (errors.length > 0) return { line: row.line, outcome: "error", sku, reference, errors };
    if (!current) return { line: row.line, outcome: "create", sku, after: { externalId: row.externalId!, price: row.price!, stock: row.stock! } };
    const after = { externalId: row.externalId ?? current.externalId, price: row.price ?? current.price, stock: row.stock ?? current.stock };
    const same = after.externalId === current.externalId && after.price === current.price && after.stock === current.stock;
    if (same) return { line: row.line, outcome: "unchanged", sku, pharmacySkuId: current.id };
    const before = { externalId: current.externalId, price: current.price, stock: current.stock };
    return { line: row.line, outcome: "update", sku, pharmacySkuId: current.id, before, after };
  });
}

const countsOf = (rows: ImportRow[]): ImportCounts => {
  const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const row of rows) counts[row.outcome] += 1;
  return counts;
};

/** The pharmacy's live pharmacy SKUs of these SKUs; in a transaction `locked`, their rows are locked (in id order, as completions lock them). */
async function carriedOf(db: Db | Tx, pharmacyId: string, skuIds: string[], locked: boolean): Promise<Map<string, Carried>> {
  const rows = locked
    ? await db.$queryRaw<(Carried & { skuId: string })[]>`
        SELECT "id", "skuId", "externalId", "price", "stock" FROM "PharmacySku"
         WHERE "pharmacyId" = ${pharmacyId} AND "skuId" = ANY(${skuIds}::text[]) AND "deletedAt" IS NULL
         ORDER BY "id" FOR UPDATE`
    : await db.pharmacySku.findMany({
        where: { pharmacyId, skuId: { in: skuIds }, deletedAt: null },
        select: { id: true, skuId: true, externalId: true, price: true, stock: true },
      });
  return new Map(rows.map((r) => [r.skuId, { id: r.id, externalId: r.externalId, price: r.price, stock: r.stock }]));
}

async function planFile(db: Db | Tx, pharmacy: PharmacyScope, text: string, mode: ImportMode, locked: boolean): Promise<ImportPreview> {
  const parsed = parseAssortmentCsv(text);
  if (!parsed.ok) return parsed;
  const named = await skusNamed(db, pharmacy.organisationId, parsed.rows);
  const carried = await carriedOf(db, pharmacy.id, [...new Set([...named.byId.keys()])], locked);
  const rows = plan(parsed.rows, named, carried, pharmacy, mode);
  return { ok: true, rows, counts: countsOf(rows) };
}

/** What importing `text` would do to the pharmacy's assortment now, row by row. Writes nothing. */
export async function previewAssortmentImport(pharmacy: PharmacyScope, text: string, mode: ImportMode): Promise<ImportPreview> {
  return planFile(await database(), pharmacy, text, mode, false);
}

/** A 10,000-row file takes seconds (npm run bench -- --scenario assortments); Prisma's 5 s default would cut it. */
const IMPORT_TRANSACTION_TIMEOUT_MS = 120_000;

/**
 * Imports `text` into the pharmacy's assortment in one transaction: new pharmacy SKUs (an
 * administrator's import), new values for the others, a stock movement by `actor` and one
 * pharmacy_sku_stock_updated for each SKU whose stock changed (none for an unchanged row). A file
 * that cannot be read, or any row in error, is refused whole (UnprocessableError). `audit`
 * names the administrator whose import the audit log records.
 */
export async function applyAssortmentImport(
  pharmacy: PharmacyScope & { displayName: string },
  text: string,
  mode: ImportMode,
  actor: Actor,
  audit?: { organisationId: string },
): Promise<ImportCounts> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      await lockAssortment(tx, pharmacy.id);
      const planned = await planFile(tx, pharmacy, text, mode, true);
      if (!planned.ok) throw new UnprocessableError(planned.error);
      if (planned.counts.error > 0) throw new UnprocessableError(errorText("assortments.csv.rowsInError", { count: planned.counts.error }));
      const creates = planned.rows.flatMap((r) => (r.outcome === "create" ? [{ skuId: r.sku.id, ...r.after }] : []));
      const updates = planned.rows.flatMap((r) => (r.outcome === "update" ? [r] : []));
      await insertPharmacySkus(tx, pharmacy, creates, actor);
      if (updates.length > 0) {
        await tx.$executeRaw`
          UPDATE "PharmacySku" p SET "externalId" = v."externalId", "price" = v."price", "stock" = v."stock", "updatedAt" = now()
            FROM unnest(${updates.map((u) => u.pharmacySkuId)}::text[], ${updates.map((u) => u.after.externalId)}::text[],
                        ${updates.map((u) => u.after.price)}::int[], ${updates.map((u) => u.after.stock)}::int[]) AS v("id", "externalId", "price", "stock")
           WHERE p."id" = v."id"`;
      }
      const stockChanges = updates
        .filter((u) => u.after.stock !== u.before.stock)
        .map((u) => ({ pharmacySkuId: u.pharmacySkuId, delta: u.after.stock - u.before.stock, stockAfter: u.after.stock }));
      await recordStockMovements(tx, pharmacy, stockChanges, "STOCK_UPDATE", actor);
      const { create, update, unchanged } = planned.counts;
      if (audit) {
        await recordAuditEvent(tx, audit.organisationId, actor, {
          entity: "pharmacy",
          entityId: pharmacy.id,
          action: "assortment_imported",
          values: { name: pharmacy.displayName, added: String(create), updated: String(update), unchanged: String(unchanged) },
          summary: `Assortment of ${pharmacy.displayName} imported from CSV: ${create} added, ${update} updated, ${unchanged} unchanged`,
          details: { created: create, updated: update, unchanged },
        });
      }
      return planned.counts;
    },
    { timeout: IMPORT_TRANSACTION_TIMEOUT_MS },
  );
}
