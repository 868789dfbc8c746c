import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { changeTelemedicineProviderIdentity } from "@/server/domain/telemedicine/providers";
import { get } from "@/tests/http";
import { demoFilePath, seedSandbox, seedSandboxIfEmpty, type DemoFile } from "./seed";

const readDemo = () => JSON.parse(readFileSync(demoFilePath(), "utf8")) as DemoFile;

describe("sandbox seed", () => {
  // Opening the in-memory database (initdb and every migration, synchronous WASM) took 20 s on a
  // loaded machine: done here, under hookTimeout, it no longer eats the first test's 30 s, which
  // also generates the sandbox CA's keys and hashes three passwords.
  beforeAll(() => database());

  it("seeds an empty database and writes demo.json in the contract's shape", async () => {
    const db = await database();
    expect(await seedSandboxIfEmpty(db)).not.toBeNull();
    expect(await seedSandboxIfEmpty(db)).toBeNull();
    const demo = readDemo();
    expect(statSync(demoFilePath()).mode & 0o777).toBe(0o600);
    expect(demo).toMatchObject({
      base_url: expect.stringMatching(/^http/),
      organisation_uid: expect.any(String),
      shop: { uid: expect.any(String), identifier: expect.any(String) },
      pharmacy_group_uid: expect.any(String),
      users: {
        admin: { email: expect.any(String), password: expect.any(String) },
        pharmacist: { email: expect.any(String), password: expect.any(String) },
        group_pharmacist: { email: expect.any(String), password: expect.any(String) },
      },
    });
    // One pharmacist of the first pharmacy, one of the group.
    const pharmacist = await db.user.findUniqueOrThrow({ where: { email: demo.users.pharmacist.email } });
    expect([pharmacist.role, pharmacist.pharmacyId, pharmacist.pharmacyGroupId]).toEqual(["PHARMACIST", demo.pharmacies[0].uid, null]);
    const groupPharmacist = await db.user.findUniqueOrThrow({ where: { email: demo.users.group_pharmacist.email } });
    expect([groupPharmacist.role, groupPharmacist.pharmacyId, groupPharmacist.pharmacyGroupId]).toEqual(["PHARMACIST", null, demo.pharmacy_group_uid]);
    expect(demo.pharmacies[0].group_uid).toBe(demo.pharmacy_group_uid);
    expect(demo.pharmacies[1].group_uid).toBe(demo.pharmacy_group_uid);
    expect(demo.pharmacies.some((p) => p.group_uid === null)).toBe(true);
    expect(Object.keys(demo.keys).sort()).toEqual(
      ["management", "management_order_read", "pharmacy", "pharmacy_group", "pharmacy_orders_read", "public"].sort(),
    );
    expect(demo.catalogue.otc.length).toBeGreaterThanOrEqual(2);
    expect(demo.catalogue.rx.length).toBeGreaterThanOrEqual(1);
    for (const entry of [...demo.catalogue.otc, ...demo.catalogue.rx]) {
      expect(Object.keys(entry).sort()).toEqual(["pharmacy_sku_uid", "product_reference", "product_uid", "shop_product_uid", "sku_reference", "sku_uid"]);
    }
    // The sandbox QES signer: absolute paths, a PKCS#12 file only the owner reads, the demo organisation flagged.
    expect(demo.qes).toEqual({ signer_p12_path: expect.any(String), signer_p12_password: expect.any(String), ca_cert_path: expect.any(String) });
    expect(path.isAbsolute(demo.qes.signer_p12_path) && path.isAbsolute(demo.qes.ca_cert_path)).toBe(true);
    expect(statSync(demo.qes.signer_p12_path).mode & 0o777).toBe(0o600);
    expect(readFileSync(demo.qes.ca_cert_path, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect((await db.organisation.findUniqueOrThrow({ where: { id: demo.organisation_uid } })).sandbox).toBe(true);
  });

  it("gives keys with exactly the promised permissions and scopes", async () => {
    const demo = readDemo();
    const M = "/v1/management";
    expect((await get(`${M}/products`, { key: demo.keys.management })).status).toBe(200);
    expect((await get(`${M}/products`, { key: demo.keys.management_order_read })).status).toBe(403);
    expect((await get("/v2/public-api/health", { key: demo.keys.public })).status).toBe(200);
    const skus = await get("/v1/external_pharmacy_api/pharmacy_skus", { key: demo.keys.pharmacy });
    expect(skus.status).toBe(200);
    const pharmacySkuUids = skus.json.data.map((s: { uid: string }) => s.uid);
    for (const entry of [...demo.catalogue.otc, ...demo.catalogue.rx]) expect(pharmacySkuUids).toContain(entry.pharmacy_sku_uid);
    for (const entry of demo.catalogue.otc) {
      expect(skus.json.data.find((s: { uid: string }) => s.uid === entry.pharmacy_sku_uid).stock).toBeGreaterThanOrEqual(1000);
    }
    expect((await get("/v1/external_pharmacy_api/pharmacy_skus", { key: demo.keys.pharmacy_orders_read })).status).toBe(403);
    expect((await get("/v1/external_pharmacy_api/pharmacy_skus", { key: demo.keys.pharmacy_group })).status).toBe(400);
    const viaGroup = await get("/v1/external_pharmacy_api/pharmacy_skus", {
      key: demo.keys.pharmacy_group,
      query: { pharmacy_uid: demo.pharmacies[1].uid },
    });
    expect(viaGroup.status).toBe(200);

    const db = await database();
    const rx = await db.product.findUniqueOrThrow({ where: { id: demo.catalogue.rx[0].product_uid } });
    const otc = await db.product.findUniqueOrThrow({ where: { id: demo.catalogue.otc[0].product_uid } });
    expect([rx.prescriptionRequired, otc.prescriptionRequired]).toEqual([true, false]);
  });

  it("is idempotent: a second run keeps the organisation, keys and passwords and creates nothing", async () => {
    const db = await database();
    const before = readDemo();
    const counts = async () => [await db.organisation.count(), await db.apiKey.count(), await db.pharmacy.count(), await db.sku.count(), await db.user.count()];
    const countsBefore = await counts();
    // An organisation created before the sandbox flag existed is flagged by the next seed.
    await db.organisation.update({ where: { id: before.organisation_uid }, data: { sandbox: false } });
    const again = await seedSandbox(db);
    expect(again).toEqual(before);
    expect((await db.organisation.findUniqueOrThrow({ where: { id: before.organisation_uid } })).sandbox).toBe(true);
    expect(await counts()).toEqual(countsBefore);
  });

  it("keeps the sandbox's telemedicine provider after an admin changed its identifier: demo.json names it", async () => {
    const db = await database();
    const before = readDemo();
    const admin = await db.user.findUniqueOrThrow({ where: { email: before.users.admin.email } });
    await changeTelemedicineProviderIdentity(before.organisation_uid, admin.id, before.telemedicine_provider_uid, {
      displayName: "Renamed Telemedicine",
      identifier: "renamed-telemedicine",
    });
    const providers = await db.telemedicineProvider.count();
    const after = await seedSandbox(db);
    expect(after.telemedicine_provider_uid).toBe(before.telemedicine_provider_uid);
    expect(await db.telemedicineProvider.count()).toBe(providers);
  });

  it("replaces a sandbox key that no longer works and revokes the old one", async () => {
    const db = await database();
    const before = readDemo();
    await db.apiKey.updateMany({ where: { displayName: "Sandbox: Public (all)" }, data: { revokedAt: new Date() } });
    const after = await seedSandbox(db);
    expect(after.keys.public).not.toBe(before.keys.public);
    expect((await get("/v2/public-api/health", { key: after.keys.public })).status).toBe(200);
    expect((await get("/v2/public-api/health", { key: before.keys.public })).status).toBe(401);
    expect(after.keys.management).toBe(before.keys.management);
  });
});
