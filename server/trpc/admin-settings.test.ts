import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { issueWalletPass } from "@/server/domain/wallet-passes/issue-pass";
import { adminCallers, as, type AdminCallers, type Caller } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { mintPatientToken } from "@/tests/patient-tokens";
import { trpcCode } from "@/tests/trpc";
import { createCustomer } from "@/tests/wallet-passes";

let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let foreign: { fieldId: string; secretId: string; templateId: string };

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  const otherAdmin = as((await adminCallers(other)).admin);
  foreign = {
    fieldId: (await otherAdmin.admin.settings.profileFields.add({ key: "theirs", displayName: "Theirs", type: "text", source: "shop" })).uid,
    secretId: (await otherAdmin.admin.settings.patientTokenSecrets.create({ displayName: "Theirs" })).uid,
    templateId: (await otherAdmin.admin.settings.walletPassTemplates.create({ shopUid: other.shop.id, displayName: "Theirs", requiresSignedPrescription: false }))
      .uid,
  };
});

const admin = () => as(users.admin).admin.settings;
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, fields: ((error as TRPCError).cause as { fields?: Record<string, unknown> }).fields, message: (error as TRPCError).message };
};
const auditOf = (entityId: string) => t.db.auditEvent.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });
const TOKEN_HEADER = "X-Service-Booking-Token";

