import { beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "@/server/auth/api-keys";
import { TELEMEDICINE_PROVIDER_KEY_PERMISSIONS } from "@/server/domain/telemedicine/providers";
import { adminCallers, as, type AdminCallers, type Caller } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { trpcCode } from "@/tests/trpc";
import { TRPCError } from "@trpc/server";

let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let otherProviderId: string;
const tag = () => Math.random().toString(36).slice(2, 10);

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  const otherAdmin = (await adminCallers(other)).admin;
  otherProviderId = (await as(otherAdmin).admin.telemedicineProviders.connect({ displayName: "Theirs", identifier: `theirs-${tag()}` })).uid;
});

const PROVIDERS = "/v1/management/telemedicine-providers";
const mine = () => ({ where: { organisationId: t.organisation.id } });
const counts = async () => [await t.db.telemedicineProvider.count(mine()), await t.db.apiKey.count(mine()), await t.db.auditEvent.count(mine())];
const auditOf = (entityId: string) => t.db.auditEvent.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });
const fieldErrorsOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, cause: (error as TRPCError).cause as { fields?: Record<string, string[]> } };
};

describe("connecting a telemedicine provider", () => {
  it("creates the provider and a Management key shown once, stored hashed, with the provider's permissions, that works at once", async () => {
    const identifier = `tele-${tag()}`;
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: " Tele Health ", identifier });
    expect(connected).toMatchObject({ displayName: "Tele Health", identifier, apiKey: expect.stringMatching(/^rxm_/) });
    expect([...connected.permissions].sort()).toEqual([...TELEMEDICINE_PROVIDER_KEY_PERMISSIONS].sort());

    const row = await t.db.apiKey.findUniqueOrThrow({ where: { id: connected.keyUid } });
    expect(row).toMatchObject({ family: "MANAGEMENT", telemedicineProviderId: connected.uid, keyHash: hashApiKey(connected.apiKey), createdById: users.admin.id });
    expect(JSON.stringify(row)).not.toContain(connected.apiKey);

    // The provider's key reads providers; it may not switch its own non-QES setting.
    expect((await get(PROVIDERS, { key: connected.apiKey })).status).toBe(200);
    expect((await patch(`${PROVIDERS}/${connected.uid}/settings`, { key: connected.apiKey, body: { allow_non_qes_signed_prescriptions: true } })).status).toBe(403);

    const listed = (await as(users.admin).admin.telemedicineProviders.list()).find((p) => p.uid === connected.uid);
    expect(listed).toMatchObject({ displayName: "Tele Health", key: { uid: connected.keyUid, prefix: connected.prefix, lastUsedAt: expect.any(Number) } });
    expect(JSON.stringify(await as(users.admin).admin.telemedicineProviders.list())).not.toContain(connected.apiKey);

    const [event] = await auditOf(connected.uid);
    expect(event).toMatchObject({ organisationId: t.organisation.id, entityType: "telemedicine_provider", action: "connected", actorUserId: users.admin.id });
    expect(event.summary).toContain("Tele Health");
    expect(JSON.stringify(event)).not.toContain(connected.apiKey);
  });

  it("refuses a taken identifier as a field error and writes nothing; concurrent connects of one identifier make one provider", async () => {
    const identifier = `dup-${tag()}`;
    await as(users.admin).admin.telemedicineProviders.connect({ displayName: "First", identifier });
    const before = await counts();
    const refused = await fieldErrorsOf(as(users.admin).admin.telemedicineProviders.connect({ displayName: "Second", identifier }));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.cause.fields).toEqual({ identifier: ["A telemedicine provider with this identifier is already connected."] });
    expect(await counts()).toEqual(before);

    const racing = `race-${tag()}`;
    const results = await Promise.allSettled([1, 2, 3].map(() => as(users.admin).admin.telemedicineProviders.connect({ displayName: "Race", identifier: racing })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as TRPCError).code).toBe("BAD_REQUEST");
    const provider = await t.db.telemedicineProvider.findFirstOrThrow({ where: { organisationId: t.organisation.id, identifier: racing } });
    expect(await t.db.apiKey.count({ where: { telemedicineProviderId: provider.id } })).toBe(1);

    // Another organisation may use the same identifier.
    const otherAdmin = (await adminCallers(other)).admin;
    await expect(as(otherAdmin).admin.telemedicineProviders.connect({ displayName: "Same", identifier })).resolves.toMatchObject({ identifier });
  });

  it("refuses a blank name or an identifier with spaces as field errors", async () => {
    expect(await trpcCode(as(users.admin).admin.telemedicineProviders.connect({ displayName: "  ", identifier: "x" }))).toBe("BAD_REQUEST");
    const refused = await fieldErrorsOf(as(users.admin).admin.telemedicineProviders.connect({ displayName: "X", identifier: "has space" }));
    expect(refused.cause.fields?.identifier).toHaveLength(1);
  });
});

