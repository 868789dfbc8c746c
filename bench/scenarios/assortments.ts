/**
 * Assortment CSV import and export of ROWS SKUs (default 10,000), in this process on the scenario's
 * fresh database: each step is one call of the admin tool's tRPC door (handleTrpcRequest with a real
 * Request: body read, JSON parsed, the procedure, its answer serialised), one at a time. Time, and
 * this process's peak memory during the step over its level before it (sampled every 5 ms: the JS
 * heap, and the resident set, which on PGlite also holds the embedded database's own memory).
 * `node --expose-gc` (NODE_OPTIONS) collects garbage before each step, for a steadier baseline.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/client";
import { handleTrpcRequest } from "@/server/trpc/handler";

const ROWS = Number(process.env.BENCH_ASSORTMENT_ROWS ?? 10_000);
const BATCH = 2_000;

export type AssortmentRow = { database: string; step: string; ms: number; heapMb: number; rssMb: number; requestKb: number; responseKb: number };

async function seed(db: Db) {
  const organisation = await db.organisation.create({ data: { displayName: "Bench assortments" } });
  const organisationId = organisation.id;
  const product = await db.product.create({ data: { organisationId, displayName: "Bench product", prescriptionRequired: false } });
  const pharmacy = await db.pharmacy.create({ data: { organisationId, displayName: "Bench pharmacy" } });
  const skus = Array.from({ length: ROWS }, (_, i) => ({
    id: randomUUID(),
    organisationId,
    productId: product.id,
    displayName: `Bench SKU ${String(i).padStart(5, "0")}`,
    pzn: String(20_000_000 + i),
  }));
  for (let i = 0; i < skus.length; i += BATCH) await db.sku.createMany({ data: skus.slice(i, i + BATCH) });
  const user = await db.user.create({
    data: { email: `bench-assortments-${randomUUID().slice(0, 8)}@example.com`, displayName: "Bench Admin", role: "ADMIN", organisationId },
  });
  const admin = { id: user.id, email: user.email, name: user.displayName, role: "ADMIN" as const, organisationId, pharmacyId: null, pharmacyGroupId: null, doctorId: null, sessionVersion: 0 };
  return { skus, pharmacyId: pharmacy.id, admin };
}

/** Peak heap and resident set above their levels at the start, sampled while `work` runs. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; heapMb: number; rssMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage();
  let heap = start.heapUsed;
  let rss = start.rss;
  const sample = () => {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  };
  const timer = setInterval(sample, 5);
  const t0 = performance.now();
  try {
    const result = await work();
    sample();
    return { result, ms: performance.now() - t0, heapMb: (heap - start.heapUsed) / 2 ** 20, rssMb: (rss - start.rss) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

export async function benchAssortments(db: Db, kind: string, log: (line: string) => void): Promise<AssortmentRow[]> {
  const { skus, pharmacyId, admin } = await seed(db);
  log(`seeded ${ROWS} SKUs for the assortment import`);
  const call = async (procedure: string, input: unknown) => {
    const get = procedure.endsWith("exportCsv");
    const body = get ? "" : JSON.stringify(input);
    const url = `http://localhost/api/trpc/${procedure}${get ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
    const response = await handleTrpcRequest(
      new Request(url, get ? {} : { method: "POST", headers: { "content-type": "application/json" }, body }),
      async () => admin,
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${procedure}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return { requestKb: body.length / 1024, responseKb: text.length / 1024, data: JSON.parse(text).result.data };
  };
  const file = (stockOf: (i: number) => number) =>
    `sku_uid,pzn,external_id,price_cents,stock\n${skus.map((s, i) => `${s.id},${s.pzn},PMS-${i},${900 + (i % 500)},${stockOf(i)}`).join("\n")}\n`;
  const created = file((i) => i % 100);
  const changed = file((i) => (i % 100) + 1);
  const steps: { step: string; procedure: string; input: unknown; expect: (data: never) => boolean }[] = [
    {
      step: `preview ${ROWS} new SKUs`,
      procedure: "admin.pharmacyStock.importPreview",
      input: { pharmacyUid: pharmacyId, csv: created },
      expect: (d: { counts: { create: number } }) => d.counts.create === ROWS,
    },
    {
      step: `import ${ROWS} new SKUs (INITIAL movements and events for those with stock)`,
      procedure: "admin.pharmacyStock.importApply",
      input: { pharmacyUid: pharmacyId, csv: created },
      expect: (d: { create: number }) => d.create === ROWS,
    },
    {
      step: `preview ${ROWS} stock changes`,
      procedure: "admin.pharmacyStock.importPreview",
      input: { pharmacyUid: pharmacyId, csv: changed },
      expect: (d: { counts: { update: number } }) => d.counts.update === ROWS,
    },
    {
      step: `import ${ROWS} stock changes (${ROWS} movements and events)`,
      procedure: "admin.pharmacyStock.importApply",
      input: { pharmacyUid: pharmacyId, csv: changed },
      expect: (d: { update: number }) => d.update === ROWS,
    },
    {
      step: `export ${ROWS} SKUs`,
      procedure: "admin.pharmacyStock.exportCsv",
      input: { pharmacyUid: pharmacyId },
      expect: (d: { csv: string }) => d.csv.split("\n").length === ROWS + 2,
    },
  ];
  const rows: AssortmentRow[] = [];
  for (const { step, procedure, input, expect } of steps) {
    const { result, ms, heapMb, rssMb } = await measured(() => call(procedure, input));
    if (!expect(result.data as never)) throw new Error(`${step}: unexpected answer`);
    rows.push({ database: kind, step, ms, heapMb, rssMb, requestKb: result.requestKb, responseKb: result.responseKb });
    log(`${step}: ${(ms / 1000).toFixed(2)} s, heap +${heapMb.toFixed(0)} MB, RSS +${rssMb.toFixed(0)} MB`);
  }
  const events = await db.outboxEvent.count({ where: { pharmacyId, eventType: "pharmacy_sku_stock_updated" } });
  log(`pharmacy_sku_stock_updated events recorded: ${events}`);
  return rows;
}

export function printAssortmentTable(rows: AssortmentRow[]): void {
  if (rows.length === 0) return;
  console.log("\nAssortment CSV (in process, through the tRPC handler, one call at a time)\n");
  console.log("| Database | Step | s | peak heap MB | peak RSS MB | request KB | response KB |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.database} | ${r.step} | ${(r.ms / 1000).toFixed(2)} | ${r.heapMb.toFixed(0)} | ${r.rssMb.toFixed(0)} | ${r.requestKb.toFixed(0)} | ${r.responseKb.toFixed(0)} |`,
    );
  }
}
