import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { get, post } from "@/tests/http";
import { demoFilePath, seedSandbox, type DemoFile } from "./seed";

const readDemo = () => JSON.parse(readFileSync(demoFilePath(), "utf8")) as DemoFile;

describe("sandbox: doctors and patients", () => {
  // Opening the in-memory database and generating the sandbox CA's keys: see seed.test.ts.
  beforeAll(async () => seedSandbox(await database()));

  it("names Dr. Anna Weber as doctor_uid, a doctor the Management key lists", async () => {
    const demo = readDemo();
    const doctors = await get("/v1/management/doctors", { key: demo.keys.management });
    expect(doctors.json.data).toContainEqual(expect.objectContaining({ uid: demo.doctor_uid, display_name: "Dr. Anna Weber" }));
  });

  it("defines the profile fields first_name, last_name, date_of_birth and phone, once however often it runs", async () => {
    const db = await database();
    const demo = readDemo();
    const definitions = async () =>
      (await db.patientFieldDefinition.findMany({ where: { organisationId: demo.organisation_uid }, orderBy: { key: "asc" } })).map((d) => [d.key, d.type]);
    expect(await definitions()).toEqual([["date_of_birth", "date"], ["first_name", "text"], ["last_name", "text"], ["phone", "phone"]]);
    await seedSandbox(db);
    expect(await definitions()).toHaveLength(4);

    const created = await post("/v1/management/patients", {
      key: demo.keys.management,
      body: { shop_uid: demo.shop.uid, shop_customer_id: "sandbox-1", fields: [{ field: "first_name", value: "Ada" }, { field: "phone", value: "+49 30 1234567" }] },
    });
    expect(created.status, created.text).toBe(201);
  });

  it("gives a kept sandbox key the permissions added since demo.json was written", async () => {
    const db = await database();
    const before = readDemo();
    const key = await db.apiKey.findFirstOrThrow({ where: { displayName: "Sandbox: Management (all)", revokedAt: null } });
    await db.apiKey.update({ where: { id: key.id }, data: { permissions: key.permissions.filter((p) => p !== "patient:write" && p !== "doctor:read") } });
    expect((await get("/v1/management/doctors", { key: before.keys.management })).status).toBe(403);

    const after = await seedSandbox(db);
    expect(after.keys.management).toBe(before.keys.management);
    expect((await get("/v1/management/doctors", { key: after.keys.management })).status).toBe(200);
    const body = { shop_uid: after.shop.uid, shop_customer_id: "sandbox-2" };
    expect((await post("/v1/management/patients", { key: after.keys.management, body })).status).toBe(201);
    // The order:read key keeps exactly its one permission.
    expect((await get("/v1/management/doctors", { key: after.keys.management_order_read })).status).toBe(403);
  });
});
