import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createApiKey } from "@/server/auth/api-keys";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get } from "@/tests/http";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let providerId: string;
let otherProviderId: string;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  const tag = Math.random().toString(36).slice(2, 10);
  providerId = (await t.db.telemedicineProvider.create({ data: { organisationId: t.organisation.id, displayName: "Tele A", identifier: `tele-a-${tag}` } })).id;
  otherProviderId = (
    await other.db.telemedicineProvider.create({ data: { organisationId: other.organisation.id, displayName: "Tele B", identifier: `tele-b-${tag}` } })
  ).id;
});

const ORDERS = "/v1/management/orders";

describe("adminApiKeys", () => {
  it("creates a Management key shown once that works at once, lists it without the key, and revokes it (then 401)", async () => {
    const created = await as(admin).admin.apiKeys.create({ family: "MANAGEMENT", displayName: " Ops ", permissions: ["order:read", "patient:write"] });
    expect(created.apiKey).toMatch(/^rxm_/);
    expect(created).toMatchObject({ family: "MANAGEMENT", displayName: "Ops", permissions: ["order:read", "patient:write"], lastUsedAt: null });
    expect(created.createdBy).toEqual({ uid: admin.id, name: admin.name, deactivated: false });
    expect((await get(ORDERS, { key: created.apiKey })).status).toBe(200);

    const listed = await as(admin).admin.apiKeys.list();
    expect(listed.find((k) => k.uid === created.uid)?.lastUsedAt).toEqual(expect.any(Number));
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);

    expect(await as(admin).admin.apiKeys.revoke({ keyUid: created.uid })).toEqual({ revoked: true });
    expect((await get(ORDERS, { key: created.apiKey })).status).toBe(401);
    expect((await as(admin).admin.apiKeys.list()).some((k) => k.uid === created.uid)).toBe(false);
  });

  it("creates a Public key with patient_data and refuses another family's permission or none", async () => {
    const created = await as(admin).admin.apiKeys.create({ family: "PUBLIC", displayName: "Shop", permissions: ["patient_data"] });
    expect(created.apiKey).toMatch(/^rxp_/);
    expect(await trpcCode(as(admin).admin.apiKeys.create({ family: "PUBLIC", displayName: "x", permissions: ["patient:write"] as never }))).toBe("BAD_REQUEST");
    expect(await trpcCode(as(admin).admin.apiKeys.create({ family: "MANAGEMENT", displayName: "x", permissions: [] }))).toBe("BAD_REQUEST");
    expect(await trpcCode(as(admin).admin.apiKeys.create({ family: "MANAGEMENT", displayName: "   ", permissions: ["order:read"] }))).toBe("BAD_REQUEST");
  });

  it("lists only the organisation's Management and Public keys, not pharmacy keys nor another organisation's", async () => {
    const pharmacyKey = await createApiKey({ family: "PHARMACY", displayName: "erp", permissions: ["orders_read"], organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    const foreign = await createApiKey({ family: "MANAGEMENT", displayName: "theirs", permissions: ["order:read"], organisationId: other.organisation.id });
    const uids = (await as(admin).admin.apiKeys.list()).map((k) => k.uid);
    expect(uids).not.toContain(pharmacyKey.id);
    expect(uids).not.toContain(foreign.id);
    // Revoking either is not found, and leaves it working.
    expect(await trpcCode(as(admin).admin.apiKeys.revoke({ keyUid: foreign.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.apiKeys.revoke({ keyUid: pharmacyKey.id }))).toBe("NOT_FOUND");
    expect((await get(ORDERS, { key: foreign.plaintext })).status).toBe(200);
    expect(await trpcCode(as(otherAdmin).admin.apiKeys.revoke({ keyUid: "00000000-0000-4000-8000-000000000000" }))).toBe("NOT_FOUND");
  });

  it("is for admins only: a pharmacist is FORBIDDEN, nobody signed in UNAUTHORIZED", async () => {
    expect(await trpcCode(as(pharmacist).admin.apiKeys.list())).toBe("FORBIDDEN");
    expect(await trpcCode(as(pharmacist).admin.apiKeys.create({ family: "MANAGEMENT", displayName: "x", permissions: ["order:read"] }))).toBe("FORBIDDEN");
    expect(await trpcCode(as(pharmacist).admin.apiKeys.revoke({ keyUid: providerId }))).toBe("FORBIDDEN");
    expect(await trpcCode(as(null).admin.apiKeys.list())).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(null).admin.apiKeys.create({ family: "MANAGEMENT", displayName: "x", permissions: ["order:read"] }))).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(null).admin.apiKeys.revoke({ keyUid: providerId }))).toBe("UNAUTHORIZED");
  });

  it("re-reads the user on every call: a demoted admin is refused at once", async () => {
    const demoted = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    expect(Array.isArray(await as(demoted).admin.apiKeys.list())).toBe(true);
    await t.db.user.update({ where: { id: demoted.id }, data: { role: "PHARMACIST", pharmacyId: t.pharmacy.id } });
    expect(await trpcCode(as(demoted).admin.apiKeys.list())).toBe("FORBIDDEN");
  });
});

describe("adminTelemedicineProviders", () => {
  it("lists the organisation's providers and saves the non-QES setting, as the Management API reads it", async () => {
    const listed = await as(admin).admin.telemedicineProviders.list();
    expect(listed.map((p) => p.uid)).toEqual([providerId]);
    expect(listed[0]).toMatchObject({ displayName: "Tele A", allowNonQesSignedPrescriptions: false });
    expect(await as(admin).admin.telemedicineProviders.saveSettings({ providerUid: providerId, allowNonQesSignedPrescriptions: true })).toEqual({
      allowNonQesSignedPrescriptions: true,
    });
    const res = await get(`/v1/management/telemedicine-providers/${providerId}/settings`, { key: t.keys.management });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ allow_non_qes_signed_prescriptions: true });
  });

  it("answers NOT_FOUND for another organisation's provider and changes nothing", async () => {
    expect(await trpcCode(as(admin).admin.telemedicineProviders.saveSettings({ providerUid: otherProviderId, allowNonQesSignedPrescriptions: true }))).toBe("NOT_FOUND");
    expect((await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: otherProviderId } })).allowNonQesSignedPrescriptions).toBe(false);
  });

  it("is for admins only", async () => {
    expect(await trpcCode(as(pharmacist).admin.telemedicineProviders.list())).toBe("FORBIDDEN");
    expect(await trpcCode(as(pharmacist).admin.telemedicineProviders.saveSettings({ providerUid: providerId, allowNonQesSignedPrescriptions: false }))).toBe("FORBIDDEN");
    expect(await trpcCode(as(null).admin.telemedicineProviders.list())).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(null).admin.telemedicineProviders.saveSettings({ providerUid: providerId, allowNonQesSignedPrescriptions: false }))).toBe("UNAUTHORIZED");
  });
});
