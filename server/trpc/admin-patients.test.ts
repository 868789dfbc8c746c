/**
 * The admin tool's patients (admin.patients): the e-mail search (the Management API's match, every
 * matching profile), one patient as the Management API shows them (profile, intents, wallet passes)
 * with their orders, and "Revoke pass" — the REST DELETE's command: audited, once under concurrency,
 * its devices told. Another organisation's patient or pass is NOT_FOUND; only admins get in.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { adminCallers, as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, get, post } from "@/tests/http";
import { onPostgres, untilWaitingForLock } from "@/tests/locks";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";

const M = "/v1/management";
/** The one clock the tests' dates are built from. */
const NOW = new Date();
const monthsBefore = (months: number, days = 0) => {
  const date = new Date(NOW);
  date.setUTCMonth(date.getUTCMonth() - months);
  date.setUTCDate(date.getUTCDate() - days);
  return date;
};

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
let otherTemplates: Awaited<ReturnType<typeof createWalletTemplates>>;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  templates = await createWalletTemplates(t);
  otherTemplates = await createWalletTemplates(other);
  ({ admin, pharmacist, doctor } = await adminCallers(t));
});

const patients = () => as(admin).admin.patients;
const unique = () => crypto.randomUUID().slice(0, 8);

/** A pass issued over the Management API (the shop's way), as the wallet pass object. */
async function issuePass(tenant: Tenant, templateId: string, shopCustomerId: string, shopIdentifier = tenant.shop.identifier) {
  const r = await post(`${M}/wallet-passes`, { key: tenant.keys.management, body: { wallet_pass_template_uid: templateId, shop_customer_id: shopCustomerId, shop_identifier: shopIdentifier } });
  expect(r.status, r.text).toBe(201);
  return r.json as { uid: string; barcode_value: string };
}

describe("finding patients by e-mail", () => {
  it("matches the whole address without regard to case: the profile's, a shop customer's or an order's; every match, newest first", async () => {
    const email = `Erika.${unique()}@Example.com`;
    const byProfile = await createCustomer(t);
    await t.db.patientProfile.update({ where: { id: byProfile.patient.id }, data: { email: email.toLowerCase() } });
    const byShop = await createCustomer(t);
    await t.db.shopCustomer.update({ where: { id: byShop.customer.id }, data: { email: email.toUpperCase() } });
    const orderCustomer = `order-${unique()}`;
    const byOrder = await placeWaitingOrder(t, refs, { customerId: orderCustomer, overrides: { customer: { id: orderCustomer, email } } });
    const orderPatient = (await t.db.order.findUniqueOrThrow({ where: { id: byOrder.orderId } })).patientId;
    // Intake copied the address onto the customer and profile: only the order's is left to match.
    await t.db.patientProfile.update({ where: { id: orderPatient }, data: { email: null } });
    await t.db.shopCustomer.updateMany({ where: { patientId: orderPatient }, data: { email: null } });
    // Created at known moments, so that "newest first" does not rest on the speed of the inserts.
    for (const [id, days] of [[byProfile.patient.id, 3], [byShop.patient.id, 2], [orderPatient, 1]] as const) {
      await t.db.patientProfile.update({ where: { id }, data: { createdAt: monthsBefore(0, days) } });
    }
    // Another organisation's patient with the same address is not theirs to find.
    const theirs = await createCustomer(other);
    await other.db.patientProfile.update({ where: { id: theirs.patient.id }, data: { email } });

    const { items } = await patients().search({ email });
    expect(items.map((p) => p.uid)).toEqual([orderPatient, byShop.patient.id, byProfile.patient.id]);
    expect(items[2]).toEqual({
      uid: byProfile.patient.id,
      displayName: byProfile.patient.displayName,
      email: email.toLowerCase(),
      dateOfBirth: null,
      shopCustomers: [{ shopIdentifier: t.shop.identifier, shopCustomerId: byProfile.shopCustomerId }],
      createdAt: Math.floor(monthsBefore(0, 3).getTime() / 1000),
    });
    // The newest of them is the Management API's answer to the same search.
    const rest = await get(`${M}/patients`, { key: t.keys.management, query: { email } });
    expect(rest.json.uid).toBe(items[0]!.uid);
  });

  it("finds nothing for part of an address, and refuses what is not an address", async () => {
    const { patient } = await createCustomer(t);
    expect((await patients().search({ email: patient.email! })).items.map((p) => p.uid)).toEqual([patient.id]);
    expect((await patients().search({ email: `x${patient.email!}` })).items).toEqual([]);
    expect(await trpcCode(patients().search({ email: patient.email!.split("@")[0]! }))).toBe("BAD_REQUEST");
    expect(await trpcCode(patients().search({ email: "" }))).toBe("BAD_REQUEST");
  });
});

