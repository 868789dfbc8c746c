import { randomUUID } from "node:crypto";
import { createApiKey } from "@/server/auth/api-keys";
import { PERMISSIONS } from "@/server/auth/permissions";
import type { Db } from "@/server/db/client";
import { issueWalletPass } from "@/server/domain/wallet-passes/issue-pass";
import { passDownloadPath } from "@/server/domain/wallet-passes/queries";
import { seedPatientFields } from "@/server/sandbox/seed-patients";

/** Patients with a shop customer each (and an e-mail on both), the organisation's waiting room, 3 doctors, wallet passes. */
export const BENCH_PATIENTS = Number(process.env.BENCH_PATIENTS ?? 100_000);
const WAITING = 500;
const COMPLETED_CONSULTATIONS = 200;
const WALLET_PASSES = 1_000;
const BATCH = 5_000;

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

const emailOf = (i: number) => `patient${i}@bench.example`;

/**
 * One organisation with BENCH_PATIENTS patients, each a customer of its shop, a waiting room with
 * WAITING patients waiting and COMPLETED_CONSULTATIONS recent consultations (the estimate reads
 * them), and WALLET_PASSES wallet passes issued through the domain (sealed barcodes). Registrations
 * during the run take patients from the upper half, who are not waiting yet.
 */
export async function seedPatients(db: Db) {
  const t0 = performance.now();
  const organisation = await db.organisation.create({ data: { displayName: "Bench patients organisation" } });
  const organisationId = organisation.id;
  const shop = await db.shop.create({ data: { organisationId, identifier: `bench-patients-${randomUUID().slice(0, 8)}`, displayName: "Bench shop" } });
  await seedPatientFields(db, organisationId);
  const doctors = await Promise.all(
    [0, 1, 2].map((i) => db.doctor.create({ data: { organisationId, displayName: `Dr. Bench ${i}` } })),
  );

  const patients = Array.from({ length: BENCH_PATIENTS }, (_, i) => ({
    id: randomUUID(),
    organisationId,
    displayName: `Patient ${i}`,
    firstName: "Patient",
    lastName: String(i),
    email: emailOf(i),
    createdAt: new Date(Date.now() - (BENCH_PATIENTS - i) * 1000),
  }));
  await inBatches(patients, (batch) => db.patientProfile.createMany({ data: batch }));
  await inBatches(
    patients.map((p, i) => ({ shopId: shop.id, shopCustomerId: `customer-${i}`, patientId: p.id, email: emailOf(i) })),
    (batch) => db.shopCustomer.createMany({ data: batch }),
  );

  const now = Date.now();
  const consultations = Array.from({ length: COMPLETED_CONSULTATIONS }, (_, i) => ({
    organisationId,
    shopId: shop.id,
    patientId: patients[i].id,
    doctorId: doctors[i % 3].id,
    status: "completed",
    allocatedAt: new Date(now - (i + 1) * 20 * 60_000),
    completedAt: new Date(now - (i + 1) * 20 * 60_000 + 12 * 60_000),
    createdAt: new Date(now - (i + 1) * 25 * 60_000),
  }));
  await db.waitingRoomEntry.createMany({ data: consultations });
  const waiting = patients.slice(COMPLETED_CONSULTATIONS, COMPLETED_CONSULTATIONS + WAITING).map((p, i) => ({
    id: randomUUID(),
    organisationId,
    shopId: shop.id,
    patientId: p.id,
    status: "waiting",
    createdAt: new Date(now - (WAITING - i) * 1000),
  }));
  await db.waitingRoomEntry.createMany({ data: waiting });

  const template = await db.walletPassTemplate.create({ data: { organisationId, shopId: shop.id, displayName: "Bench card" } });
  const passes = [];
  for (let i = 0; i < WALLET_PASSES; i++) {
    const { pass } = await issueWalletPass(organisationId, { templateId: template.id, shopIdentifier: shop.identifier, shopCustomerId: `customer-${i}` });
    passes.push({ id: pass.id, barcode: pass.barcodeValue, customer: `customer-${i}` });
  }

  const key = await createApiKey({ family: "MANAGEMENT", displayName: "bench", permissions: [...PERMISSIONS.MANAGEMENT], organisationId });
  return {
    key: key.plaintext,
    shopId: shop.id,
    shopIdentifier: shop.identifier,
    templateId: template.id,
    passes,
    patientIds: patients.map((p) => p.id),
    waitingIds: waiting.map((w) => w.id),
    seedMs: performance.now() - t0,
  };
}

