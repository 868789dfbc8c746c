/**
 * Prescriptions (in this process; no server or database): QES validation of signed 1 MB and 10 MB
 * PDFs (bench/qes.ts) and rendering of a prescription PDF with @react-pdf/renderer, one at a time.
 */
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