describe("rotating and disconnecting", () => {
  it("rotates: the old key is refused and the new one works; concurrent rotations leave one active key", async () => {
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Rotating", identifier: `rot-${tag()}` });
    const rotated = await as(users.admin).admin.telemedicineProviders.rotateKey({ providerUid: connected.uid });
    expect(rotated.apiKey).not.toBe(connected.apiKey);
    expect((await get(PROVIDERS, { key: connected.apiKey })).status).toBe(401);
    expect((await get(PROVIDERS, { key: rotated.apiKey })).status).toBe(200);

    const many = await Promise.all([1, 2, 3].map(() => as(users.admin).admin.telemedicineProviders.rotateKey({ providerUid: connected.uid })));
    const active = await t.db.apiKey.findMany({ where: { telemedicineProviderId: connected.uid, revokedAt: null } });
    expect(active).toHaveLength(1);
    expect(many.map((k) => k.keyUid)).toContain(active[0].id);
    const events = await auditOf(connected.uid);
    expect(events.map((e) => e.action)).toEqual(["connected", "key_rotated", "key_rotated", "key_rotated", "key_rotated"]);
    for (const e of events) for (const k of [connected, rotated, ...many]) expect(e.summary).not.toContain(k.apiKey);
  });

  it("disconnects: the key is refused, the provider stays for history without a key; rotating reconnects", async () => {
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Leaving", identifier: `leave-${tag()}` });
    expect(await as(users.admin).admin.telemedicineProviders.disconnect({ providerUid: connected.uid })).toEqual({ revokedKeys: 1 });
    expect((await get(PROVIDERS, { key: connected.apiKey })).status).toBe(401);
    expect((await as(users.admin).admin.telemedicineProviders.list()).find((p) => p.uid === connected.uid)).toMatchObject({ key: null });
    expect(await as(users.admin).admin.telemedicineProviders.disconnect({ providerUid: connected.uid })).toEqual({ revokedKeys: 0 });
    const again = await as(users.admin).admin.telemedicineProviders.rotateKey({ providerUid: connected.uid });
    expect((await get(PROVIDERS, { key: again.apiKey })).status).toBe(200);
    expect((await auditOf(connected.uid)).map((e) => e.action)).toEqual(["connected", "disconnected", "key_rotated"]);
  });

  it("records the non-QES setting change in the audit log (from the admin tool and from the API)", async () => {
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Settings", identifier: `set-${tag()}` });
    await as(users.admin).admin.telemedicineProviders.saveSettings({ providerUid: connected.uid, allowNonQesSignedPrescriptions: true });
    expect((await patch(`${PROVIDERS}/${connected.uid}/settings`, { key: t.keys.management, body: { allow_non_qes_signed_prescriptions: false } })).status).toBe(200);
    const events = (await auditOf(connected.uid)).filter((e) => e.action === "settings_changed");
    expect(events.map((e) => [e.actorType, e.summary])).toEqual([
      ["USER", 'Telemedicine provider "Settings": non-QES signed prescriptions allowed'],
      ["API_KEY", 'Telemedicine provider "Settings": non-QES signed prescriptions not allowed'],
    ]);
  });
});

describe("authorisation", () => {
  const calls = (c: Caller, providerUid: string) => [
    () => c.admin.telemedicineProviders.list(),
    () => c.admin.telemedicineProviders.keyPermissions(),
    () => c.admin.telemedicineProviders.connect({ displayName: "No", identifier: `no-${tag()}` }),
    () => c.admin.telemedicineProviders.rotateKey({ providerUid }),
    () => c.admin.telemedicineProviders.disconnect({ providerUid }),
    () => c.admin.telemedicineProviders.saveSettings({ providerUid, allowNonQesSignedPrescriptions: true }),
  ];

  it("refuses the signed-out, pharmacists and doctors, writing nothing", async () => {
    const before = await counts();
    for (const call of calls(as(null), otherProviderId)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const user of [users.pharmacist, users.doctor]) for (const call of calls(as(user), otherProviderId)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await counts()).toEqual(before);
  });

  it("answers NOT_FOUND for another organisation's provider and changes nothing there", async () => {
    const keysBefore = await other.db.apiKey.findMany({ where: { telemedicineProviderId: otherProviderId } });
    const auditBefore = await other.db.auditEvent.count({ where: { entityId: otherProviderId } });
    expect(await trpcCode(as(users.admin).admin.telemedicineProviders.rotateKey({ providerUid: otherProviderId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(users.admin).admin.telemedicineProviders.disconnect({ providerUid: otherProviderId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(users.admin).admin.telemedicineProviders.saveSettings({ providerUid: otherProviderId, allowNonQesSignedPrescriptions: true }))).toBe(
      "NOT_FOUND",
    );
    expect(await other.db.apiKey.findMany({ where: { telemedicineProviderId: otherProviderId } })).toEqual(keysBefore);
    expect(await other.db.auditEvent.count({ where: { entityId: otherProviderId } })).toBe(auditBefore);
    expect((await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: otherProviderId } })).allowNonQesSignedPrescriptions).toBe(false);
    expect((await as(users.admin).admin.telemedicineProviders.list()).map((p) => p.uid)).not.toContain(otherProviderId);
  });
});
