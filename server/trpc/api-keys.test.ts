import { beforeAll, describe, expect, it } from "vitest";
import { authenticateRequestKey } from "@/server/auth/api-keys";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get } from "@/tests/http";
import { createPortalUser } from "@/tests/webhook-logs";
import { deactivateUser } from "@/server/domain/users/activation";

let t: Tenant;
let other: Tenant; // another organisation
let pharmacist: PortalSessionUser; // of pharmacy A (in the group)
let groupPharmacist: PortalSessionUser;
let loosePharmacist: PortalSessionUser; // of pharmacy C (no group)
let otherOrgGroupPharmacist: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  const organisationId = t.organisation.id;
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyGroupId: t.group.id });
  loosePharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.loosePharmacy.id });
  otherOrgGroupPharmacist = await createPortalUser(other.db, { role: "PHARMACIST", organisationId: other.organisation.id, pharmacyGroupId: other.group.id });
});

const ORDERS = "/v1/external_pharmacy_api/pharmacy_orders/";

describe("pharmacy.apiKeys.create", () => {
  it("creates a key of the pharmacist's pharmacy with the chosen permissions, shown once, that works at once", async () => {
    const created = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "  ERP connector ", permissions: ["orders_read", "stock_read"] });
    expect(created.apiKey).toMatch(/^rxe_/);
    expect(created).toMatchObject({
      displayName: "ERP connector",
      permissions: ["orders_read", "stock_read"],
      scope: { type: "pharmacy", uid: t.pharmacy.id, displayName: "Apotheke A" },
      createdBy: { uid: pharmacist.id, name: pharmacist.name },
      lastUsedAt: null,
    });
    expect(created.prefix).toBe(created.apiKey.slice(0, 12));
    expect((await get(ORDERS, { key: created.apiKey })).status).toBe(200);
    // Without webhooks_read: webhooks are refused.
    expect((await get("/v1/external_pharmacy_api/webhooks/", { key: created.apiKey })).status).toBe(403);

    const listed = await as(pharmacist).pharmacy.apiKeys.list();
    const entry = listed.find((k) => k.uid === created.uid)!;
    expect(entry.lastUsedAt).toEqual(expect.any(Number));
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
  });

  it("lets a single-pharmacy pharmacist create keys of their pharmacy only", async () => {
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], groupWide: true }))).toBe("BAD_REQUEST");
    // Naming its own pharmacy is fine.
    const own = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "own", permissions: ["orders_read"], pharmacyUid: t.pharmacy.id });
    expect(own.scope.uid).toBe(t.pharmacy.id);
  });

  it("lets a group pharmacist create a group key or a key of one of the group's pharmacies, and nothing else", async () => {
    const groupKey = await as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "group", permissions: ["orders_read"], groupWide: true });
    expect(groupKey.scope).toEqual({ type: "group", uid: t.group.id, displayName: "Group" });
    // A group key names the pharmacy it acts for.
    expect((await get(`${ORDERS}?pharmacy_uid=${t.groupPharmacy.id}`, { key: groupKey.apiKey })).status).toBe(200);
    const bKey = await as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "B", permissions: ["stock_read"], pharmacyUid: t.groupPharmacy.id });
    expect(bKey.scope).toMatchObject({ type: "pharmacy", uid: t.groupPharmacy.id });

    expect(await trpcCode(as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"] }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(
      await trpcCode(as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"], pharmacyUid: t.pharmacy.id, groupWide: true })),
    ).toBe("BAD_REQUEST");
  });

  it("refuses a blank name, no permission, or a permission of another family, with field errors", async () => {
    for (const input of [
      { displayName: " ", permissions: ["orders_read"] },
      { displayName: "x", permissions: [] },
      { displayName: "x", permissions: ["order:read"] },
    ]) {
      const error = await as(pharmacist).pharmacy.apiKeys.create(input as never).catch((e: unknown) => e);
      expect((error as { code: string }).code).toBe("BAD_REQUEST");
    }
  });
});

