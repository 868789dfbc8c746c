import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { get, post } from "@/tests/http";
import { mintPatientToken } from "@/tests/patient-tokens";
import { demoFilePath, seedSandbox, type DemoFile } from "./seed";

const readDemo = () => JSON.parse(readFileSync(demoFilePath(), "utf8")) as DemoFile;
const P = "/api/v0/patient";

describe("sandbox: patient tokens", () => {
  // Opening the in-memory database and generating the sandbox CA's keys: see seed.test.ts.
  beforeAll(async () => seedSandbox(await database()));

  it("writes patient_token_secret {kid, secret, audience, header}: tokens it signs reach the patient-data endpoints", async () => {
    const demo = readDemo();
    expect(demo.patient_token_secret).toEqual({
      kid: expect.any(String),
      secret: expect.stringMatching(/^ptsec_/),
      audience: "patient-data",
      header: "X-Service-Booking-Token",
    });
    const created = await post("/v1/management/patients", { key: demo.keys.management, body: { shop_uid: demo.shop.uid, shop_customer_id: "token-1" } });
    expect(created.status, created.text).toBe(201);
    const customer = { shop_identifier: demo.shop.identifier, shop_customer_id: "token-1" };
    const token = await mintPatientToken(demo.patient_token_secret, customer);
    const answer = await get(`${P}/properties`, { headers: { [demo.patient_token_secret.header]: token }, query: { ...customer, field: "phone" } });
    expect(answer.status, answer.text).toBe(200);
    // The sandbox Public key has the patient-data permission.
    expect((await get(`${P}/intent`, { key: demo.keys.public, query: { ...customer, intent: "consultation" } })).json).toEqual({ return_code: "no_signed_submission" });
  });

  it("keeps a secret that still works across seeds, and replaces a revoked one (revoking the slot's others)", async () => {
    const db = await database();
    const before = readDemo();
    const again = await seedSandbox(db);
    expect(again.patient_token_secret).toEqual(before.patient_token_secret);
    expect(await db.patientTokenSecret.count({ where: { organisationId: before.organisation_uid, revokedAt: null } })).toBe(1);

    await db.patientTokenSecret.update({ where: { id: before.patient_token_secret.kid }, data: { revokedAt: new Date() } });
    const renewed = await seedSandbox(db);
    expect(renewed.patient_token_secret.kid).not.toBe(before.patient_token_secret.kid);
    expect(renewed.patient_token_secret.secret).not.toBe(before.patient_token_secret.secret);
    expect(await db.patientTokenSecret.count({ where: { organisationId: before.organisation_uid, revokedAt: null } })).toBe(1);
    // The secret is stored sealed, never as its text.
    const row = await db.patientTokenSecret.findUniqueOrThrow({ where: { id: renewed.patient_token_secret.kid } });
    expect(row.secretSealed).not.toContain(renewed.patient_token_secret.secret);
  });
});
