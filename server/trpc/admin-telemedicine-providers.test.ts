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

describe("changing a provider's name and identifier", () => {
  const change = (providerUid: string, displayName: string, identifier: string, user = users.admin) =>
    as(user).admin.telemedicineProviders.change({ providerUid, displayName, identifier });

  it("changes both, audited with before and after; the Management API lists the new identifier under the same uid, and the provider's key keeps working under the new name", async () => {
    const identifier = `old-${tag()}`;
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Old Name", identifier });
    const renamed = `new-${tag()}`;
    expect(await change(connected.uid, "  New Name ", renamed)).toEqual({ changed: true, uid: connected.uid, displayName: "New Name", identifier: renamed });

    const listed = await get(PROVIDERS, { key: connected.apiKey });
    expect(listed.status).toBe(200);
    const entry = (listed.json.data as { uid: string }[]).find((p) => p.uid === connected.uid);
    expect(entry).toEqual({ uid: connected.uid, display_name: "New Name", identifier: renamed });
    expect((await t.db.apiKey.findUniqueOrThrow({ where: { id: connected.keyUid } })).displayName).toBe("Telemedicine provider: New Name");

    const [event] = (await auditOf(connected.uid)).filter((e) => e.action === "changed");
    expect(event).toMatchObject({
      entityType: "telemedicine_provider",
      actorUserId: users.admin.id,
      summary: `Telemedicine provider "New Name" changed: name "Old Name" → "New Name", identifier ${identifier} → ${renamed}`,
      details: { before: { display_name: "Old Name", identifier }, after: { display_name: "New Name", identifier: renamed } },
    });
    // The old identifier is free again.
    await expect(as(users.admin).admin.telemedicineProviders.connect({ displayName: "Reuse", identifier })).resolves.toMatchObject({ identifier });
  });

  it("saving the values it has changes and records nothing; a revoked key keeps the name it had", async () => {
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Same", identifier: `same-${tag()}` });
    const before = await counts();
    expect(await change(connected.uid, "Same", connected.identifier)).toMatchObject({ changed: false });
    expect(await counts()).toEqual(before);

    const rotated = await as(users.admin).admin.telemedicineProviders.rotateKey({ providerUid: connected.uid });
    await change(connected.uid, "Renamed", connected.identifier);
    const keys = await t.db.apiKey.findMany({ where: { telemedicineProviderId: connected.uid }, orderBy: { createdAt: "asc" } });
    expect(keys.map((k) => [k.id, k.displayName])).toEqual([
      [connected.keyUid, "Telemedicine provider: Same"],
      [rotated.keyUid, "Telemedicine provider: Renamed"],
    ]);
    const [event] = (await auditOf(connected.uid)).filter((e) => e.action === "changed");
    expect(event.summary).toBe('Telemedicine provider "Renamed" changed: name "Same" → "Renamed"');
  });

  it("refuses an identifier another provider of the organisation has as the field's error, nothing written; another organisation's is free", async () => {
    const taken = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Holder", identifier: `taken-${tag()}` });
    const mover = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Mover", identifier: `mover-${tag()}` });
    const before = await counts();
    const refused = await fieldErrorsOf(change(mover.uid, "Mover", taken.identifier));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.cause.fields).toEqual({ identifier: ["A telemedicine provider with this identifier is already connected."] });
    expect(await counts()).toEqual(before);
    expect(await t.db.telemedicineProvider.findUniqueOrThrow({ where: { id: mover.uid } })).toMatchObject({ displayName: "Mover", identifier: mover.identifier });

    const otherProvider = await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: otherProviderId } });
    await expect(change(mover.uid, "Mover", otherProvider.identifier)).resolves.toMatchObject({ changed: true, identifier: otherProvider.identifier });
  });

  it("of concurrent changes of two providers to one identifier, one wins and the other gets the field error", async () => {
    const a = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "A", identifier: `a-${tag()}` });
    const b = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "B", identifier: `b-${tag()}` });
    const wanted = `wanted-${tag()}`;
    const results = await Promise.allSettled([change(a.uid, "A", wanted), change(b.uid, "B", wanted)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as TRPCError).code).toBe("BAD_REQUEST");
    expect(((refused.reason as TRPCError).cause as { fields?: Record<string, string[]> }).fields).toEqual({
      identifier: ["A telemedicine provider with this identifier is already connected."],
    });
    const holders = await t.db.telemedicineProvider.findMany({ where: { organisationId: t.organisation.id, identifier: wanted } });
    expect(holders).toHaveLength(1);
    expect((await auditOf(holders[0].id)).filter((e) => e.action === "changed")).toHaveLength(1);
    const loser = holders[0].id === a.uid ? b : a;
    expect((await auditOf(loser.uid)).filter((e) => e.action === "changed")).toHaveLength(0);
  });

  it("refuses a blank name and an identifier with spaces as field errors", async () => {
    const connected = await as(users.admin).admin.telemedicineProviders.connect({ displayName: "Checked", identifier: `chk-${tag()}` });
    expect(await trpcCode(change(connected.uid, "  ", connected.identifier))).toBe("BAD_REQUEST");
    const refused = await fieldErrorsOf(change(connected.uid, "Checked", "has space"));
    expect(refused.cause.fields?.identifier).toHaveLength(1);
    expect(await t.db.telemedicineProvider.findUniqueOrThrow({ where: { id: connected.uid } })).toMatchObject({ identifier: connected.identifier });
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
    () => c.admin.telemedicineProviders.change({ providerUid, displayName: "No", identifier: `no-${tag()}` }),
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
    expect(await trpcCode(as(users.admin).admin.telemedicineProviders.change({ providerUid: otherProviderId, displayName: "Mine", identifier: `mine-${tag()}` }))).toBe(
      "NOT_FOUND",
    );
    expect(await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: otherProviderId } })).toMatchObject({ displayName: "Theirs" });
    expect(await other.db.apiKey.findMany({ where: { telemedicineProviderId: otherProviderId } })).toEqual(keysBefore);
    expect(await other.db.auditEvent.count({ where: { entityId: otherProviderId } })).toBe(auditBefore);
    expect((await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: otherProviderId } })).allowNonQesSignedPrescriptions).toBe(false);
    expect((await as(users.admin).admin.telemedicineProviders.list()).map((p) => p.uid)).not.toContain(otherProviderId);
  });
});
