import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";

const T = new Date("2026-03-01T12:00:00.000Z");
const at = (seconds: number) => new Date(T.getTime() + seconds * 1000);
const unixAt = (seconds: number) => Math.floor(at(seconds).getTime() / 1000);

let tenant: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let admin: PortalSessionUser;
let subA: Awaited<ReturnType<typeof createSubscription>>;
let subB: Awaited<ReturnType<typeof createSubscription>>;
let subLoose: Awaited<ReturnType<typeof createSubscription>>;
const d: Record<string, string> = {};

const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  tenant = await createTenant();
  const { db } = tenant;
  const organisationId = tenant.organisation.id;
  pharmacist = await createPortalUser(db, { role: "PHARMACIST", organisationId, pharmacyId: tenant.pharmacy.id });
  groupPharmacist = await createPortalUser(db, { role: "PHARMACIST", organisationId, pharmacyGroupId: tenant.group.id });
  admin = await createPortalUser(db, { role: "ADMIN", organisationId });
  subA = await createSubscription(db, { organisationId, pharmacyId: tenant.pharmacy.id, notificationType: "pharmacy_order_updated" });
  subB = await createSubscription(db, { organisationId, pharmacyId: tenant.groupPharmacy.id, notificationType: "pharmacy_sku_stock_updated" });
  subLoose = await createSubscription(db, { organisationId, pharmacyId: tenant.loosePharmacy.id });
  d.aSucceeded = (await createDelivery(db, subA, { state: "SUCCEEDED", createdAt: at(0), attempts: [{ responseStatus: 200, durationMs: 42 }] })).id;
  d.aFailed = (await createDelivery(db, subA, { state: "FAILED", createdAt: at(60), attempts: droppedAttempts() })).id;
  d.aPending = (await createDelivery(db, subA, { state: "PENDING", createdAt: at(120), nextAttemptAt: at(130), attempts: [{ responseStatus: 502 }] })).id;
  d.bFailed = (await createDelivery(db, subB, { state: "FAILED", createdAt: at(90), attempts: droppedAttempts() })).id;
  d.loose = (await createDelivery(db, subLoose, { state: "FAILED", createdAt: at(30), attempts: droppedAttempts() })).id;
});

describe("procedure kinds", () => {
  it("refuses callers without a session, or whose user no longer exists", async () => {
    expect(await trpcCode(as(null).pharmacy.deliveryLogs.list({}))).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(null).pharmacy.deliveryLogs.resend({ deliveryUid: d.aFailed }))).toBe("UNAUTHORIZED");
    const removed = await createPortalUser(tenant.db, { role: "PHARMACIST", organisationId: tenant.organisation.id, pharmacyId: tenant.pharmacy.id });
    await tenant.db.user.delete({ where: { id: removed.id } });
    expect(await trpcCode(as(removed).pharmacy.deliveryLogs.list({}))).toBe("UNAUTHORIZED");
  });

  it("refuses administrators on pharmacist procedures, and takes the role from the database", async () => {
    expect(await trpcCode(as(admin).pharmacy.deliveryLogs.list({}))).toBe("FORBIDDEN");
    expect(await trpcCode(as(admin).pharmacy.deliveryLogs.resend({ deliveryUid: d.aFailed }))).toBe("FORBIDDEN");
    expect(await trpcCode(as(admin).pharmacy.pharmacies.list())).toBe("FORBIDDEN");
    // A session token that still says PHARMACIST for a user who is now an admin.
    expect(await trpcCode(as({ ...admin, role: "PHARMACIST" }).pharmacy.deliveryLogs.list({}))).toBe("FORBIDDEN");
  });
});

