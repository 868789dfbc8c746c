import { createHmac } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { ValidationError } from "@/server/domain/errors";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { BLOCKED_TARGET_MESSAGE, EMBEDDED_IPV4_TARGETS, withPrivateTargetsRefused } from "@/tests/ssrf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, post } from "@/tests/http";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let receiver: Receiver;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const sign = (secret: string, raw: Buffer) => createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("hex");

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  reloadConfig();
  t = await createTenant();
  other = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Audit" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctorRow.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  receiver = await startReceiver();
});
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  reloadConfig();
  await receiver.close();
});

const auditCount = (entityId: string) => t.db.auditEvent.count({ where: { entityId } });

describe("adminWebhooks: authorisation", () => {
  it("refuses the signed-out, pharmacists and doctors on every procedure", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    // Thunks: each call starts only when awaited (no rejection is left unhandled).
    const calls = (user: PortalSessionUser | null) => [
      () => as(user).admin.webhooks.list(),
      () => as(user).admin.webhooks.health(),
      () => as(user).admin.webhooks.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/x` }),
      () => as(user).admin.webhooks.delete({ subscriptionUid: id }),
      () => as(user).admin.webhooks.sendTest({ subscriptionUid: id }),
      () => as(user).admin.deliveryLogs.list({}),
      () => as(user).admin.deliveryLogs.get({ deliveryUid: id }),
      () => as(user).admin.deliveryLogs.subscriptions({}),
      () => as(user).admin.deliveryLogs.resend({ deliveryUid: id }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(pharmacist)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(doctor)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await t.db.webhookSubscription.count({ where: { organisationId: t.organisation.id } })).toBe(0);
  });
});

describe("adminWebhooks: the organisation's subscriptions", () => {
  it("registers with the secret shown once and stored sealed, lists without it, audits, and deletes", async () => {
    const target = `${receiver.url}/org`;
    const created = await as(admin).admin.webhooks.register({ notificationType: "appointment_reminder_due", target });
    expect(created.webhookSecret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ notificationType: "appointment_reminder_due", target, pharmacyUid: null });
    const row = await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: created.uid } });
    expect(row).toMatchObject({ scope: "ORGANISATION", organisationId: t.organisation.id });
    expect(row.secretEncrypted).not.toContain(created.webhookSecret);
    expect(openSecret(row.secretEncrypted)).toBe(created.webhookSecret);

    const listed = await as(admin).admin.webhooks.list();
    expect(listed.map((s) => s.uid)).toEqual([created.uid]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(await as(otherAdmin).admin.webhooks.list()).toEqual([]);
    expect(await as(admin).admin.webhooks.health()).toEqual([expect.objectContaining({ subscriptionUid: created.uid, state: "unknown" })]);

    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { entityId: created.uid } });
    expect(audit).toMatchObject({ entityType: "webhook_subscription", action: "registered", actorType: "USER", actorUserId: admin.id });
    expect(JSON.stringify(audit)).not.toContain(created.webhookSecret);

    // Another organisation's admin: not found, nothing written.
    expect(await trpcCode(as(otherAdmin).admin.webhooks.delete({ subscriptionUid: created.uid }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherAdmin).admin.webhooks.sendTest({ subscriptionUid: created.uid }))).toBe("NOT_FOUND");
    expect((await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: created.uid } })).deletedAt).toBeNull();
    expect(await auditCount(created.uid)).toBe(1);

    // A double click on delete: one deletion, one audit event, the other not found.
    const results = await Promise.allSettled([
      as(admin).admin.webhooks.delete({ subscriptionUid: created.uid }),
      as(admin).admin.webhooks.delete({ subscriptionUid: created.uid }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await as(admin).admin.webhooks.list()).toEqual([]);
    expect(await t.db.auditEvent.count({ where: { entityId: created.uid, action: "deleted" } })).toBe(1);
  });

  it("subscribes the organisation to the order and prescription events", async () => {
    for (const notificationType of ["order_created", "order_updated", "prescription_created", "prescription_updated"] as const) {
      const created = await as(admin).admin.webhooks.register({ notificationType, target: `${receiver.url}/${notificationType}` });
      expect(created).toMatchObject({ notificationType, pharmacyUid: null });
      expect(await as(admin).admin.webhooks.delete({ subscriptionUid: created.uid })).toEqual({ deleted: true });
    }
  });

  it("refuses bad input with field errors and writes nothing; a pharmacy's subscription is not the admin's", async () => {
    // The domain's field errors, which the error formatter hands to the form (init.ts).
    const error = (await as(admin)
      .admin.webhooks.register({ notificationType: "pharmacy_order_updated", target: "ftp://example.com/x" })
      .catch((e: unknown) => e)) as TRPCError;
    expect(error).toMatchObject({ code: "BAD_REQUEST" });
    expect(error.cause).toBeInstanceOf(ValidationError);
    expect(Object.keys((error.cause as ValidationError).fields)).toEqual(["target"]);
    expect(await trpcCode(as(admin).admin.webhooks.register({ notificationType: "no_such_event" as never, target: `${receiver.url}/y` }))).toBe("BAD_REQUEST");
    expect(await as(admin).admin.webhooks.list()).toEqual([]);

    const pharmacySubscription = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, target: `${receiver.url}/p` });
    expect(await trpcCode(as(admin).admin.webhooks.delete({ subscriptionUid: pharmacySubscription.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.webhooks.sendTest({ subscriptionUid: pharmacySubscription.id }))).toBe("NOT_FOUND");
  });

  it("refuses IPv6 forms that embed a loopback, private or metadata IPv4 address", async () => {
    await withPrivateTargetsRefused(async () => {
      for (const target of EMBEDDED_IPV4_TARGETS) {
        const refused = (await as(admin).admin.webhooks.register({ notificationType: "pharmacy_order_updated", target }).catch((e: unknown) => e)) as TRPCError;
        expect([refused.code, (refused.cause as ValidationError).fields], target).toEqual(["BAD_REQUEST", { target: [BLOCKED_TARGET_MESSAGE] }]);
      }
    });
    expect(await t.db.webhookSubscription.count({ where: { target: { in: EMBEDDED_IPV4_TARGETS } } })).toBe(0);
  });

  it("sends a test signed with the subscription's secret, marked as a test", async () => {
    const target = `${receiver.url}/signed-test`;
    const created = await as(admin).admin.webhooks.register({ notificationType: "pharmacy_order_updated", target, headerKey: "X-Receiver", headerValue: "abc" });
    const before = receiver.received.length;
    const result = await as(admin).admin.webhooks.sendTest({ subscriptionUid: created.uid });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, signed: true });
    const request = receiver.received[before];
    expect(request.path).toBe("/signed-test");
    expect(request.headers["x-webhook-test"]).toBe("true");
    expect(request.headers["x-webhook-event"]).toBe("pharmacy_order_updated");
    expect(request.headers["x-receiver"]).toBe("abc");
    expect(request.headers["x-webhook-signature"]).toBe(sign(created.webhookSecret, request.raw));
    expect(request.json).toMatchObject({ event_type: "pharmacy_order_updated", data: expect.any(Object) });
    // Organisation deliveries carry no prescription file.
    expect(request.json.data.prescription_file).toBeUndefined();
  });
});

describe("audit events from the other doors", () => {
  it("records the Management API's register and delete with the API key as actor, and the pharmacy portal's with the user", async () => {
    const r = await post("/v1/management/notification-subscriptions", {
      key: t.keys.management,
      body: { notification_type: "patient_doctor_meeting_updated", target: `${receiver.url}/rest` },
    });
    expect(r.status).toBe(201);
    expect((await del(`/v1/management/notification-subscriptions/${r.json.uid}`, { key: t.keys.management })).status).toBe(204);
    const events = await t.db.auditEvent.findMany({ where: { entityId: r.json.uid }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.action, e.actorType, e.actorApiKeyId])).toEqual([
      ["registered", "API_KEY", expect.any(String)],
      ["deleted", "API_KEY", expect.any(String)],
    ]);
    expect(await t.db.apiKey.count({ where: { id: events[0].actorApiKeyId!, organisationId: t.organisation.id, family: "MANAGEMENT" } })).toBe(1);

    const portal = await as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_created", target: `${receiver.url}/portal` });
    expect(await t.db.auditEvent.findFirstOrThrow({ where: { entityId: portal.uid } })).toMatchObject({
      action: "registered",
      actorType: "USER",
      actorUserId: pharmacist.id,
      summary: `Pharmacy webhook pharmacy_order_created to ${receiver.url}/portal registered`,
    });
  });

  it("records pharmacy keys created and revoked in the pharmacy portal, without the key", async () => {
    const created = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "Shop ERP", permissions: ["orders_read"] });
    await as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: created.uid });
    await as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: created.uid }); // again: nothing changes, nothing recorded
    const events = await t.db.auditEvent.findMany({ where: { entityId: created.uid }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.entityType, e.action, e.actorUserId])).toEqual([
      ["api_key", "created", pharmacist.id],
      ["api_key", "revoked", pharmacist.id],
    ]);
    expect(events[0].summary).toBe('External Pharmacy API key "Shop ERP" for pharmacy Apotheke A created (orders_read)');
    expect(JSON.stringify(events)).not.toContain(created.apiKey);
  });
});

describe("adminWebhookLogs", () => {
  let orgSub: Awaited<ReturnType<typeof createSubscription>>;
  let otherSub: Awaited<ReturnType<typeof createSubscription>>;
  const d: Record<string, string> = {};

  beforeAll(async () => {
    orgSub = await createSubscription(t.db, { organisationId: t.organisation.id, notificationType: "pharmacy_order_updated", target: `${receiver.url}/logs` });
    const pharmacySub = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, target: `${receiver.url}/pl` });
    otherSub = await createSubscription(other.db, { organisationId: other.organisation.id, target: `${receiver.url}/other` });
    d.ok = (await createDelivery(t.db, orgSub, { pharmacyId: t.pharmacy.id, state: "SUCCEEDED", createdAt: new Date(Date.now() - 60_000), attempts: [{ responseStatus: 200 }] })).id;
    d.failed = (await createDelivery(t.db, orgSub, { pharmacyId: t.groupPharmacy.id, state: "FAILED", attempts: droppedAttempts() })).id;
    d.pharmacy = (await createDelivery(t.db, pharmacySub, { state: "FAILED", attempts: droppedAttempts() })).id;
    d.other = (await createDelivery(other.db, otherSub, { state: "FAILED", attempts: droppedAttempts() })).id;
  });

  it("lists the organisation subscriptions' deliveries only, with attempts, in the pharmacy portal's shapes", async () => {
    const list = await as(admin).admin.deliveryLogs.list({});
    expect(list.items.map((i) => i.uid)).toEqual([d.failed, d.ok]);
    expect(list.items[0]).toMatchObject({ state: "failed", attemptCount: 5, subscription: { uid: orgSub.id, deleted: false } });
    expect((await as(admin).admin.deliveryLogs.list({ state: "delivered" })).items.map((i) => i.uid)).toEqual([d.ok]);
    expect((await as(admin).admin.deliveryLogs.list({ pharmacyUid: t.pharmacy.id })).items.map((i) => i.uid)).toEqual([d.ok]);
    const detail = await as(admin).admin.deliveryLogs.get({ deliveryUid: d.failed });
    expect(detail.attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    expect((await as(admin).admin.deliveryLogs.subscriptions({})).map((s) => s.uid)).toContain(orgSub.id);
    expect((await as(admin).admin.deliveryLogs.subscriptions({})).map((s) => s.uid)).not.toContain(otherSub.id);

    expect(await trpcCode(as(admin).admin.deliveryLogs.get({ deliveryUid: d.pharmacy }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.deliveryLogs.get({ deliveryUid: d.other }))).toBe("NOT_FOUND");
    expect((await as(otherAdmin).admin.deliveryLogs.list({})).items.map((i) => i.uid)).toEqual([d.other]);
  });

  it("re-sends a dropped delivery exactly once under concurrent clicks, and audits it; another organisation's is not found", async () => {
    expect(await trpcCode(as(admin).admin.deliveryLogs.resend({ deliveryUid: d.other }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.deliveryLogs.resend({ deliveryUid: d.pharmacy }))).toBe("NOT_FOUND");
    expect(await other.db.webhookDeliveryResend.count({ where: { deliveryId: d.other } })).toBe(0);
    expect(await t.db.webhookDeliveryResend.count({ where: { deliveryId: d.pharmacy } })).toBe(0);
    expect(await trpcCode(as(admin).admin.deliveryLogs.resend({ deliveryUid: d.ok }))).toBe("CONFLICT");

    const results = await Promise.allSettled([
      as(admin).admin.deliveryLogs.resend({ deliveryUid: d.failed }),
      as(admin).admin.deliveryLogs.resend({ deliveryUid: d.failed }),
      as(admin).admin.deliveryLogs.resend({ deliveryUid: d.failed }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.webhookDeliveryResend.count({ where: { deliveryId: d.failed } })).toBe(1);
    expect(await t.db.auditEvent.count({ where: { entityId: d.failed, action: "resend_requested" } })).toBe(1);
    const row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d.failed } });
    expect(row).toMatchObject({ maxAttempts: 10 });
    const detail = await as(admin).admin.deliveryLogs.get({ deliveryUid: d.failed });
    expect(detail.resends).toEqual([{ createdAt: expect.any(Number), by: { type: "USER", id: admin.id, name: admin.name } }]);
  });
});
