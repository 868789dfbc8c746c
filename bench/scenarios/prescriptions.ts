/**
 * Prescriptions (in this process; no server or database): QES validation of signed 1 MB and 10 MB
 * PDFs (bench/qes.ts) and rendering of a prescription PDF with @react-pdf/renderer, one at a time.
 * Then Sign centre batches of 1, 10 and 100 approved prescriptions signed against the CSC stand-in,
 * each in a process of its own with its own embedded database (bench/sign-batch.ts): time per
 * prescription apart from the trust service's own answer time, each phase, peak memory.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { prescriptionDocumentProps } from "../../server/domain/prescriptions/document";
import { renderPrescriptionDocument } from "../../server/domain/prescriptions/render-pdf";
import { benchQesValidation } from "../qes";

export type PrescriptionBenchRow = { operation: string; runs: number; p50: number; p95: number; target: string };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n: number) => Math.round(n * 10) / 10;

async function benchRendering(runs = 40): Promise<PrescriptionBenchRow> {
  const sku = (displayName: string, pzn: string, dosage: string) => ({ displayName, prescriptionName: null, pzn, dosage, unit: "Tabletten", pcs: 28, weight: null });
  const props = prescriptionDocumentProps(
    {
      id: "8d3c2f4e-0000-4000-8000-000000000001",
      createdAt: new Date("2026-11-22T10:00:00Z"),
      organisation: { prescriptionLanguage: "de" },
      doctor: {
        id: "doctor",
        displayName: "Dr. Bench",
        email: "bench@example.com",
        professionalTitle: "Facharzt für Allgemeinmedizin",
        practiceName: "Praxis Bench",
        practiceStreet: "Hauptstraße 1",
        practicePostalCode: "10115",
        practiceCity: "Berlin",
        practiceCountry: "DE",
        phone: "+49 30 1234567",
        prescriptionEmail: null,
        identificationType: "LANR",
        identificationValue: "123456789",
      },
      patient: { displayName: "Erika Mustermann", firstName: "Erika", lastName: "Mustermann", dateOfBirth: new Date("1980-04-01T00:00:00Z") },
      order: { invoiceAddress: { street: "Hauptstraße", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" } },
      lines: [
        { id: "1", quantity: 2, dosage: "1 tablet daily", sku: sku("Finasteride 1 mg", "33333333", "1 mg") },
        { id: "2", quantity: 1, dosage: "twice daily", sku: sku("Minoxidil 5 %", "44444444", "5 %") },
        { id: "3", quantity: 1, dosage: "as needed", sku: sku("Ibuprofen 400 mg", "55555555", "400 mg") },
      ],
    },
    { signature: { kind: "qes", subject: "Dr. Bench", issuer: "Bench Trust Services", signedAt: new Date("2026-11-22T10:00:00Z") } },
  );
  for (let i = 0; i < 3; i++) await renderPrescriptionDocument(props); // module load and warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await renderPrescriptionDocument(props);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { operation: "render a prescription PDF (3 lines)", runs, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), target: "—" };
}

export async function benchPrescriptions(): Promise<PrescriptionBenchRow[]> {
  const validation = await benchQesValidation();
  return [
    ...validation.map((r) => ({
      operation: `validate a signed ${r.size} PDF`,
      runs: r.runs,
      p50: r.p50,
      p95: r.p95,
      target: r.size === "1 MB" ? "p95 < 50 ms" : "—",
    })),
    await benchRendering(),
  ];
}

export function printPrescriptionTable(rows: PrescriptionBenchRow[]): void {
  if (rows.length === 0) return;
  console.log("\nPrescriptions (in process, one at a time)\n");
  console.log("| Operation | runs | p50 ms | p95 ms | target |");
  console.log("| --- | ---: | ---: | ---: | --- |");
  for (const r of rows) console.log(`| ${r.operation} | ${r.runs} | ${r.p50} | ${r.p95} | ${r.target} |`);
}

export type BatchBenchRow = {
  n: number;
  database: string;
  authorize: number;
  signHash: number;
  wallMs: number;
  trustServiceMs: number;
  perPrescriptionMs: number;
  cpuPerPrescriptionMs: number;
  phasesMs: Record<string, number>;
  peakHeapMb: number;
  maxRssMb: number;
};

const BATCH_SIZES = [1, 10, 100];

/** `databaseUrls`: one run of each size per database (undefined: embedded PGlite). */
export function benchBatchSigning(databaseUrls: (string | undefined)[] = [undefined], sizes = BATCH_SIZES): BatchBenchRow[] {
  const root = path.resolve(import.meta.dirname, "../..");
  return databaseUrls.flatMap((url) => sizes.map((n) => {
    const env = { ...process.env };
    if (url) env.DATABASE_URL = url;
    else delete env.DATABASE_URL;
    const run = spawnSync(process.execPath, ["--import", "tsx", "bench/sign-batch.ts", String(n)], { cwd: root, encoding: "utf8", env });
    const line = run.stdout.trim().split("\n").at(-1) ?? "";
    if (run.status !== 0 || !line.startsWith("{")) throw new Error(`bench/sign-batch.ts ${n} failed: ${run.stderr || run.stdout}`);
    return JSON.parse(line) as BatchBenchRow;
  }));
}

export function printBatchTable(rows: BatchBenchRow[]): void {
  if (rows.length === 0) return;
  console.log("\nSign centre batches (one authorize + one signHash per batch; CSC stand-in in process)\n");
  console.log("| database | prescriptions | authorize / signHash | wall ms | trust service ms | ms per prescription (apart from it) | CPU ms per prescription | claim ms | render ms | sign ms | store ms | peak heap MB | max RSS MB | goal |");
  console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of rows) {
    const p = r.phasesMs;
    const ms = (phase: string) => Math.round(p[phase] ?? 0);
    console.log(
      `| ${r.database} | ${r.n} | ${r.authorize} / ${r.signHash} | ${Math.round(r.wallMs)} | ${Math.round(r.trustServiceMs)} | ${r.perPrescriptionMs} | ${r.cpuPerPrescriptionMs} | ${ms("claiming")} | ${ms("rendering")} | ${ms("signing")} | ${ms("storing")} | ${r.peakHeapMb} | ${r.maxRssMb} | ${r.n === 100 ? "< 100 ms each" : "—"} |`,
    );
  }
}
