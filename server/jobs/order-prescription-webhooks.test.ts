/**
 * The order and prescription events delivered end to end (docs/decisions/webhooks.md#order-and-prescription-events):
 * Management subscriptions registered through the API, the embedded runner, a real receiver on
 * 127.0.0.1; a doctor approves and signs (the sandbox organisation signs without a trust service),
 * the prescription goes to the pharmacy and the order moves on. Each delivery is signed with its
 * subscription's secret and carries the Management GET of its subject with what changed.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/domain/actor";
import { approvePrescription, signPrescription } from "@/server/domain/prescriptions/decisions";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, runPrescriptionTask } from "@/tests/prescription-orders";
import { until, useEnv } from "@/tests/wait";
import { startReceiver, type Received, type Receiver } from "@/tests/webhook-receiver";
import { WebhookRunner } from "./webhook-runner";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_BASE_MS: "40", WEBHOOK_RETRY_MAX_MS: "150", WEBHOOK_TIMEOUT_MS: "2500" });

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let receiver: Receiver;
let runner: WebhookRunner;
const secrets = new Map<string, string>(); // receiver path → webhook_secret
const doctorActor: Actor = { type: "SYSTEM" };

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  receiver = await startReceiver();
  for (const type of ["order_created", "order_updated", "prescription_created", "prescription_updated"]) {
    const r = await post("/v1/management/notification-subscriptions", {
      key: t.keys.management,
      body: { notification_type: type, target: `${receiver.url}/${type}` },
    });
    expect(r.status, r.text).toBe(201);
    secrets.set(`/${type}`, r.json.webhook_secret);
  }
  runner = new WebhookRunner({ deliver: true });
  await runner.start();
});
afterAll(async () => {
  await runner.stop();
  await receiver.close();
});

const hmac = (secret: string, raw: Buffer) => createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("hex");
const deliveredTo = (type: string) => receiver.received.filter((r) => r.path === `/${type}`);

/** The request is a real, signed delivery of `type` for its subscription. */
function expectSigned(delivery: Received, type: string) {
  expect(delivery.headers["x-webhook-event"]).toBe(type);
  expect(delivery.headers["x-webhook-test"]).toBeUndefined();
  expect(delivery.headers["x-webhook-signature"]).toBe(hmac(secrets.get(`/${type}`)!, delivery.raw));
  expect(delivery.json).toMatchObject({ event_type: type, payload_version: "1" });
  expect(Object.keys(delivery.json)).toEqual(["event_type", "timestamp", "payload_version", "data"]);
  // Organisation-level deliveries never carry the signed PDF (spec, Delivery mechanics #8).
  expect(delivery.raw.toString("utf8")).not.toContain("prescription_file");
}

describe("order and prescription webhooks to a Management subscriber", () => {
  it("delivers the order and its prescription as created, approved, signed, and the order's status change", async () => {
    const doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Weber", canSignQes: true } });
    const { orderId, prescriptionId } = await placeWaitingOrder(t, refs);
    await until(async () => deliveredTo("order_created").length === 1 && deliveredTo("prescription_created").length === 1);
    const [created] = deliveredTo("order_created");
    expectSigned(created, "order_created");
    expect(created.json.data).toMatchObject({ uid: orderId, status: "waiting for doctor", prescriptions: [{ uid: prescriptionId }] });
    expect(created.json.data.change).toBeUndefined();
    const [prescriptionCreated] = deliveredTo("prescription_created");
    expectSigned(prescriptionCreated, "prescription_created");
    expect(prescriptionCreated.json.data).toMatchObject({ uid: prescriptionId, status: "waiting for doctor", order_uid: orderId, doctor: null });

    await approvePrescription(t.organisation.id, prescriptionId, { actor: doctorActor, doctorId: doctor.id });
    await until(async () => deliveredTo("prescription_updated").length === 1);
    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    expect((await signPrescription(t.organisation.id, prescriptionId, { actor: doctorActor })).status).toBe("signed");
    await until(async () => deliveredTo("prescription_updated").length === 2);
    const [approved, signed] = deliveredTo("prescription_updated");
    for (const d of [approved, signed]) expectSigned(d, "prescription_updated");
    expect(approved.json.data.change).toEqual({
      from_status: "waiting for doctor",
      to_status: "approved",
      reason: null,
      from_doctor_uid: null,
      to_doctor_uid: doctor.id,
      doctor_assignment_reason: "decision",
    });
    expect(signed.json.data.change).toEqual({
      from_status: "approved",
      to_status: "signed",
      reason: null,
      from_doctor_uid: doctor.id,
      to_doctor_uid: doctor.id,
      doctor_assignment_reason: null,
    });
    // Built from the same data as GET /v1/management/prescriptions/{uid}.
    const { change: _change, ...shown } = signed.json.data;
    expect(shown).toEqual((await get(`/v1/management/prescriptions/${prescriptionId}`, { key: t.keys.management })).json);
    expect(shown).toMatchObject({ status: "signed", doctor: { uid: doctor.id }, rendered: true });

    // Sending the signed prescription opens its pharmacy order: the order waits for the pharmacy now.
    expect(deliveredTo("order_updated")).toHaveLength(0);
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    await until(async () => deliveredTo("order_updated").length === 1);
    const [updated] = deliveredTo("order_updated");
    expectSigned(updated, "order_updated");
    const { change, ...order } = updated.json.data;
    expect(change).toEqual({ from_status: "waiting for doctor", to_status: "waiting for pharmacy" });
    expect(order).toEqual((await get(`/v1/management/orders/${orderId}`, { key: t.keys.management })).json);
    // Nothing else arrived: one delivery per event and subscription.
    await until(async () => (await t.db.webhookDelivery.count({ where: { organisationId: t.organisation.id, state: "PENDING" } })) === 0);
    expect(receiver.received.map((r) => r.path).sort()).toEqual(
      ["/order_created", "/order_updated", "/prescription_created", "/prescription_updated", "/prescription_updated"].sort(),
    );
  });
});