describe("patient profile fields", () => {
  it("adds a field the Management API then accepts, changes its label, and removes it with its values", async () => {
    const { uid } = await admin().profileFields.add({ key: "shoe_size", displayName: "Shoe size", type: "number", source: "shop" });
    const listed = await admin().profileFields.list();
    expect(listed.types).toEqual(["text", "date", "phone", "email", "number", "boolean"]);
    expect(listed.fields.find((f) => f.uid === uid)).toEqual({ uid, key: "shoe_size", displayName: "Shoe size", type: "number", source: "shop", valueCount: 0 });

    const shopCustomerId = `c-${uid.slice(0, 8)}`;
    const created = await post("/v1/management/patients", {
      key: t.keys.management,
      body: { shop_uid: t.shop.id, shop_customer_id: shopCustomerId, fields: [{ field: "shoe_size", value: "43" }] },
    });
    expect(created.status, created.text).toBe(201);

    await admin().profileFields.change({ fieldUid: uid, displayName: "Shoe size (EU)", type: "number", source: "user" });
    // The type cannot change once patients have values: they were checked against the old one.
    const typeChange = await refusal(admin().profileFields.change({ fieldUid: uid, displayName: "Shoe size (EU)", type: "date", source: "user" }));
    expect(typeChange).toMatchObject({ code: "BAD_REQUEST", fields: { type: [expect.any(String)] } });
    expect((await admin().profileFields.list()).fields.find((f) => f.uid === uid)).toMatchObject({ displayName: "Shoe size (EU)", type: "number", source: "user", valueCount: 1 });

    expect(await admin().profileFields.remove({ fieldUid: uid })).toEqual({ removedValues: 1 });
    const refused = await post("/v1/management/patients", {
      key: t.keys.management,
      body: { shop_uid: t.shop.id, shop_customer_id: shopCustomerId, fields: [{ field: "shoe_size", value: "44" }] },
    });
    expect(refused.status).toBe(400);
    expect((await auditOf(uid)).map((e) => [e.action, e.summary])).toEqual([
      ["profile_field_added", 'Profile field "Shoe size" (shoe_size, number) added'],
      ["profile_field_changed", 'Profile field shoe_size changed: name "Shoe size" → "Shoe size (EU)", source "shop" → "user"'],
      ["profile_field_removed", 'Profile field "Shoe size (EU)" (shoe_size) removed with 1 patient value'],
    ]);
  });

  it("refuses a taken key, a bad key and an unknown type as field errors, writing nothing", async () => {
    await admin().profileFields.add({ key: "nickname", displayName: "Nickname", type: "text", source: "shop" });
    const before = await t.db.patientFieldDefinition.count({ where: { organisationId: t.organisation.id } });
    expect(await refusal(admin().profileFields.add({ key: "nickname", displayName: "Again", type: "text", source: "shop" }))).toMatchObject({
      code: "BAD_REQUEST",
      fields: { key: ["The organisation already has a profile field with this key."] },
    });
    expect(await refusal(admin().profileFields.add({ key: "Bad Key", displayName: "X", type: "picture", source: "elsewhere" }))).toMatchObject({
      code: "BAD_REQUEST",
      fields: { key: [expect.any(String)], type: [expect.any(String)], source: [expect.any(String)] },
    });
    expect(await t.db.patientFieldDefinition.count({ where: { organisationId: t.organisation.id } })).toBe(before);
  });

  it("adds one field when the same key is added concurrently, and removes it once", async () => {
    const results = await Promise.allSettled([1, 2, 3].map(() => admin().profileFields.add({ key: "allergy_note", displayName: "Allergies", type: "text", source: "survey" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const field = await t.db.patientFieldDefinition.findFirstOrThrow({ where: { organisationId: t.organisation.id, key: "allergy_note" } });
    const removals = await Promise.allSettled([1, 2].map(() => admin().profileFields.remove({ fieldUid: field.id })));
    expect(removals.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await auditOf(field.id)).map((e) => e.action)).toEqual(["profile_field_added", "profile_field_removed"]);
  });
});

describe("hidden SKU type", () => {
  const skuUids = async () => {
    const res = await get("/v1/external_pharmacy_api/pharmacy_skus/", { key: t.keys.pharmacy });
    expect(res.status).toBe(200);
    return (res.json.data as { uid: string }[]).map((s) => s.uid);
  };

  it("changes what the pharmacy's External Pharmacy API answers, and records it", async () => {
    expect(await skuUids()).toEqual(expect.arrayContaining([t.pharmacySku.id, t.digitalPharmacySku.id]));
    const listed = await admin().hiddenSkuTypes.list();
    expect(listed.find((p) => p.uid === t.pharmacy.id)).toEqual({ uid: t.pharmacy.id, displayName: "Apotheke A", hiddenSkuType: "NONE" });

    await admin().hiddenSkuTypes.change({ pharmacyUid: t.pharmacy.id, hiddenSkuType: "DIGITAL" });
    expect(await skuUids()).toContain(t.pharmacySku.id);
    expect(await skuUids()).not.toContain(t.digitalPharmacySku.id);
    await admin().hiddenSkuTypes.change({ pharmacyUid: t.pharmacy.id, hiddenSkuType: "PHYSICAL" });
    expect(await skuUids()).toEqual([t.digitalPharmacySku.id]);
    await admin().hiddenSkuTypes.change({ pharmacyUid: t.pharmacy.id, hiddenSkuType: "PHYSICAL" });
    await admin().hiddenSkuTypes.change({ pharmacyUid: t.pharmacy.id, hiddenSkuType: "NONE" });
    expect((await auditOf(t.pharmacy.id)).map((e) => e.summary)).toEqual([
      'Pharmacy "Apotheke A": hidden SKU type none → digital',
      'Pharmacy "Apotheke A": hidden SKU type digital → physical',
      'Pharmacy "Apotheke A": hidden SKU type physical → none',
    ]);
    expect(await trpcCode(admin().hiddenSkuTypes.change({ pharmacyUid: t.pharmacy.id, hiddenSkuType: "ALL" as never }))).toBe("BAD_REQUEST");
  });
});

describe("patient token secrets", () => {
  it("shows the secret once, stores it sealed, lists it without it; a token signed with it works until it is revoked", async () => {
    await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: "phone", displayName: "Phone", type: "phone" } });
    const customer = await createCustomer(t);
    const created = await admin().patientTokenSecrets.create({ displayName: "Shop backend" });
    expect(created).toMatchObject({ displayName: "Shop backend", audience: "patient-data", secret: expect.stringMatching(/^ptsec_/) });
    const row = await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: created.uid } });
    expect(row.secretSealed).not.toContain(created.secret.slice(6));
    expect(openSecret(row.secretSealed)).toBe(created.secret);
    expect(JSON.stringify(await admin().patientTokenSecrets.list())).not.toContain(created.secret);

    const token = await mintPatientToken(
      { kid: created.uid, secret: created.secret, audience: created.audience },
      { shop_identifier: t.shop.identifier, shop_customer_id: customer.shopCustomerId },
    );
    const read = () =>
      get("/api/v0/patient/properties", { headers: { [TOKEN_HEADER]: token }, query: { shop_identifier: t.shop.identifier, shop_customer_id: customer.shopCustomerId, field: "phone" } });
    expect((await read()).status).toBe(200);

    expect(await admin().patientTokenSecrets.revoke({ secretUid: created.uid })).toEqual({ revoked: true });
    expect((await read()).status).toBe(401);
    expect((await admin().patientTokenSecrets.list()).find((s) => s.uid === created.uid)).toMatchObject({ revokedAt: expect.any(Number), lastUsedAt: expect.any(Number) });
    const events = await auditOf(created.uid);
    expect(events.map((e) => e.action)).toEqual(["created", "revoked"]);
    for (const e of events) expect(JSON.stringify(e)).not.toContain(created.secret);
    // Revoking again changes nothing and records nothing.
    await admin().patientTokenSecrets.revoke({ secretUid: created.uid });
    expect(await auditOf(created.uid)).toHaveLength(2);
  });
});

