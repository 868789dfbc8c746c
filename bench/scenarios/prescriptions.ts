/**
 * Prescriptions (in this process; no server or database): QES validation of signed 1 MB and 10 MB
 * PDFs (bench/qes.ts) and rendering of a prescription PDF with @react-pdf/renderer, one at a time.
 */
import { renderPrescriptionDocument } from "../../server/domain/prescriptions/render-pdf";
import { benchQesValidation } from "../qes";

export type PrescriptionBenchRow = { operation: string; runs: number; p50: number; p95: number; target: string };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n: number) => Math.round(n * 10) / 10;

async function benchRendering(runs = 40): Promise<PrescriptionBenchRow> {
  const props = {
    uid: "8d3c2f4e-0000-4000-8000-000000000001",
    date: "2026-11-22",
    doctorName: "Dr. Bench",
    patientName: "Erika Mustermann",
    patientDateOfBirth: "1980-04-01",
    lines: [
      { name: "Finasteride 1 mg", pzn: "33333333", dosage: "1 tablet daily", quantity: 2 },
      { name: "Minoxidil 5 %", pzn: "44444444", dosage: "twice daily", quantity: 1 },
      { name: "Ibuprofen 400 mg", pzn: "55555555", dosage: "as needed", quantity: 1 },
    ],
    createdAt: new Date("2026-11-22T10:00:00Z"),
  };
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