describe("pharmacy.deliveryLogs.list", () => {
  it("shows the pharmacist's own pharmacy, newest first, with dates as Unix seconds", async () => {
    const result = await as(pharmacist).pharmacy.deliveryLogs.list({});
    expect(result.total).toBe(3);
    expect(result.totalPages).toBe(1);
    expect(result.items.map((i) => i.uid)).toEqual([d.aPending, d.aFailed, d.aSucceeded]);
    expect(result.items[0]).toEqual({
      uid: d.aPending,
      eventType: "pharmacy_order_updated",
      subjectUid: expect.any(String),
      pharmacyUid: tenant.pharmacy.id,
      subscription: { uid: subA.id, target: subA.target, notificationType: "pharmacy_order_updated", deleted: false },
      state: "retrying",
      attemptCount: 1,
      maxAttempts: 5,
      nextAttemptAt: unixAt(130),
      lastAttemptAt: unixAt(120),
      createdAt: unixAt(120),
      lastAttempt: { attemptNumber: 1, responseStatus: 502, errorClass: "http_status", durationMs: 120 },
    });
  });

  it("filters by subscription, event type, state and inclusive time bounds, and pages", async () => {
    const caller = as(groupPharmacist);
    const uids = async (input: Parameters<typeof caller.pharmacy.deliveryLogs.list>[0]) => (await caller.pharmacy.deliveryLogs.list(input)).items.map((i) => i.uid);
    expect(await uids({ subscriptionUid: subB.id })).toEqual([d.bFailed]);
    expect(await uids({ eventType: "pharmacy_sku_stock_updated" })).toEqual([d.bFailed]);
    expect(await uids({ state: "failed" })).toEqual([d.bFailed, d.aFailed]);
    expect(await uids({ from: unixAt(60), to: unixAt(90) })).toEqual([d.bFailed, d.aFailed]);
    expect(await uids({ from: unixAt(61), to: unixAt(89) })).toEqual([]);
    const page = await caller.pharmacy.deliveryLogs.list({ limit: 3, page: 1 });
    expect(page).toMatchObject({ total: 4, page: 1, limit: 3, totalPages: 2 });
    expect(page.items.map((i) => i.uid)).toEqual([d.aSucceeded]);
  });

  it("refuses bad input with field errors", async () => {
    const caller = as(pharmacist);
    for (const input of [{ limit: 201 }, { limit: 0 }, { page: -1 }, { state: "dropped" }, { eventType: "order_shipped" }, { from: 100, to: 99 }]) {
      const error = await caller.pharmacy.deliveryLogs.list(input as never).catch((e: unknown) => e as TRPCError);
      expect((error as TRPCError).code).toBe("BAD_REQUEST");
    }
  });
});

describe("pharmacy scope", () => {
  it("a single-pharmacy pharmacist sees only their pharmacy; naming another is NOT_FOUND", async () => {
    const caller = as(pharmacist);
    expect((await caller.pharmacy.deliveryLogs.list({ pharmacyUid: tenant.pharmacy.id })).total).toBe(3);
    expect(await trpcCode(caller.pharmacy.deliveryLogs.list({ pharmacyUid: tenant.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.get({ deliveryUid: d.bFailed }))).toBe("NOT_FOUND");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.resend({ deliveryUid: d.bFailed }))).toBe("NOT_FOUND");
    expect((await caller.pharmacy.deliveryLogs.subscriptions()).map((s) => s.uid)).toEqual([subA.id]);
    expect(await caller.pharmacy.pharmacies.list()).toEqual([{ uid: tenant.pharmacy.id, displayName: "Apotheke A" }]);
  });

  it("a group pharmacist sees the group's pharmacies, may pick one, and nothing outside the group", async () => {
    const caller = as(groupPharmacist);
    expect((await caller.pharmacy.deliveryLogs.list({})).items.map((i) => i.uid)).toEqual([d.aPending, d.bFailed, d.aFailed, d.aSucceeded]);
    expect((await caller.pharmacy.deliveryLogs.list({ pharmacyUid: tenant.groupPharmacy.id })).items.map((i) => i.uid)).toEqual([d.bFailed]);
    expect(await trpcCode(caller.pharmacy.deliveryLogs.list({ pharmacyUid: tenant.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.get({ deliveryUid: d.loose }))).toBe("NOT_FOUND");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.get({ deliveryUid: d.aFailed, pharmacyUid: tenant.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect((await caller.pharmacy.deliveryLogs.get({ deliveryUid: d.bFailed })).uid).toBe(d.bFailed);
    expect((await caller.pharmacy.deliveryLogs.subscriptions({ pharmacyUid: tenant.groupPharmacy.id })).map((s) => s.uid)).toEqual([subB.id]);
    expect((await caller.pharmacy.pharmacies.list()).map((p) => p.uid).sort()).toEqual([tenant.pharmacy.id, tenant.groupPharmacy.id].sort());
  });
});

describe("pharmacy.deliveryLogs.get", () => {
  it("returns the delivery with every attempt", async () => {
    const detail = await as(pharmacist).pharmacy.deliveryLogs.get({ deliveryUid: d.aFailed });
    expect(detail.state).toBe("failed");
    expect(detail.attempts).toHaveLength(5);
    expect(detail.attempts[4]).toEqual({
      attemptNumber: 5,
      startedAt: unixAt(64),
      durationMs: 120,
      target: subA.target,
      responseStatus: 503,
      errorClass: "http_status",
      errorMessage: null,
      requestBytes: 512,
      nextAttemptAt: null,
    });
    expect(detail.resends).toEqual([]);
    expect(await trpcCode(as(pharmacist).pharmacy.deliveryLogs.get({ deliveryUid: "no-such-delivery" }))).toBe("NOT_FOUND");
  });
});

describe("pharmacy.deliveryLogs.resend", () => {
  it("re-sends a dropped delivery once; then and for succeeded or pending deliveries it is a CONFLICT", async () => {
    const caller = as(pharmacist);
    const fresh = await createDelivery(tenant.db, subA, { state: "FAILED", createdAt: at(10), attempts: droppedAttempts() });
    const detail = await caller.pharmacy.deliveryLogs.resend({ deliveryUid: fresh.id });
    expect(detail).toMatchObject({ uid: fresh.id, state: "retrying", attemptCount: 5, maxAttempts: 10 });
    expect(detail.resends).toEqual([{ createdAt: expect.any(Number), by: { type: "USER", id: pharmacist.id, name: pharmacist.name } }]);
    expect(await trpcCode(caller.pharmacy.deliveryLogs.resend({ deliveryUid: fresh.id }))).toBe("CONFLICT");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.resend({ deliveryUid: d.aSucceeded }))).toBe("CONFLICT");
    expect(await trpcCode(caller.pharmacy.deliveryLogs.resend({ deliveryUid: d.aPending }))).toBe("CONFLICT");
  });

  it("refuses a delivery whose subscription was deleted", async () => {
    const gone = await createSubscription(tenant.db, { organisationId: tenant.organisation.id, pharmacyId: tenant.pharmacy.id, deletedAt: new Date() });
    const delivery = await createDelivery(tenant.db, gone, { state: "FAILED", createdAt: at(5), attempts: droppedAttempts() });
    expect(await trpcCode(as(pharmacist).pharmacy.deliveryLogs.resend({ deliveryUid: delivery.id }))).toBe("CONFLICT");
  });

  it("gives exactly one re-send for ten concurrent requests", async () => {
    const delivery = await createDelivery(tenant.db, subB, { state: "FAILED", createdAt: at(7), attempts: droppedAttempts() });
    const caller = as(groupPharmacist);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => caller.pharmacy.deliveryLogs.resend({ deliveryUid: delivery.id })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as TRPCError).code).toBe("CONFLICT");
    expect(await tenant.db.webhookDeliveryResend.count({ where: { deliveryId: delivery.id } })).toBe(1);
  });
});

