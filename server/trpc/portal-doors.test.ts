/**
 * The portal doors (init.ts) and the routers mounted under both portals (router.ts): one
 * implementation each, whose admin/pharmacy difference is the door's scope. The same calls, through
 * either door, reach exactly the door's scope.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let receiver: Receiver;
const users: Record<"admin" | "pharmacist" | "groupPharmacist" | "doctor" | "otherAdmin", PortalSessionUser> = {} as never;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  reloadConfig();
  t = await createTenant();
  other = await createTenant();
  users.admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  users.pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  users.groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyGroupId: t.group.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Door" } });
  users.doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctorRow.id });
  users.otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  receiver = await startReceiver();
});
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  reloadConfig();
  await receiver.close();
});

/** Each portal's mount of the twins, with the user who may pass its door and the one who may not. */
const DOORS = [
  { portal: "admin", user: () => users.admin, refused: () => users.pharmacist, mount: (u: PortalSessionUser | null) => as(u).admin },
  { portal: "pharmacy", user: () => users.pharmacist, refused: () => users.admin, mount: (u: PortalSessionUser | null) => as(u).pharmacy },
] as const;

describe.each(DOORS)("the $portal door of the shared routers", ({ portal, user, refused, mount }) => {
  it("admits its role only: signed out UNAUTHORIZED; the other portal's role and doctors FORBIDDEN", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const calls = (u: PortalSessionUser | null) => [
      () => mount(u).webhooks.list({}),
      () => mount(u).webhooks.sendTest({ subscriptionUid: id }),
      () => mount(u).deliveryLogs.list({}),
      () => (portal === "admin" ? as(u).admin.pharmacyStock : as(u).pharmacy.stock).list({ pharmacyUid: t.pharmacy.id }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(refused())) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(users.doctor)) expect(await trpcCode(call())).toBe("FORBIDDEN");
  });

  it("registers, lists, tells one subscription's health, test-sends and deletes within its scope; another scope's subscription is NOT_FOUND", async () => {
    const target = `${receiver.url}/doors-${portal}`;
    const created = await mount(user()).webhooks.register({ notificationType: "pharmacy_order_created", target });
    expect(created.pharmacyUid).toBe(portal === "admin" ? null : t.pharmacy.id);
    expect((await mount(user()).webhooks.list({})).map((s) => s.uid)).toContain(created.uid);
    expect(await mount(user()).webhooks.health({ subscriptionUid: created.uid })).toEqual([expect.objectContaining({ subscriptionUid: created.uid })]);

    // The admin tool's test is signed with the subscription's secret; the pharmacy portal's is not (spec, Events → Signature, item 5).
    const before = receiver.received.length;
    expect(await mount(user()).webhooks.sendTest({ subscriptionUid: created.uid })).toMatchObject({ delivered: true, signed: portal === "admin" });
    const got = receiver.received[before];
    expect(got.headers["x-webhook-test"]).toBe("true");
    expect(got.headers["x-webhook-signature"]).toBe(portal === "admin" ? createHmac("sha256", created.webhookSecret).update(got.raw).digest("hex") : undefined);

    // The other door's subscription (the organisation's for a pharmacist, a pharmacy's for an admin) is outside this scope.
    const outside = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: portal === "admin" ? t.pharmacy.id : null, target: `${target}/outside` });
    expect(await trpcCode(mount(user()).webhooks.sendTest({ subscriptionUid: outside.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(mount(user()).webhooks.health({ subscriptionUid: outside.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(mount(user()).webhooks.delete({ subscriptionUid: outside.id }))).toBe("NOT_FOUND");
    expect((await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: outside.id } })).deletedAt).toBeNull();

    expect(await mount(user()).webhooks.delete({ subscriptionUid: created.uid })).toEqual({ deleted: true });
    expect((await mount(user()).webhooks.list({})).map((s) => s.uid)).not.toContain(created.uid);
  });

  it("shows the deliveries of its scope's subscriptions only", async () => {
    const mine = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: portal === "admin" ? null : t.pharmacy.id });
    const theirs = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: portal === "admin" ? t.pharmacy.id : null });
    const seen = await createDelivery(t.db, mine, { pharmacyId: t.pharmacy.id, state: "FAILED", attempts: droppedAttempts() });
    const unseen = await createDelivery(t.db, theirs, { pharmacyId: t.pharmacy.id, state: "FAILED", attempts: droppedAttempts() });
    const listed = (await mount(user()).deliveryLogs.list({ subscriptionUid: mine.id })).items.map((i) => i.uid);
    expect(listed).toEqual([seen.id]);
    expect(await trpcCode(mount(user()).deliveryLogs.get({ deliveryUid: unseen.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(mount(user()).deliveryLogs.resend({ deliveryUid: unseen.id }))).toBe("NOT_FOUND");
  });

  it("edits the stock of a pharmacy in its scope; another organisation's pharmacy is NOT_FOUND", async () => {
    const stock = portal === "admin" ? as(user()).admin.pharmacyStock : as(user()).pharmacy.stock;
    const updated = await stock.update({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.pharmacySku.id, stock: 42 });
    expect(updated).toMatchObject({ uid: t.pharmacySku.id, stock: 42 });
    expect((await stock.list({ pharmacyUid: t.pharmacy.id })).items.map((i) => i.uid)).toContain(t.pharmacySku.id);
    expect((await stock.movements({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.pharmacySku.id }))[0]).toMatchObject({ by: { type: "USER" } });
    expect(await trpcCode(stock.list({ pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(stock.update({ pharmacyUid: other.pharmacy.id, pharmacySkuUid: other.pharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    // Only the organisation's hand on a pharmacy's stock is audited (updatePharmacySkuAsAdmin).
    const audited = await t.db.auditEvent.count({ where: { entityId: t.pharmacySku.id, actorUserId: user().id } });
    expect(audited).toBe(portal === "admin" ? 1 : 0);
  });
});

describe("the pharmacy door's scope", () => {
  it("narrows a group pharmacist's pharmacies to the chosen one, and refuses one outside the group or no choice where one is needed", async () => {
    const group = as(users.groupPharmacist).pharmacy;
    expect((await group.pharmacies.list()).map((p) => p.uid)).toEqual([t.pharmacy.id, t.groupPharmacy.id]);
    expect(await trpcCode(group.webhooks.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(group.stock.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(group.stock.list({}))).toBe("NOT_FOUND");
    expect((await group.stock.list({ pharmacyUid: t.groupPharmacy.id })).items.map((i) => i.uid)).toEqual([t.groupPharmacySku.id]);
    expect(await trpcCode(group.webhooks.register({ notificationType: "pharmacy_order_created", target: `${receiver.url}/g` }))).toBe("NOT_FOUND");
  });
});
