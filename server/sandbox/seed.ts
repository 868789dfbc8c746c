import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { authenticateRequestKey, createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { hashPassword, verifyPassword } from "@/server/auth/password";
import { PERMISSIONS } from "@/server/auth/permissions";
import { config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { ApiKeyFamily } from "@/server/db/generated/enums";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { log } from "@/server/log";
import { seedDoctorUser, type DemoDoctorUser } from "./seed-doctor";
import { seedPatientTokenSecret, type DemoPatientTokenSecret } from "./seed-patient-tokens";
import { seedPatientFields } from "./seed-patients";
import { seedWalletPassTemplates, type DemoWalletPassTemplate } from "./seed-wallet-passes";

/**
 * The sandbox: one demo organisation with a shop, a pharmacy group of two pharmacies and one
 * pharmacy outside it, portal users, API keys and a small catalogue. Idempotent: a second run
 * finds everything by its natural keys and keeps the keys and passwords of .data/demo.json that
 * still work. The file is a contract other tools rely on (docs/api/README.md, "The sandbox").
 */

const DEMO_SHOP_IDENTIFIER = "demo-shop.example";

type CatalogueEntry = {
  sku_reference: string;
  product_reference: string;
  product_uid: string;
  sku_uid: string;
  shop_product_uid: string;
  pharmacy_sku_uid: string;
};

export type DemoFile = {
  base_url: string;
  organisation_uid: string;
  shop: { uid: string; identifier: string };
  pharmacy_group_uid: string;
  pharmacies: { uid: string; display_name: string; group_uid: string | null }[];
  keys: {
    management: string;
    management_order_read: string;
    public: string;
    pharmacy: string;
    pharmacy_group: string;
    pharmacy_orders_read: string;
  };
  users: {
    admin: { email: string; password: string };
    /** Works for pharmacies[0] only. */
    pharmacist: { email: string; password: string };
    /** Works for every pharmacy of the group (pharmacies[0] and [1]). */
    group_pharmacist: { email: string; password: string };
    /** The doctors' workspace as doctor_uid (Dr. Anna Weber), who signs with the sandbox QES signer. */
    doctor: DemoDoctorUser;
  };
  catalogue: { otc: CatalogueEntry[]; rx: CatalogueEntry[] };
  /** The sandbox QES signer (PKCS#12) and its CA, trusted for the sandbox organisation only. */
  qes: { signer_p12_path: string; signer_p12_password: string; ca_cert_path: string };
  telemedicine_provider_uid: string;
  /** An anamnesis questionnaire of the organisation (PATCH /v1/management/questionnaires/{uid}/model). */
  questionnaire_uid: string;
  /** Dr. Anna Weber, the sandbox organisation's doctor. */
  doctor_uid: string;
  /** The demo shop's wallet pass templates: one plain, one that needs a signed prescription. */
  wallet_pass_templates: DemoWalletPassTemplate[];
  /** Signs patient tokens for /api/v0/patient (HS256, kid in the JOSE header, the secret as UTF-8 text). */
  patient_token_secret: DemoPatientTokenSecret;
};

/** A short anamnesis in SurveyJS's form model, as the questionnaire editor would publish it. */
const SANDBOX_QUESTIONNAIRE = {
  displayName: "Anamnesis: general consultation",
  model: {
    title: "General consultation",
    pages: [
      {
        name: "health",
        elements: [
          { type: "radiogroup", name: "allergies", title: "Do you have any known allergies?", choices: ["yes", "no"], isRequired: true },
          { type: "comment", name: "allergy_details", title: "Which allergies?", visibleIf: "{allergies} = 'yes'" },
          { type: "checkbox", name: "conditions", title: "Do any of these apply to you?", choices: ["pregnancy", "kidney disease", "liver disease", "none"] },
          { type: "text", name: "medication", title: "Which medicines do you take regularly?" },
          { type: "boolean", name: "consent", title: "I confirm that my answers are complete and true.", isRequired: true },
        ],
      },
    ],
  },
};

const PHARMACIES = [
  { displayName: "Demo Apotheke Berlin", locationId: "BER-1", inGroup: true },
  { displayName: "Demo Apotheke Hamburg", locationId: "HAM-1", inGroup: true },
  { displayName: "Demo Apotheke München", locationId: "MUC-1", inGroup: false },
];

// The prescription SKU names what its prescription shows (the name as prescribed, form, pack) and
// offers dosage instructions the doctor confirms (the workspace's dosage editor).
const PRODUCTS = [
  { handle: "ibuprofen-400", name: "Ibuprofen 400 mg", sku: "Ibuprofen 400 mg, 20 tablets", pzn: "01016144", rx: false, price: 399, unit: "pcs", pcs: 20 },
  { handle: "vitamin-d3-1000", name: "Vitamin D3 1000 IE", sku: "Vitamin D3 1000 IE, 90 capsules", pzn: "10796437", rx: false, price: 1249, unit: "pcs", pcs: 90 },
  {
    handle: "finasteride-1mg",
    name: "Finasteride 1 mg",
    sku: "Finasteride 1 mg, 28 tablets",
    pzn: "09703312",
    rx: true,
    price: 2890,
    unit: "Filmtabletten",
    pcs: 28,
    prescriptionName: "Finasterid 1 mg Filmtabletten",
    dosage: "1 Tablette täglich",
  },
];

/**
 * The sandbox doctor's prescriber details: complete, so that the sandbox signs (server/domain/
 * prescriptions/completeness.ts). A demo practice; the LANR is a made-up 9-digit number.
 */
const SANDBOX_PRESCRIBER = {
  professionalTitle: "Fachärztin für Allgemeinmedizin",
  practiceName: "Demo Hausarztpraxis",
  practiceStreet: "Friedrichstraße 100",
  practicePostalCode: "10117",
  practiceCity: "Berlin",
  practiceCountry: "DE",
  phone: "+49 30 1234567",
  identificationType: "LANR",
  identificationValue: "999999901",
};

export function demoFilePath(): string {
  return path.resolve(config().DATA_DIR, "demo.json");
}

function readDemoFile(): Partial<DemoFile> {
  try {
    return JSON.parse(readFileSync(demoFilePath(), "utf8")) as Partial<DemoFile>;
  } catch {
    return {};
  }
}

async function findOrCreate<T>(find: () => Promise<T | null>, create: () => Promise<T>): Promise<T> {
  return (await find()) ?? (await create());
}

/** Seeds only when the database has no organisation yet (start-up of a fresh install). */
export async function seedSandboxIfEmpty(db: Db): Promise<DemoFile | null> {
  if ((await db.organisation.count()) > 0) return null;
  const demo = await seedSandbox(db);
  log.info("sandbox data created", { demo_file: demoFilePath() });
  return demo;
}

export async function seedSandbox(db: Db): Promise<DemoFile> {
  const previous = readDemoFile();
  // The sandbox QES CA and signer (key generation) are prepared while the rows are written.
  const qesReady = ensureSandboxQes(path.resolve(config().DATA_DIR));
  qesReady.catch(() => undefined);

  const existingShop = await db.shop.findUnique({ where: { identifier: DEMO_SHOP_IDENTIFIER } });
  const organisationId =
    existingShop?.organisationId ??
    (await db.organisation.create({ data: { displayName: "Demo Telemedicine GmbH", sandbox: true } })).id;
  if (existingShop) await db.organisation.updateMany({ where: { id: organisationId, sandbox: false }, data: { sandbox: true } });
  const shop =
    existingShop ??
    (await db.shop.create({ data: { organisationId, identifier: DEMO_SHOP_IDENTIFIER, displayName: "Demo Shop" } }));

  const group = await findOrCreate(
    () => db.pharmacyGroup.findFirst({ where: { organisationId, displayName: "Demo Apotheken-Gruppe" } }),
    () => db.pharmacyGroup.create({ data: { organisationId, displayName: "Demo Apotheken-Gruppe" } }),
  );
  const pharmacies = [];
  for (const p of PHARMACIES) {
    pharmacies.push(
      await findOrCreate(
        () => db.pharmacy.findFirst({ where: { organisationId, locationId: p.locationId } }),
        () =>
          db.pharmacy.create({
            data: {
              organisationId,
              displayName: p.displayName,
              locationId: p.locationId,
              groupId: p.inGroup ? group.id : null,
              email: `${p.locationId.toLowerCase()}@pharmacy.demo.example`,
            },
          }),
      ),
    );
  }

  // Catalogue: every product at every pharmacy, plenty of stock at the first.
  const catalogue: DemoFile["catalogue"] = { otc: [], rx: [] };
  for (const item of PRODUCTS) {
    const product = await findOrCreate(
      () => db.product.findFirst({ where: { organisationId, handle: item.handle } }),
      () =>
        db.product.create({
          data: { organisationId, handle: item.handle, displayName: item.name, prescriptionRequired: item.rx },
        }),
    );
    const sku = await findOrCreate(
      () => db.sku.findFirst({ where: { productId: product.id, pzn: item.pzn } }),
      () =>
        db.sku.create({
          data: {
            organisationId,
            productId: product.id,
            displayName: item.sku,
            pzn: item.pzn,
            unit: item.unit,
            pcs: item.pcs,
            prescriptionName: item.prescriptionName ?? null,
            dosage: item.dosage ?? null,
            standardSellingUnit: 1,
          },
        }),
    );
    const productReference = `gid://demo-shop/Product/${item.handle}`;
    const skuReference = `gid://demo-shop/ProductVariant/${item.handle}`;
    const shopProduct = await findOrCreate(
      () => db.shopProduct.findUnique({ where: { shopId_externalId: { shopId: shop.id, externalId: productReference } } }),
      () => db.shopProduct.create({ data: { shopId: shop.id, productId: product.id, externalId: productReference } }),
    );
    await findOrCreate(
      () => db.shopSku.findFirst({ where: { shopId: shop.id, shopVariationId: skuReference, deletedAt: null } }),
      () =>
        db.shopSku.create({
          data: {
            shopId: shop.id,
            shopProductId: shopProduct.id,
            skuId: sku.id,
            shopVariationId: skuReference,
            shopSku: item.handle.toUpperCase(),
            price: item.price,
          },
        }),
    );
    const pharmacySkus = [];
    for (const [index, pharmacy] of pharmacies.entries()) {
      pharmacySkus.push(
        await findOrCreate(
          () => db.pharmacySku.findFirst({ where: { pharmacyId: pharmacy.id, skuId: sku.id, deletedAt: null } }),
          () =>
            db.pharmacySku.create({
              data: {
                pharmacyId: pharmacy.id,
                skuId: sku.id,
                externalId: `${pharmacy.locationId}-${item.pzn}`,
                price: item.price - 50,
                stock: index === 0 ? 5000 : 100,
              },
            }),
        ),
      );
    }
    (item.rx ? catalogue.rx : catalogue.otc).push({
      sku_reference: skuReference,
      product_reference: productReference,
      product_uid: product.id,
      sku_uid: sku.id,
      shop_product_uid: shopProduct.id,
      pharmacy_sku_uid: pharmacySkus[0].id,
    });
  }

  // A shop shipping method, mapped for the first pharmacy only (others show a null mapping).
  const standard = await findOrCreate(
    () => db.shopShippingMethod.findUnique({ where: { shopId_externalId: { shopId: shop.id, externalId: "standard" } } }),
    () => db.shopShippingMethod.create({ data: { shopId: shop.id, externalId: "standard", displayName: "Standard shipping" } }),
  );
  await db.pharmacyShippingMethodMapping.upsert({
    where: { pharmacyId_shopShippingMethodId: { pharmacyId: pharmacies[0].id, shopShippingMethodId: standard.id } },
    create: { pharmacyId: pharmacies[0].id, shopShippingMethodId: standard.id, identifierForPharmacy: "DHL_PAKET" },
    update: {},
  });

  const doctor = await findOrCreate(
    () => db.doctor.findFirst({ where: { organisationId, email: "dr.weber@demo.example" } }),
    () => db.doctor.create({ data: { organisationId, displayName: "Dr. Anna Weber", email: "dr.weber@demo.example", ...SANDBOX_PRESCRIBER } }),
  );
  // A sandbox seeded before doctors had prescriber details gets them; an admin's own are kept.
  await db.doctor.updateMany({ where: { id: doctor.id, professionalTitle: null, practiceStreet: null, phone: null }, data: SANDBOX_PRESCRIBER });
  // The provider demo.json names first: an admin may have changed its identifier since (docs/decisions/admin-tool.md#the-admin-teams-doors).
  const previousProviderId = previous.telemedicine_provider_uid;
  const telemedicineProvider = await findOrCreate(
    async () =>
      (previousProviderId ? await db.telemedicineProvider.findFirst({ where: { organisationId, id: previousProviderId } }) : null) ??
      (await db.telemedicineProvider.findFirst({ where: { organisationId, identifier: "demo-telemedicine" } })),
    () =>
      db.telemedicineProvider.create({
        data: { organisationId, identifier: "demo-telemedicine", displayName: "Demo Telemedicine Provider" },
      }),
  );
  const questionnaire = await findOrCreate(
    () => db.questionnaire.findFirst({ where: { organisationId, displayName: SANDBOX_QUESTIONNAIRE.displayName } }),
    () => db.questionnaire.create({ data: { organisationId, ...SANDBOX_QUESTIONNAIRE, publishedAt: new Date() } }),
  );

  await seedPatientFields(db, organisationId);

  const users = {
    admin: await ensureUser(db, previous.users?.admin, {
      email: "admin@demo.example",
      displayName: "Demo Admin",
      role: "ADMIN",
      organisationId,
    }),
    pharmacist: await ensureUser(db, previous.users?.pharmacist, {
      email: "pharmacist@demo.example",
      displayName: "Demo Pharmacist",
      role: "PHARMACIST",
      organisationId,
      pharmacyId: pharmacies[0].id,
    }),
    group_pharmacist: await ensureUser(db, previous.users?.group_pharmacist, {
      email: "group-pharmacist@demo.example",
      displayName: "Demo Group Pharmacist",
      role: "PHARMACIST",
      organisationId,
      pharmacyGroupId: group.id,
    }),
    doctor: await seedDoctorUser(db, organisationId, doctor, previous.users?.doctor),
  };

  const key = (slot: keyof DemoFile["keys"], spec: KeySpec) => ensureKey(db, previous.keys?.[slot], { ...spec, organisationId });
  const keys: DemoFile["keys"] = {
    management: await key("management", { family: "MANAGEMENT", name: "Sandbox: Management (all)", permissions: [...PERMISSIONS.MANAGEMENT] }),
    management_order_read: await key("management_order_read", { family: "MANAGEMENT", name: "Sandbox: Management (order:read)", permissions: ["order:read"] }),
    public: await key("public", { family: "PUBLIC", name: "Sandbox: Public (all)", permissions: [...PERMISSIONS.PUBLIC] }),
    pharmacy: await key("pharmacy", { family: "PHARMACY", name: "Sandbox: Pharmacy (all)", permissions: [...PERMISSIONS.PHARMACY], pharmacyId: pharmacies[0].id }),
    pharmacy_group: await key("pharmacy_group", { family: "PHARMACY", name: "Sandbox: Pharmacy group (all)", permissions: [...PERMISSIONS.PHARMACY], pharmacyGroupId: group.id }),
    pharmacy_orders_read: await key("pharmacy_orders_read", { family: "PHARMACY", name: "Sandbox: Pharmacy (orders_read)", permissions: ["orders_read"], pharmacyId: pharmacies[0].id }),
  };

  const walletPassTemplates = await seedWalletPassTemplates(db, shop);
  const patientTokenSecret = await seedPatientTokenSecret(db, organisationId, shop.identifier, previous.patient_token_secret);
  const qes = await qesReady;
  const demo: DemoFile = {
    base_url: config().baseUrl,
    organisation_uid: organisationId,
    shop: { uid: shop.id, identifier: shop.identifier },
    pharmacy_group_uid: group.id,
    pharmacies: pharmacies.map((p) => ({ uid: p.id, display_name: p.displayName, group_uid: p.groupId })),
    keys,
    users,
    catalogue,
    qes: { signer_p12_path: qes.signerP12Path, signer_p12_password: qes.signerP12Password, ca_cert_path: qes.caCertPath },
    telemedicine_provider_uid: telemedicineProvider.id,
    questionnaire_uid: questionnaire.id,
    doctor_uid: doctor.id,
    wallet_pass_templates: walletPassTemplates,
    patient_token_secret: patientTokenSecret,
  };
  const file = demoFilePath();
  if (!existsSync(path.dirname(file))) mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

type KeySpec = {
  family: ApiKeyFamily;
  name: string;
  permissions: string[];
  pharmacyId?: string;
  pharmacyGroupId?: string;
};

/**
 * Keeps a sandbox key that still authenticates, with the slot's permissions of today (a key written
 * before a permission existed gains it); otherwise revokes the slot's old keys and issues a new one.
 */
async function ensureKey(db: Db, previous: string | undefined, spec: KeySpec & { organisationId: string }): Promise<string> {
  if (previous) {
    const authenticated = await authenticateRequestKey(spec.family, previous, null);
    if (authenticated && authenticated.principal.organisationId === spec.organisationId) {
      await db.apiKey.update({ where: { id: authenticated.principal.keyId }, data: { permissions: spec.permissions } });
      return previous;
    }
  }
  const stale = await db.apiKey.findMany({
    where: { organisationId: spec.organisationId, displayName: spec.name, revokedAt: null },
    select: { id: true },
  });
  for (const { id } of stale) await revokeApiKey(id);
  const created = await createApiKey({
    family: spec.family,
    displayName: spec.name,
    permissions: spec.permissions,
    organisationId: spec.organisationId,
    pharmacyId: spec.pharmacyId,
    pharmacyGroupId: spec.pharmacyGroupId,
  });
  return created.plaintext;
}

type UserSpec = {
  email: string;
  displayName: string;
  role: "ADMIN" | "PHARMACIST";
  organisationId: string;
  pharmacyId?: string;
  pharmacyGroupId?: string;
};

/** Keeps a sandbox user's password from demo.json when it still matches; otherwise sets a new random one. */
async function ensureUser(db: Db, previous: { email: string; password: string } | undefined, spec: UserSpec) {
  const existing = await db.user.findUnique({ where: { email: spec.email } });
  if (existing && previous?.email === spec.email && existing.passwordHash && (await verifyPassword(previous.password, existing.passwordHash))) {
    return { email: spec.email, password: previous.password };
  }
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  await db.user.upsert({
    where: { email: spec.email },
    create: { ...spec, passwordHash },
    update: { passwordHash, sessionVersion: { increment: 1 } }, // a new password ends old sessions
  });
  return { email: spec.email, password };
}
