/**
 * One Sign centre batch, measured in a process of its own (its peak memory is the batch's):
 *   node --import tsx bench/sign-batch.ts <n>
 * A fresh database (embedded PGlite under a temporary DATA_DIR; with a postgres:// DATABASE_URL a
 * new database on that server, dropped after; migrated on first use), the CSC
 * stand-in (tests/csc-stand-in.ts) in this process as the organisation's trust service, one doctor
 * with a linked OTP credential, n approved prescriptions (3 lines each, complete). After a warm-up
 * batch of one, the n are signed with signApprovedPrescriptions (claim, render, one signAll,
 * finalise) and one JSON line is printed: wall time, the stand-in's own answer time (its
 * signing, recorded per request), each phase's time (from the batch's progress), peak memory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const n = Number(process.argv[2] ?? 10);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-bench-batch-"));
process.env.DATA_DIR = dataDir;
const server = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : null;
const fresh = `rx_bench_batch_${process.pid}`;
const onServer = async (sql: string) => {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: server! });
  await client.connect();
  await client.query(sql).finally(() => client.end());
};
if (server) {
  await onServer(`CREATE DATABASE "${fresh}"`);
  const url = new URL(server);
  url.pathname = `/${fresh}`;
  process.env.DATABASE_URL = url.toString();
} else delete process.env.DATABASE_URL;
process.env.LOG_LEVEL = "silent";
process.env.SEED_ON_START = "false";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

const { startCscStandIn } = await import("../tests/csc-stand-in");
const standIn = await startCscStandIn({ name: "Bench QTSP" });
process.env.QES_TRUST_ANCHORS = standIn.caPem;

const { database, closeDatabase } = await import("../server/db/client");
const { createSku } = await import("../server/domain/catalogue/skus");
const { saveTrustServiceConnection } = await import("../server/domain/trust-service/connection");
const { linkDoctorCredential } = await import("../server/domain/trust-service/doctor-credential");
const { signApprovedPrescriptions } = await import("../server/domain/prescriptions/sign-approved");

const SYSTEM = { type: "SYSTEM" } as const;
try {
  const db = await database();
  const organisation = await db.organisation.create({ data: { displayName: "Bench organisation", sandbox: false } });
  const org = organisation.id;
  const doctor = await db.doctor.create({
    data: {
      organisationId: org,
      displayName: "Dr. Anna Bench",
      professionalTitle: "Fachärztin für Allgemeinmedizin",
      practiceStreet: "Marktstraße 1",
      practicePostalCode: "10115",
      practiceCity: "Berlin",
      practiceCountry: "DE",
      phone: "+49 30 1234567",
    },
  });
  await saveTrustServiceConnection(org, SYSTEM, { displayName: "Bench QTSP", baseUrl: standIn.baseUrl, clientId: standIn.clientId, clientSecret: standIn.clientSecret });
  const credential = await standIn.addCredential({ userId: "bench", commonName: "Dr. Anna Bench", multisign: 100 });
  await linkDoctorCredential(org, { id: doctor.id }, SYSTEM, credential);
  const product = await db.product.create({ data: { organisationId: org, displayName: "Finasteride", handle: "fin" } });
  const skus = await Promise.all(
    [
      ["Finasteride 1 mg", "33333333"],
      ["Minoxidil 5 %", "44444444"],
      ["Ibuprofen 400 mg", "55555555"],
    ].map(([displayName, pzn]) => createSku(org, product.id, { displayName, pzn }, SYSTEM)),
  );
  const approved = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const patient = await db.patientProfile.create({
        data: { organisationId: org, displayName: `Erika Muster${i}`, firstName: "Erika", lastName: `Muster${i}`, dateOfBirth: new Date("1980-04-01T00:00:00Z") },
      });
      const p = await db.prescription.create({
        data: {
          organisationId: org,
          patientId: patient.id,
          doctorId: doctor.id,
          status: "approved",
          source: "DOCTOR",
          lines: { create: skus.map((sku, line) => ({ skuId: sku.id, quantity: line + 1, dosage: "1 tablet daily in the morning" })) },
        },
      });
      ids.push(p.id);
    }
    return ids;
  };
  const batch = (ids: string[], claimId?: string) =>
    signApprovedPrescriptions(org, { id: doctor.id, actor: SYSTEM }, ids, { otp: standIn.issueOtp(credential) }, { claimId });

  // Warm-up: modules, fonts, the first PDF, the token.
  await batch(await approved(1));

  const ids = await approved(n);
  const claimId = crypto.randomUUID();
  const phases: Record<string, number> = {};
  let phase = "before";
  let phaseStart = performance.now();
  // The batch's own awaits resolve without giving timers a turn: memory is sampled at each phase, and the process's maxRSS is the peak.
  let peakHeap = 0;
  const onPhase = (next: string) => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStart);
    phase = next;
    phaseStart = performance.now();
  };
  const before = standIn.requests.length;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await signApprovedPrescriptions(org, { id: doctor.id, actor: SYSTEM }, ids, { otp: standIn.issueOtp(credential) }, { claimId, onPhase });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  onPhase("end");
  delete phases.done;
  const asked = standIn.requests.slice(before);
  const trustMs = asked.reduce((sum, r) => sum + (r.ms ?? 0), 0);
  const signed = result.outcomes.filter((o) => o.outcome === "signed").length;
  if (signed !== n) throw new Error(`only ${signed} of ${n} signed: ${JSON.stringify(result.outcomes.find((o) => o.outcome !== "signed"))}`);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  console.log(
    JSON.stringify({
      n,
      database: server ? "postgres" : "pglite",
      signed,
      authorize: asked.filter((r) => r.path === "credentials/authorize").length,
      signHash: asked.filter((r) => r.path === "signatures/signHash").length,
      wallMs: round(wall),
      trustServiceMs: round(trustMs),
      perPrescriptionMs: round((wall - trustMs) / n),
      // This process's CPU time (less the stand-in's, which runs here too): what the batch costs, apart from other processes' load.
      cpuPerPrescriptionMs: round(((used.user + used.system) / 1000 - trustMs) / n),
      phasesMs: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(v)])),
      peakHeapMb: Math.round(peakHeap / 1048576),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
} finally {
  await closeDatabase();
  await standIn.close();
  if (server) await onServer(`DROP DATABASE IF EXISTS "${fresh}" WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
