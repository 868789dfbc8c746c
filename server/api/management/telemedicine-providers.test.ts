import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { ConflictError } from "@/server/domain/errors";
import { approvePrescription, signPrescription } from "@/server/domain/prescriptions/decisions";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, storeRenderedPdf } from "@/tests/prescription-orders";

const M = "/v1/management/telemedicine-providers";
const denied = { status: 403, json: { code: "permission_denied", description: expect.stringContaining("telemedicine_provider:") } };
const notFound = { status: 404, json: { error: "Resource not found" } };

let t: Tenant;
let other: Tenant;
let provider: { id: string };
let second: { id: string };
let foreign: { id: string };
let readKey: string;
let writeKey: string;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  const organisationId = t.organisation.id;
  provider = await t.db.telemedicineProvider.create({ data: { organisationId, displayName: "TeleDoc", identifier: "teledoc" } });
  second = await t.db.telemedicineProvider.create({
    data: { organisationId, displayName: "Clinic Online", identifier: "clinic-online", allowNonQesSignedPrescriptions: true },
  });
  foreign = await other.db.telemedicineProvider.create({
    data: { organisationId: other.organisation.id, displayName: "Elsewhere", identifier: "elsewhere" },
  });
  const key = async (permissions: string[]) =>
    (await createApiKey({ family: "MANAGEMENT", displayName: permissions.join(","), permissions, organisationId })).plaintext;
  readKey = await key(["telemedicine_provider:read"]);
  writeKey = await key(["telemedicine_provider:write"]);
});

describe("GET /telemedicine-providers", () => {
  it("lists the organisation's providers as {data, total}, not another organisation's", async () => {
    const r = await get(M, { key: readKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["data", "total"]);
    expect(r.json.total).toBe(2);
    expect(r.json.data).toHaveLength(2);
    expect(r.json.data).toEqual(
      expect.arrayContaining([
        { uid: provider.id, display_name: "TeleDoc", identifier: "teledoc" },
        { uid: second.id, display_name: "Clinic Online", identifier: "clinic-online" },
      ]),
    );
  });

  it("answers 401 without a key and 403 without telemedicine_provider:read", async () => {
    expect((await get(M)).status).toBe(401);
    expect(await get(M, { key: writeKey })).toMatchObject(denied);
    expect(await get(M, { key: t.keys.managementNoPermissions })).toMatchObject(denied);
  });
});

describe("GET /telemedicine-providers/{uid}/settings", () => {
  it("returns allow_non_qes_signed_prescriptions; 404 for another organisation's or an unknown provider; 403 without read", async () => {
    expect(await get(`${M}/${provider.id}/settings`, { key: readKey })).toMatchObject({
      status: 200,
      json: { allow_non_qes_signed_prescriptions: false },
    });
    expect((await get(`${M}/${second.id}/settings`, { key: readKey })).json).toEqual({ allow_non_qes_signed_prescriptions: true });
    expect(await get(`${M}/${foreign.id}/settings`, { key: readKey })).toMatchObject(notFound);
    expect(await get(`${M}/no-such-provider/settings`, { key: readKey })).toMatchObject(notFound);
    expect(await get(`${M}/${provider.id}/settings`, { key: writeKey })).toMatchObject(denied);
  });
});

describe("PATCH /telemedicine-providers/{uid}/settings", () => {
  it("sets the switch and returns the same object; GET shows it", async () => {
    const r = await patch(`${M}/${provider.id}/settings`, { key: writeKey, body: { allow_non_qes_signed_prescriptions: true } });
    expect(r).toMatchObject({ status: 200, json: { allow_non_qes_signed_prescriptions: true } });
    expect(Object.keys(r.json)).toEqual(["allow_non_qes_signed_prescriptions"]);
    expect((await get(`${M}/${provider.id}/settings`, { key: readKey })).json).toEqual({ allow_non_qes_signed_prescriptions: true });
    const back = await patch(`${M}/${provider.id}/settings`, { key: writeKey, body: { allow_non_qes_signed_prescriptions: false } });
    expect(back.json).toEqual({ allow_non_qes_signed_prescriptions: false });
    expect((await t.db.telemedicineProvider.findUniqueOrThrow({ where: { id: provider.id } })).allowNonQesSignedPrescriptions).toBe(false);
  });

  it("requires the boolean: missing, null, a string or a number is a 400 validation error and changes nothing", async () => {
    for (const body of [{}, { allow_non_qes_signed_prescriptions: null }, { allow_non_qes_signed_prescriptions: "true" }, { allow_non_qes_signed_prescriptions: 1 }]) {
      const r = await patch(`${M}/${second.id}/settings`, { key: writeKey, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.allow_non_qes_signed_prescriptions).toEqual([expect.any(String)]);
    }
    const notJson = await patch(`${M}/${second.id}/settings`, { key: writeKey, raw: "{", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect((await t.db.telemedicineProvider.findUniqueOrThrow({ where: { id: second.id } })).allowNonQesSignedPrescriptions).toBe(true);
  });

  it("answers 404 for another organisation's provider and changes nothing there; 403 with read only", async () => {
    const body = { allow_non_qes_signed_prescriptions: true };
    expect(await patch(`${M}/${foreign.id}/settings`, { key: writeKey, body })).toMatchObject(notFound);
    expect((await other.db.telemedicineProvider.findUniqueOrThrow({ where: { id: foreign.id } })).allowNonQesSignedPrescriptions).toBe(false);
    expect(await patch(`${M}/${provider.id}/settings`, { key: readKey, body })).toMatchObject(denied);
  });

  it("is the switch the doctor-signing rule reads: a doctor without QES can sign once a provider allows it", async () => {
    const tenant = await createTenant();
    const organisationId = tenant.organisation.id;
    const refs = await withShopSkus(tenant);
    const tele = await tenant.db.telemedicineProvider.create({ data: { organisationId, displayName: "Tele", identifier: "tele" } });
    const doctor = await tenant.db.doctor.create({ data: { ...PRESCRIBER, organisationId, displayName: "Dr. Lang", canSignQes: false } });
    const user = await tenant.db.user.create({
      data: { email: `admin-${organisationId}@example.com`, displayName: "Admin", passwordHash: "x", role: "ADMIN", organisationId },
    });
    const actor = { type: "USER" as const, userId: user.id };
    const { prescriptionId } = await placeWaitingOrder(tenant, refs);
    await approvePrescription(organisationId, prescriptionId, { actor, doctorId: doctor.id });
    await storeRenderedPdf(tenant, prescriptionId);
    await expect(signPrescription(organisationId, prescriptionId, { actor })).rejects.toBeInstanceOf(ConflictError);

    const r = await patch(`${M}/${tele.id}/settings`, { key: tenant.keys.management, body: { allow_non_qes_signed_prescriptions: true } });
    expect(r.status).toBe(200);
    expect((await signPrescription(organisationId, prescriptionId, { actor })).status).toBe("NON_QES_SIGNED");
  });
});
