/**
 * Micro-benchmark of QES validation (validateQesPdf) on signed 1 MB and 10 MB prescriptions, in
 * this process, no server or database: a test CA and qualified signer, sample PDFs padded with
 * incompressible images, signed once, then validated `runs` times each after a warm-up.
 * Timings in milliseconds per validation (one at a time).
 */
import { createRootCa, issueSignerCertificate, toPkcs12 } from "@/server/pki/certificates";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";

export type QesBenchRow = { size: string; p50: number; p95: number; runs: number };

const MB = 1024 * 1024;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function benchQesValidation(options: { sizes?: { label: string; bytes: number; runs: number }[] } = {}): Promise<QesBenchRow[]> {
  const sizes = options.sizes ?? [
    { label: "1 MB", bytes: MB, runs: 200 },
    { label: "10 MB", bytes: 10 * MB, runs: 50 },
  ];
  const ca = await createRootCa({ commonName: "Bench QES Root CA" });
  const signer = await issueSignerCertificate({ commonName: "Dr. Bench", issuer: ca });
  const password = "bench";
  const p12 = toPkcs12(signer, [ca.certificatePem], password);
  const trustAnchors = [ca.certificatePem];

  const rows: QesBenchRow[] = [];
  for (const size of sizes) {
    const pdf = await signPdfWithP12(await samplePrescriptionPdf({ paddingBytes: size.bytes }), p12, password);
    for (let i = 0; i < 5; i++) await validateQesPdf(pdf, { trustAnchors });
    const times: number[] = [];
    for (let i = 0; i < size.runs; i++) {
      const started = performance.now();
      const result = await validateQesPdf(pdf, { trustAnchors });
      times.push(performance.now() - started);
      if (!result.valid) throw new Error(`bench PDF did not validate: ${result.code}: ${result.message}`);
    }
    times.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    rows.push({ size: size.label, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), runs: size.runs });
  }
  return rows;
}