describe("HTTP endpoint", () => {
  const base = "http://localhost:3000/api/trpc";
  const get = (path: string, input: unknown, user: PortalSessionUser | null) =>
    handleTrpcRequest(new Request(`${base}/${path}?input=${encodeURIComponent(JSON.stringify(input))}`), async () => user);

  it("answers queries with JSON, and errors with their HTTP status and field errors", async () => {
    const ok = await get("pharmacy.deliveryLogs.list", { state: "delivered" }, pharmacist);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { result: { data: { items: { uid: string }[] } } };
    expect(body.result.data.items.map((i) => i.uid)).toEqual([d.aSucceeded]);

    expect((await get("pharmacy.deliveryLogs.list", {}, null)).status).toBe(401);
    expect((await get("pharmacy.deliveryLogs.list", {}, admin)).status).toBe(403);
    const notFound = await get("pharmacy.deliveryLogs.get", { deliveryUid: d.bFailed }, pharmacist);
    expect(notFound.status).toBe(404);
    expect(((await notFound.json()) as { error: { message: string } }).error.message).toBe("Resource not found");
    const invalid = await get("pharmacy.deliveryLogs.list", { limit: 500, from: 10, to: 5 }, pharmacist);
    expect(invalid.status).toBe(400);
    const error = ((await invalid.json()) as { error: { data: { code: string; fieldErrors: Record<string, string[]> } } }).error;
    expect(error.data.code).toBe("BAD_REQUEST");
    expect(error.data.fieldErrors).toEqual({ limit: ["Ensure this value is less than or equal to 200."], to: ["Must not be before from."] });
    const reversed = await get("pharmacy.deliveryLogs.list", { from: 10, to: 5 }, pharmacist);
    expect(((await reversed.json()) as { error: { message: string; data: { fieldErrors: unknown } } }).error).toMatchObject({
      message: "Invalid input",
      data: { fieldErrors: { to: ["Must not be before from."] } },
    });
  });

  it("runs mutations by POST and refuses cross-site POSTs", async () => {
    const delivery = await createDelivery(tenant.db, subA, { state: "FAILED", createdAt: at(3), attempts: droppedAttempts() });
    const post = (origin?: string) =>
      handleTrpcRequest(
        new Request(`${base}/pharmacy.deliveryLogs.resend`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
          body: JSON.stringify({ deliveryUid: delivery.id }),
        }),
        async () => pharmacist,
      );
    expect((await post("https://evil.example")).status).toBe(403);
    expect(await tenant.db.webhookDeliveryResend.count({ where: { deliveryId: delivery.id } })).toBe(0);
    const ok = await post("http://localhost:3000");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { data: { state: string } } }).result.data.state).toBe("retrying");
    const again = await post();
    expect(again.status).toBe(409);
    // The domain's meaning travels with the error, for the page to act on.
    expect(((await again.json()) as { error: { data: unknown } }).error.data).toMatchObject({
      code: "CONFLICT",
      reason: "delivery_not_failed",
      details: { state: "pending" },
    });
  });
});