describe("a patient", () => {
  it("shows the profile, shop links and fields as the Management API does, without barcodes", async () => {
    const shopCustomerId = `c-${unique()}`;
    const created = await post(`${M}/patients`, {
      key: t.keys.management,
      body: { shop_uid: t.shop.id, shop_customer_id: shopCustomerId, email: `p-${unique()}@example.com`, fields: [] },
    });
    expect(created.status, created.text).toBe(201);
    const uid = created.json.patient_profile_uid as string;
    await t.db.patientProfile.update({ where: { id: uid }, data: { firstName: "Erika", lastName: "Muster", displayName: "Erika Muster", dateOfBirth: new Date("1980-02-29") } });
    const field = await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: `shoe_${unique()}`, displayName: "Shoe size", type: "number" } });
    await t.db.patientProperty.create({ data: { patientId: uid, fieldId: field.id, value: "42", source: "user" } });
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);

    const shown = await patients().get({ uid });
    const rest = (await get(`${M}/patients/${uid}`, { key: t.keys.management })).json;
    expect(shown).toMatchObject({
      uid,
      displayName: rest.data.display_name,
      email: rest.data.email,
      firstName: "Erika",
      lastName: "Muster",
      dateOfBirth: "1980-02-29",
      createdAt: rest.created_at,
      shopCustomers: [{ shopUid: t.shop.id, shopIdentifier: t.shop.identifier, shopCustomerId, email: rest.data.email }],
      fields: [{ field: field.key, displayName: "Shoe size", value: "42", source: "user", updatedAt: rest.fields[0].updated_at }],
      walletPasses: [
        { uid: pass.uid, templateName: "Member card", shopIdentifier: t.shop.identifier, shopCustomerId, status: "active", lastMessage: null, revokedAt: null },
      ],
    });
    expect(JSON.stringify(shown)).not.toContain(pass.barcode_value);
    expect(JSON.stringify(shown)).not.toContain("/wallet/passes/");
  });

  it("lists each intent the patient answered for with the Management API's return code", async () => {
    const customerId = `intents-${unique()}`;
    const signed = async (intent: string, signedAt: Date | null, status = "signed") => {
      const placed = await placeWaitingOrder(t, refs, { customerId });
      await t.db.questionnaireResponse.update({ where: { id: placed.anamnesisId }, data: { intent } });
      await t.db.prescription.update({ where: { id: placed.prescriptionId }, data: { status, signedAt } });
      return (await t.db.questionnaireResponse.findUniqueOrThrow({ where: { id: placed.anamnesisId } })).patientId;
    };
    const uid = await signed("consultation", monthsBefore(11));
    await signed("hair-loss", monthsBefore(12, 1));
    await signed("weight-loss", null, "waiting for doctor");
    // Older and newer signatures for one intent: the newest counts.
    await signed("hair-loss", monthsBefore(13));

    const { intents } = await patients().get({ uid });
    expect(intents).toEqual([
      { intent: "consultation", returnCode: "VALID" },
      { intent: "hair-loss", returnCode: "EXPIRED" },
      { intent: "weight-loss", returnCode: "NOT_FOUND" },
    ]);
    for (const { intent, returnCode } of intents) {
      expect((await get(`${M}/patients/${uid}/intent/${intent}`, { key: t.keys.management })).json).toEqual({ return_code: returnCode });
    }
  });

  it("lists the patient's orders, newest first, page by page, and no one else's", async () => {
    const customerId = `orders-${unique()}`;
    const first = await placeWaitingOrder(t, refs, { customerId });
    const second = await placeWaitingOrder(t, refs, { customerId });
    await placeWaitingOrder(t, refs, { customerId: `someone-else-${unique()}` });
    const uid = (await t.db.order.findUniqueOrThrow({ where: { id: first.orderId } })).patientId;
    await t.db.order.update({ where: { id: first.orderId }, data: { createdAt: monthsBefore(0, 2) } });
    await t.db.order.update({ where: { id: second.orderId }, data: { createdAt: monthsBefore(0, 1) } });

    const all = await patients().orders({ uid });
    expect(all).toMatchObject({ total: 2, totalPages: 1, items: [{ uid: second.orderId, status: "waiting for doctor" }, { uid: first.orderId }] });
    const page2 = await patients().orders({ uid, page: 1, limit: 1 });
    expect(page2).toMatchObject({ total: 2, totalPages: 2, items: [{ uid: first.orderId }] });
  });

  it("lists a revoked pass as revoked, with when", async () => {
    const { patient, shopCustomerId } = await createCustomer(t);
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);
    expect((await del(`${M}/wallet-passes/${pass.uid}`, { key: t.keys.management })).status).toBe(204);
    const [shown] = (await patients().get({ uid: patient.id })).walletPasses;
    expect(shown).toMatchObject({ uid: pass.uid, status: "revoked", revokedAt: expect.any(Number) });
  });

  it("answers NOT_FOUND for another organisation's patient, or none", async () => {
    const theirs = await createCustomer(other);
    for (const uid of [theirs.patient.id, "no-such-patient"]) {
      expect(await trpcCode(patients().get({ uid }))).toBe("NOT_FOUND");
      expect(await trpcCode(patients().orders({ uid }))).toBe("NOT_FOUND");
    }
  });
});

