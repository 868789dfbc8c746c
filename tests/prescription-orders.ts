/**
 * Orders that wait for a doctor, placed over HTTP through the real order intake, and their
 * prescriptions' files. The anamnesis's patient comes from the intake's own findOrCreateShopCustomer;
 * its questionnaire and response are inserted directly (the product has no command that creates them).
 */
import { expect } from "vitest";
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { prescriptionStorage, renderedKey } from "@/server/storage/prescription-files";
import type { Tenant } from "./fixtures";
import { address, item, orderBody, placeOrder, type withShopSkus } from "./orders";

type Refs = Awaited<ReturnType<typeof withShopSkus>>;

/** A completed questionnaire response (anamnesis) of the shop customer, who is created if new. */
async function completedAnamnesis(t: Tenant, customerId: string) {
  const patient = await t.db.$transaction((tx) => findOrCreateShopCustomer(tx, t.organisation.id, t.shop.id, { id: customerId }, { firstName: address.first_name, lastName: address.last_name }));
  const questionnaire = await t.db.questionnaire.create({ data: { organisationId: t.organisation.id, displayName: "Anamnesis", model: {} } });
  return t.db.questionnaireResponse.create({
    data: { questionnaireId: questionnaire.id, patientId: patient.id, status: "COMPLETED", data: {}, completedAt: new Date() },
  });
}

/**
 * POST /v1/management/orders with one Rx item carrying an anamnesis (2 × Finasteride, 5998 paid),
 * plus `extraFulfillments`: the order waits for a doctor. Returns the Management order and its prescription's uid.
 * Unless `readyToSign` is false, the request then has what signing needs besides the doctor
 * (completeness.ts): the patient's date of birth (order intake carries none) and each line's dosage
 * instructions, written as the doctor's workspace would store them.
 */
export async function placeWaitingOrder(
  t: Tenant,
  refs: Refs,
  options: {
    customerId?: string;
    overrides?: Record<string, unknown>;
    extraFulfillments?: Record<string, unknown>[];
    quantity?: number;
    readyToSign?: boolean;
  } = {},
) {
  const customerId = options.customerId ?? "rx-customer";
  const anamnesis = await completedAnamnesis(t, customerId);
  const rxItem = item(refs.rxReference, {
    anamnesis_uid: anamnesis.id,
    quantity: options.quantity ?? 2,
    total_paid: { amount: 5998, currency: "EUR" },
  });
  const body = orderBody(t, [rxItem], { customer: { id: customerId }, ...options.overrides });
  body.fulfillments = [{ external_id: "f-rx", items: [rxItem] }, ...(options.extraFulfillments ?? [])] as typeof body.fulfillments;
  const r = await placeOrder(t, body);
  expect(r.status, r.text).toBe(201);
  expect(r.json.status).toBe(options.overrides?.on_hold ? "paused" : "waiting for doctor");
  if (options.readyToSign !== false) await readyToSign(t, r.json.prescriptions[0].uid as string);
  return { order: r.json, orderId: r.json.uid as string, prescriptionId: r.json.prescriptions[0].uid as string, anamnesisId: anamnesis.id, body };
}

/** A request's patient gets a date of birth (when they have none) and its lines dosage instructions (where they have none). */
export async function readyToSign(t: Tenant, prescriptionId: string, dosage = "1 tablet daily") {
  const p = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, select: { patientId: true } });
  await t.db.patientProfile.updateMany({ where: { id: p.patientId, dateOfBirth: null }, data: { dateOfBirth: new Date("1984-03-09T00:00:00Z") } });
  await t.db.prescriptionLine.updateMany({ where: { prescriptionId, dosage: null }, data: { dosage } });
}

/**
 * Until intake takes `_skip_validation`: the request as a skip-validation item makes it, a
 * prescription waiting for a doctor whose items carry no anamnesis.
 */
export async function dropAnamnesis(t: Tenant, prescriptionId: string) {
  await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { anamnesisId: null } });
  await t.db.orderItem.updateMany({ where: { prescriptionId }, data: { anamnesisId: null } });
}

/** A rendered PDF as the render task leaves it: the file under rendered/<uid>.pdf and renderedFileKey set. */
export async function storeRenderedPdf(t: Tenant, prescriptionId: string, content?: string | Buffer) {
  // A real PDF by default: signing with a QES signs it.
  const pdf = content === undefined ? await samplePrescriptionPdf({ patient: prescriptionId }) : Buffer.from(content);
  const stored = await prescriptionStorage().put(renderedKey(prescriptionId), pdf);
  await t.db.prescription.update({ where: { id: prescriptionId }, data: { renderedFileKey: stored.key } });
  return pdf;
}

/** Runs the pending background task `name` queued for this prescription, as a task runner would (one attempt). */
export async function runPrescriptionTask(t: Tenant, name: "prescription.render" | "pharmacy_manager.send_prescription", prescriptionId: string) {
  const { attemptTask } = await import("@/server/domain/tasks/attempt");
  const { TASK_HANDLERS } = await import("@/server/jobs/task-handlers");
  const tasks = await t.db.backgroundTask.findMany({
    where: { name, state: "PENDING", payload: { path: ["prescriptionId"], equals: prescriptionId } },
  });
  expect(tasks, `one pending ${name} task`).toHaveLength(1);
  const outcome = await attemptTask(tasks[0], TASK_HANDLERS);
  expect(outcome.state).toBe("DONE");
  return outcome;
}