describe("apiKeys.list and scopes", () => {
  it("shows a single-pharmacy pharmacist their pharmacy's keys, a group pharmacist the group's and its pharmacies' keys", async () => {
    const aKey = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "A listed", permissions: ["orders_read"] });
    const groupKey = await as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "group listed", permissions: ["orders_read"], groupWide: true });
    const looseKey = await as(loosePharmacist).pharmacy.apiKeys.create({ displayName: "C listed", permissions: ["orders_read"] });

    const mine = (await as(pharmacist).pharmacy.apiKeys.list()).map((k) => k.uid);
    expect(mine).toContain(aKey.uid);
    expect(mine).not.toContain(groupKey.uid);
    expect(mine).not.toContain(looseKey.uid);

    const group = (await as(groupPharmacist).pharmacy.apiKeys.list()).map((k) => k.uid);
    expect(group).toEqual(expect.arrayContaining([aKey.uid, groupKey.uid]));
    expect(group).not.toContain(looseKey.uid);
    // Newest first.
    expect(group.indexOf(groupKey.uid)).toBeLessThan(group.indexOf(aKey.uid));

    expect((await as(otherOrgGroupPharmacist).pharmacy.apiKeys.list()).map((k) => k.uid)).not.toContain(groupKey.uid);
  });

  it("offers the group only to group pharmacists", async () => {
    expect(await as(pharmacist).pharmacy.apiKeys.scopes()).toEqual({ group: null, pharmacies: [{ uid: t.pharmacy.id, displayName: "Apotheke A" }] });
    const scopes = await as(groupPharmacist).pharmacy.apiKeys.scopes();
    expect(scopes.group).toEqual({ uid: t.group.id, displayName: "Group" });
    expect(scopes.pharmacies.map((p) => p.uid)).toEqual([t.pharmacy.id, t.groupPharmacy.id]);
  });
});

describe("pharmacy.apiKeys.revoke", () => {
  it("revokes a key: it fails authentication at once and leaves the list", async () => {
    const created = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "to revoke", permissions: ["orders_read"] });
    expect(await authenticateRequestKey("PHARMACY", created.apiKey, null)).not.toBeNull();
    expect(await as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: created.uid })).toEqual({ revoked: true });
    expect(await authenticateRequestKey("PHARMACY", created.apiKey, null)).toBeNull();
    expect((await get(ORDERS, { key: created.apiKey })).status).toBe(401);
    expect((await as(pharmacist).pharmacy.apiKeys.list()).map((k) => k.uid)).not.toContain(created.uid);
    // Again: nothing changes.
    expect(await as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: created.uid })).toEqual({ revoked: true });
  });

  it("answers NOT_FOUND for another pharmacy's key, the group's key, or an unknown uid, and leaves them working", async () => {
    const looseKey = await as(loosePharmacist).pharmacy.apiKeys.create({ displayName: "C", permissions: ["orders_read"] });
    const groupKey = await as(groupPharmacist).pharmacy.apiKeys.create({ displayName: "G", permissions: ["orders_read"], groupWide: true });
    const otherOrgKey = await as(otherOrgGroupPharmacist).pharmacy.apiKeys.create({ displayName: "O", permissions: ["orders_read"], groupWide: true });
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: looseKey.uid }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: groupKey.uid }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.apiKeys.revoke({ keyUid: looseKey.uid }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.apiKeys.revoke({ keyUid: otherOrgKey.uid }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.apiKeys.revoke({ keyUid: "no-such-key" }))).toBe("NOT_FOUND");
    for (const key of [looseKey, groupKey, otherOrgKey]) expect(await authenticateRequestKey("PHARMACY", key.apiKey, null)).not.toBeNull();
  });

  it("lets a group pharmacist revoke a key of one of the group's pharmacies", async () => {
    const aKey = await as(pharmacist).pharmacy.apiKeys.create({ displayName: "A by group", permissions: ["orders_read"] });
    await as(groupPharmacist).pharmacy.apiKeys.revoke({ keyUid: aKey.uid });
    expect(await authenticateRequestKey("PHARMACY", aKey.apiKey, null)).toBeNull();
  });

  it("refuses callers who are not pharmacists", async () => {
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    expect(await trpcCode(as(null).pharmacy.apiKeys.list())).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(admin).pharmacy.apiKeys.create({ displayName: "x", permissions: ["orders_read"] }))).toBe("FORBIDDEN");
  });
});

describe("a key whose creator is deactivated", () => {
  it("keeps working (it is the pharmacy's, docs/security.md) and is listed with its creator marked deactivated", async () => {
    const organisationId = t.organisation.id;
    const leaving = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
    const created = await as(leaving).pharmacy.apiKeys.create({ displayName: "Left behind", permissions: ["orders_read"] });
    expect(created.createdBy).toEqual({ uid: leaving.id, name: leaving.name, deactivated: false });

    await deactivateUser(organisationId, admin.id, leaving.id);
    expect((await get(ORDERS, { key: created.apiKey })).status).toBe(200);
    for (const viewer of [pharmacist, groupPharmacist]) {
      const listed = (await as(viewer).pharmacy.apiKeys.list()).find((k) => k.uid === created.uid);
      expect(listed?.createdBy).toEqual({ uid: leaving.id, name: leaving.name, deactivated: true });
    }
  });
});