export type PatientsContext = Awaited<ReturnType<typeof seedPatients>>;

/** The measured endpoints: a spread of patients, so no one row stays hot in the cache. */
export function patientsEndpoints(url: string, ctx: PatientsContext) {
  const headers = { "x-api-key": ctx.key, "content-type": "application/json" };
  const n = ctx.patientIds.length;
  const spread = (i: number) => (i * 7_919) % n;
  const run = randomUUID().slice(0, 8);
  const firstFree = Math.floor(n / 2);
  return [
    {
      name: "POST /v1/management/patients (known customer, 200)",
      expectStatus: 200,
      request: (i: number) =>
        fetch(`${url}/v1/management/patients`, {
          method: "POST",
          headers,
          body: JSON.stringify({ shop_uid: ctx.shopId, shop_customer_id: `customer-${spread(i)}` }),
        }),
    },
    {
      name: "POST /v1/management/patients (new customer with fields, 201)",
      expectStatus: 201,
      request: (i: number) =>
        fetch(`${url}/v1/management/patients`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            shop_uid: ctx.shopId,
            shop_customer_id: `new-${run}-${i}`,
            email: `new-${run}-${i}@bench.example`,
            fields: [
              { field: "first_name", value: "Ada", source: "shop" },
              { field: "date_of_birth", value: "1990-01-15", source: "shop" },
            ],
          }),
        }),
    },
    {
      name: "GET /v1/management/patients?email=",
      request: (i: number) => fetch(`${url}/v1/management/patients?email=${encodeURIComponent(emailOf(spread(i)))}`, { headers }),
    },
    {
      name: "GET /v1/management/patients/{uid}",
      request: (i: number) => fetch(`${url}/v1/management/patients/${ctx.patientIds[spread(i)]}`, { headers }),
    },
    {
      name: "POST /v1/management/waiting-room/register (201)",
      expectStatus: 201,
      request: (i: number) =>
        fetch(`${url}/v1/management/waiting-room/register`, {
          method: "POST",
          headers,
          body: JSON.stringify({ shop_uid: ctx.shopId, patient_profile_uid: ctx.patientIds[firstFree + (i % (n - firstFree))] }),
        }),
    },
    {
      name: "GET /v1/management/waiting-room/{uid}/status",
      request: (i: number) => fetch(`${url}/v1/management/waiting-room/${ctx.waitingIds[i % ctx.waitingIds.length]}/status`, { headers }),
    },
    {
      name: "POST /v1/management/wallet-passes (refresh, 200)",
      request: (i: number) =>
        fetch(`${url}/v1/management/wallet-passes`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            wallet_pass_template_uid: ctx.templateId,
            shop_identifier: ctx.shopIdentifier,
            shop_customer_id: ctx.passes[i % ctx.passes.length].customer,
          }),
        }),
    },
    {
      name: "POST /v1/management/wallet-passes/verify",
      request: (i: number) =>
        fetch(`${url}/v1/management/wallet-passes/verify`, {
          method: "POST",
          headers,
          body: JSON.stringify({ barcode_value: ctx.passes[i % ctx.passes.length].barcode }),
        }),
    },
    {
      name: "GET /wallet/passes/{uid}/{token}.pkpass (signed on each download)",
      request: (i: number) => fetch(`${url}${passDownloadPath(ctx.passes[i % ctx.passes.length].id)}`),
    },
  ];
}