describe("wallet pass templates", () => {
  const apiTemplates = async (shopIdentifier = t.shop.identifier) => {
    const res = await get("/v1/management/wallet-passes/templates", { key: t.keys.management, query: { shop_identifier: shopIdentifier } });
    expect(res.status).toBe(200);
    return res.json.data as { uid: string; display_name: string; requires_signed_prescription: boolean }[];
  };

  it("creates, changes and deletes a template as the Management API lists it", async () => {
    const { uid } = await admin().walletPassTemplates.create({ shopUid: t.shop.id, displayName: "Loyalty card", requiresSignedPrescription: false });
    expect((await apiTemplates()).find((x) => x.uid === uid)).toMatchObject({ display_name: "Loyalty card", requires_signed_prescription: false });
    const listed = await admin().walletPassTemplates.list();
    expect(listed.templates.find((x) => x.uid === uid)).toMatchObject({ passType: "generic", shop: { uid: t.shop.id }, livePasses: 0 });
    expect(listed.shops.map((s) => s.uid).sort()).toEqual([t.shop.id, t.otherShop.id].sort());

    await admin().walletPassTemplates.change({ templateUid: uid, displayName: "Treatment card", requiresSignedPrescription: true });
    expect((await apiTemplates()).find((x) => x.uid === uid)).toMatchObject({ display_name: "Treatment card", requires_signed_prescription: true });
    await admin().walletPassTemplates.delete({ templateUid: uid });
    expect((await apiTemplates()).map((x) => x.uid)).not.toContain(uid);
    expect((await auditOf(uid)).map((e) => e.action)).toEqual(["created", "changed", "deleted"]);
  });

  it("refuses to delete a template that has passes, and a shop of another organisation", async () => {
    const { uid } = await admin().walletPassTemplates.create({ shopUid: t.shop.id, displayName: "Issued", requiresSignedPrescription: false });
    const customer = await createCustomer(t);
    await issueWalletPass(t.organisation.id, { templateId: uid, shopIdentifier: t.shop.identifier, shopCustomerId: customer.shopCustomerId });
    expect(await refusal(admin().walletPassTemplates.delete({ templateUid: uid }))).toMatchObject({ code: "CONFLICT" });
    expect((await apiTemplates()).map((x) => x.uid)).toContain(uid);

    const before = await t.db.walletPassTemplate.count({ where: { organisationId: t.organisation.id } });
    expect(await refusal(admin().walletPassTemplates.create({ shopUid: other.shop.id, displayName: "X", requiresSignedPrescription: false }))).toMatchObject({
      code: "BAD_REQUEST",
      fields: { shopUid: [expect.any(String)] },
    });
    expect(await trpcCode(admin().walletPassTemplates.create({ shopUid: t.shop.id, displayName: " ", requiresSignedPrescription: false }))).toBe("BAD_REQUEST");
    expect(await t.db.walletPassTemplate.count({ where: { organisationId: t.organisation.id } })).toBe(before);
  });
});