/**
 * PostgreSQL only (PGlite runs one transaction at a time): runs `race` while another transaction
 * holds the pass's row, until `waiters` of its calls wait for it, so the calls really meet at the lock.
 */
async function whilePassLocked<T>(passId: string, race: () => Promise<T>, waiters: number): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT "id" FROM "WalletPass" WHERE "id" = ${passId} FOR UPDATE`;
      locked();
      await released;
    }
  );
  await holding;
  const racing = race();
  await untilWaitingForLock(t.db, waiters);
  release();
  await holder;
  return racing;
}

describe("revoking a wallet pass", () => {
  /** The pass as the API sees it afterwards: GET (404 once revoked) and verify. */
  const apiView = async (pass: { uid: string; barcode_value: string }) => ({
    get: (await get(`${M}/wallet-passes/${pass.uid}`, { key: t.keys.management })).status,
    verify: (await post(`${M}/wallet-passes/verify`, { key: t.keys.management, body: { barcode_value: pass.barcode_value } })).json,
  });
  const auditOf = (passId: string) => t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "wallet_pass", entityId: passId } });

  it("revokes through the REST DELETE's command: the API then answers revoked, the admin's hand is in the audit log", async () => {
    const { patient, shopCustomerId } = await createCustomer(t);
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);
    expect(await patients().revokeWalletPass({ passUid: pass.uid })).toEqual({ revoked: true });
    expect(await apiView(pass)).toEqual({ get: 404, verify: { valid: false, status: "revoked", shop_customer_id: shopCustomerId, wallet_pass_uid: pass.uid } });
    const [entry, ...more] = await auditOf(pass.uid);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: "revoked",
      actorType: "USER",
      actorUserId: admin.id,
      summary: `Wallet pass "Member card" of customer ${shopCustomerId} (${t.shop.identifier}) revoked`,
      details: { patient_uid: patient.id, shop_identifier: t.shop.identifier, shop_customer_id: shopCustomerId },
    });
    // A second revocation finds no live pass, as the REST DELETE's 404.
    expect(await trpcCode(patients().revokeWalletPass({ passUid: pass.uid }))).toBe("NOT_FOUND");
  });

  it("audits the REST DELETE too, as its key", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);
    expect((await del(`${M}/wallet-passes/${pass.uid}`, { key: t.keys.management })).status).toBe(204);
    expect(await auditOf(pass.uid)).toMatchObject([{ action: "revoked", actorType: "API_KEY", actorApiKeyId: expect.any(String) }]);
  });

  it("revokes once when revoked at once from both doors: one audit entry, one push to its devices", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);
    await t.db.walletPassDevice.create({ data: { walletPassId: pass.uid, deviceLibraryIdentifier: `phone-${unique()}`, pushToken: "abc123" } });
    const revokeAll = () =>
      Promise.allSettled([
        patients().revokeWalletPass({ passUid: pass.uid }),
        patients().revokeWalletPass({ passUid: pass.uid }),
        del(`${M}/wallet-passes/${pass.uid}`, { key: t.keys.management }).then((r) => {
          if (r.status !== 204) throw new Error(`DELETE answered ${r.status}`);
        }),
      ]);
    const outcomes = onPostgres ? await whilePassLocked(pass.uid, revokeAll, 3) : await revokeAll();
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await auditOf(pass.uid)).toHaveLength(1);
    const pushes = await t.db.backgroundTask.count({ where: { name: "wallet_pass.updated", payload: { path: ["walletPassId"], equals: pass.uid } } });
    expect(pushes).toBe(1);
  });

  it("answers NOT_FOUND for another organisation's pass and leaves it alone", async () => {
    const theirs = await createCustomer(other);
    const pass = await issuePass(other, otherTemplates.plain.id, theirs.shopCustomerId);
    expect(await trpcCode(patients().revokeWalletPass({ passUid: pass.uid }))).toBe("NOT_FOUND");
    expect((await get(`${M}/wallet-passes/${pass.uid}`, { key: other.keys.management })).status).toBe(200);
    expect(await other.db.auditEvent.count({ where: { entityId: pass.uid } })).toBe(0);
  });
});

describe("who may", () => {
  it("lets only admins in: pharmacists and doctors FORBIDDEN, signed out UNAUTHORIZED", async () => {
    const { patient, shopCustomerId } = await createCustomer(t);
    const pass = await issuePass(t, templates.plain.id, shopCustomerId);
    for (const [who, code] of [
      [pharmacist, "FORBIDDEN"],
      [doctor, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      const door = as(who).admin.patients;
      expect(await trpcCode(door.search({ email: patient.email! }))).toBe(code);
      expect(await trpcCode(door.get({ uid: patient.id }))).toBe(code);
      expect(await trpcCode(door.orders({ uid: patient.id }))).toBe(code);
      expect(await trpcCode(door.revokeWalletPass({ passUid: pass.uid }))).toBe(code);
    }
    expect((await patients().get({ uid: patient.id })).walletPasses[0]).toMatchObject({ status: "active" });
  });
});
