import { Prisma, type RawTx } from "@/server/db/client";

/**
 * What a prescription line covers and how much of it is redeemed (docs/decisions/prescriptions.md#prescription-redemption).
 * Redeemed is computed, never stored: the quantities of the order items that reference the
 * prescription and are not cancelled, per SKU (the order it was issued for included: paths (b) and
 * (d) make its lines from those very items). A cancelled fulfillment cancels its items, and so
 * gives its quantity back in the cancellation's own transaction; a counter could drift from that.
 */
export type LineRedemption = { lineId: string; skuId: string; quantity: number; redeemed: number; remaining: number };

export type PrescriptionRedemption = {
  id: string;
  patientId: string;
  /** The lines in id order (the order GET /prescriptions/{uid} lists them). */
  lines: LineRedemption[];
  /** The orders whose live items redeem it, the earliest first. */
  redeemedBy: string[];
};

type Row = {
  id: string;
  patientId: string;
  lines: { lineId: string; skuId: string; quantity: number }[];
  redeemed: { skuId: string; quantity: number }[];
  orders: string[];
};

/**
 * The redemption of each prescription of `ids` (one statement). Inside intake's transaction call it
 * only after lockForRedemption: on PostgreSQL (read committed) a statement that starts after the
 * lock was granted sees the items of the transaction that held it.
 */
export async function redemptionsOf(tx: RawTx, ids: readonly string[]): Promise<Map<string, PrescriptionRedemption>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRaw<Row[]>(Prisma.sql`
    SELECT p."id", p."patientId",
           coalesce((SELECT json_agg(json_build_object('lineId', l."id", 'skuId', l."skuId", 'quantity', l."quantity") ORDER BY l."id")
                       FROM "PrescriptionLine" l WHERE l."prescriptionId" = p."id"), '[]'::json) AS "lines",
           coalesce((SELECT json_agg(json_build_object('skuId', r."skuId", 'quantity', r."quantity"))
                       FROM (SELECT i."skuId", sum(i."quantity")::int AS "quantity" FROM "OrderItem" i
                              WHERE i."prescriptionId" = p."id" AND i."status" <> 'CANCELLED' GROUP BY i."skuId") r), '[]'::json) AS "redeemed",
           coalesce((SELECT json_agg(o."orderId" ORDER BY o."first", o."orderId")
                       FROM (SELECT i."orderId", min(i."createdAt") AS "first" FROM "OrderItem" i
                              WHERE i."prescriptionId" = p."id" AND i."status" <> 'CANCELLED' GROUP BY i."orderId") o), '[]'::json) AS "orders"
      FROM "Prescription" p
     WHERE p."id" = ANY(${[...ids]}::text[])`);
  return new Map(rows.map((row) => [row.id, { id: row.id, patientId: row.patientId, lines: spread(row.lines, row.redeemed), redeemedBy: row.orders }]));
}

/**
 * A SKU's redeemed quantity spread over its lines in line order: each line is filled before the
 * next; whatever exceeds them all (items redeemed before redemption was checked) stays on the last.
 */
function spread(lines: Row["lines"], redeemed: Row["redeemed"]): LineRedemption[] {
  const left = new Map(redeemed.map((r) => [r.skuId, r.quantity]));
  const lastOfSku = new Map(lines.map((l, index) => [l.skuId, index]));
  return lines.map((line, index) => {
    const pool = left.get(line.skuId) ?? 0;
    const taken = lastOfSku.get(line.skuId) === index ? pool : Math.min(pool, line.quantity);
    left.set(line.skuId, pool - taken);
    return { ...line, redeemed: taken, remaining: Math.max(0, line.quantity - taken) };
  });
}

/** What a prescription covers of a SKU: prescribed, redeemed and left (0 when it does not prescribe it). */
export function skuRedemption(redemption: PrescriptionRedemption, skuId: string) {
  const lines = redemption.lines.filter((l) => l.skuId === skuId);
  return {
    prescribed: lines.reduce((sum, l) => sum + l.quantity, 0),
    redeemed: lines.reduce((sum, l) => sum + l.redeemed, 0),
    remaining: lines.reduce((sum, l) => sum + l.remaining, 0),
  };
}

/**
 * Locks the prescriptions of `ids` for the rest of the transaction, in id order (so that two
 * intakes naming the same prescriptions never wait on each other in a circle), and returns those
 * still live in the organisation with their status. FOR NO KEY UPDATE: intakes redeeming one
 * prescription run one after the other, while inserts that merely reference it (an item, a
 * history entry: a key-share lock) do not wait.
 */
export async function lockForRedemption(tx: RawTx, organisationId: string, ids: readonly string[]): Promise<Map<string, { status: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; status: string }[]>(Prisma.sql`
    SELECT "id", "status" FROM "Prescription"
     WHERE "id" = ANY(${[...new Set(ids)].sort()}::text[]) AND "organisationId" = ${organisationId} AND "deletedAt" IS NULL
     ORDER BY "id"
       FOR NO KEY UPDATE`);
  return new Map(rows.map((r) => [r.id, { status: r.status }]));
}

/**
 * Serialises, until the transaction ends, every intake of the organisation that submits the signed
 * PDF with this SHA-256 inline: the first records it, the next finds it recorded. An advisory lock,
 * as no row exists yet to lock on a first submission; taken in hash order when there are several.
 */
export async function lockSignedPdf(tx: RawTx, organisationId: string, sha256s: readonly string[]): Promise<void> {
  for (const sha256 of [...new Set(sha256s)].sort()) {
    await tx.$executeRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`prescription-pdf:${organisationId}:${sha256}`}, 0))`);
  }
}

/** The live prescriptions of the organisation whose signed PDF has one of these SHA-256s: the earliest of each. */
export async function prescriptionsBySignedPdf(tx: RawTx, organisationId: string, sha256s: readonly string[]): Promise<Map<string, string>> {
  if (sha256s.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; sha256: string }[]>(Prisma.sql`
    SELECT DISTINCT ON ("signedFileSha256") "id", "signedFileSha256" AS "sha256" FROM "Prescription"
     WHERE "organisationId" = ${organisationId} AND "signedFileSha256" = ANY(${[...sha256s]}::text[]) AND "deletedAt" IS NULL
     ORDER BY "signedFileSha256", "createdAt", "id"`);
  return new Map(rows.map((r) => [r.sha256, r.id]));
}