describe("prescription language", () => {
  it("is German by default; an admin chooses English (audited once), and the organisation's documents follow", async () => {
    const s = admin();
    expect(await s.prescriptionLanguage.get()).toEqual({ language: "de" });
    expect((await refusal(s.prescriptionLanguage.change({ language: "fr" as "en" }))).code).toBe("BAD_REQUEST");
    expect(await s.prescriptionLanguage.change({ language: "en" })).toEqual({ language: "en" });
    expect(await s.prescriptionLanguage.change({ language: "en" })).toEqual({ language: "en" });
    expect(await s.prescriptionLanguage.get()).toEqual({ language: "en" });
    expect((await t.db.organisation.findUniqueOrThrow({ where: { id: t.organisation.id } })).prescriptionLanguage).toBe("en");
    expect((await auditOf(t.organisation.id)).filter((a) => a.action === "prescription_language_changed")).toMatchObject([
      { entityType: "setting", summary: "Prescription language: de → en", actorUserId: users.admin.id },
    ]);
    // Another organisation keeps its own.
    expect((await other.db.organisation.findUniqueOrThrow({ where: { id: other.organisation.id } })).prescriptionLanguage).toBe("de");
    for (const user of [users.pharmacist, users.doctor]) expect(await trpcCode(as(user).admin.settings.prescriptionLanguage.change({ language: "de" }))).toBe("FORBIDDEN");
    expect(await trpcCode(as(null).admin.settings.prescriptionLanguage.get())).toBe("UNAUTHORIZED");
    await s.prescriptionLanguage.change({ language: "de" });
  });
});

describe("authorisation", () => {
  const calls = (c: Caller) => {
    const s = c.admin.settings;
    return [
      () => s.profileFields.list(),
      () => s.profileFields.add({ key: "no", displayName: "No", type: "text", source: "shop" }),
      () => s.profileFields.change({ fieldUid: foreign.fieldId, displayName: "No", type: "text", source: "shop" }),
      () => s.profileFields.remove({ fieldUid: foreign.fieldId }),
      () => s.hiddenSkuTypes.list(),
      () => s.hiddenSkuTypes.change({ pharmacyUid: other.pharmacy.id, hiddenSkuType: "DIGITAL" }),
      () => s.patientTokenSecrets.list(),
      () => s.patientTokenSecrets.create({ displayName: "No" }),
      () => s.patientTokenSecrets.revoke({ secretUid: foreign.secretId }),
      () => s.walletPassTemplates.list(),
      () => s.walletPassTemplates.create({ shopUid: t.shop.id, displayName: "No", requiresSignedPrescription: false }),
      () => s.walletPassTemplates.change({ templateUid: foreign.templateId, displayName: "No", requiresSignedPrescription: true }),
      () => s.walletPassTemplates.delete({ templateUid: foreign.templateId }),
    ];
  };
  const snapshot = async (tenant: Tenant) => {
    const organisationId = tenant.organisation.id;
    return JSON.stringify([
      await tenant.db.patientFieldDefinition.findMany({ where: { organisationId }, orderBy: { id: "asc" } }),
      await tenant.db.pharmacy.findMany({ where: { organisationId }, orderBy: { id: "asc" } }),
      await tenant.db.patientTokenSecret.findMany({ where: { organisationId }, orderBy: { id: "asc" } }),
      await tenant.db.walletPassTemplate.findMany({ where: { organisationId }, orderBy: { id: "asc" } }),
      await tenant.db.auditEvent.count({ where: { organisationId } }),
    ]);
  };

  it("refuses the signed-out, pharmacists and doctors, writing nothing", async () => {
    const before = await snapshot(t);
    for (const call of calls(as(null))) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const user of [users.pharmacist, users.doctor]) for (const call of calls(as(user))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await snapshot(t)).toEqual(before);
  });

  it("answers NOT_FOUND for another organisation's field, pharmacy, secret and template, and changes nothing there", async () => {
    const before = await snapshot(other);
    const s = admin();
    for (const call of [
      () => s.profileFields.change({ fieldUid: foreign.fieldId, displayName: "Mine", type: "text", source: "shop" }),
      () => s.profileFields.remove({ fieldUid: foreign.fieldId }),
      () => s.hiddenSkuTypes.change({ pharmacyUid: other.pharmacy.id, hiddenSkuType: "DIGITAL" }),
      () => s.patientTokenSecrets.revoke({ secretUid: foreign.secretId }),
      () => s.walletPassTemplates.change({ templateUid: foreign.templateId, displayName: "Mine", requiresSignedPrescription: true }),
      () => s.walletPassTemplates.delete({ templateUid: foreign.templateId }),
    ]) {
      expect(await trpcCode(call())).toBe("NOT_FOUND");
    }
    expect(await snapshot(other)).toEqual(before);
    const lists = JSON.stringify([await s.profileFields.list(), await s.hiddenSkuTypes.list(), await s.patientTokenSecrets.list(), await s.walletPassTemplates.list()]);
    for (const id of [foreign.fieldId, foreign.secretId, foreign.templateId, other.pharmacy.id]) expect(lists).not.toContain(id);
  });
});
