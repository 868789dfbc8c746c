import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";

/**
 * The e2e server's DATA_DIR (playwright.config.ts): its own per pass when two passes run at once
 * (scripts/ci/test.ts sets E2E_DATA_DIR).
 */
export const e2eDataDir = path.resolve(import.meta.dirname, "..", process.env.E2E_DATA_DIR ?? ".data/e2e");

/** The sandbox credentials that the e2e server's seed wrote (e2eDataDir/demo.json). */
export type DemoFile = {
  base_url: string;
  pharmacy_group_uid: string;
  /** [0] and [1] are the group's, [2] is outside it. */
  pharmacies: { uid: string; display_name: string; group_uid: string | null }[];
  /** `pharmacist` works for pharmacies[0]; `group_pharmacist` for the group (pharmacies[0] and [1]). */
  users: {
    admin: { email: string; password: string };
    pharmacist: { email: string; password: string };
    group_pharmacist: { email: string; password: string };
    /** The sandbox organisation's doctor (doctor_uid), in the doctors' workspace /admin/doctor. */
    doctor: { email: string; password: string };
  };
  shop: { uid: string; identifier: string };
  keys: { management: string; pharmacy: string; public: string };
  catalogue: {
    otc: { sku_reference: string; sku_uid: string; pharmacy_sku_uid: string }[];
    rx: { sku_reference: string; sku_uid: string; pharmacy_sku_uid: string; shop_product_uid: string; product_reference: string }[];
  };
  organisation_uid: string;
  /** The anamnesis questionnaire of the organisation. */
  questionnaire_uid: string;
  doctor_uid: string;
  /** The demo shop's wallet pass templates: one plain, one that needs a signed prescription. */
  wallet_pass_templates: { uid: string; requires_prescription: boolean }[];
};

export function readDemoFile(): DemoFile {
  const file = path.join(e2eDataDir, "demo.json");
  return JSON.parse(readFileSync(file, "utf8")) as DemoFile;
}

/**
 * Where the e2e server's session of `email` is kept once a spec signed it in: under this run's
 * Playwright output directory (emptied at the start of every run, and the server's data with it),
 * per shared server port.
 */
function savedSessionFile(email: string): string {
  return path.join(test.info().project.outputDir, "sessions", `${process.env.E2E_PORT ?? 3100}-${email}.json`);
}

/**
 * Signs `user` in and waits until the portal has opened `landing`. The first sign-in of a user in
 * a run goes through the sign-in page and its session is saved; later ones reuse that session (its
 * cookies) when the server still accepts it, and sign in for real when it does not (a spec signed
 * the user out, which ends all their sessions). `fresh`: always through the sign-in page, nothing
 * saved — for specs that end or change sessions, and for specs with a server of their own.
 */
export async function signInAs(page: Page, user: { email: string; password: string }, landing = "/pharmacy", options: { fresh?: boolean } = {}): Promise<void> {
  const saved = options.fresh ? null : savedSessionFile(user.email);
  if (saved && existsSync(saved)) {
    await page.context().addCookies(JSON.parse(readFileSync(saved, "utf8")).cookies);
    await page.goto(landing);
    const opened = new URL(page.url());
    if (`${opened.pathname}${opened.search}` === landing) return hydrated(page);
    // The session has ended: its cookies go, and the user signs in for real below.
    for (const { name } of JSON.parse(readFileSync(saved, "utf8")).cookies as { name: string }[]) await page.context().clearCookies({ name });
  }
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(landing)}`);
  await hydrated(page);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${landing.replaceAll("/", "\\/")}$`));
  await hydrated(page);
  if (saved) {
    mkdirSync(path.dirname(saved), { recursive: true });
    await page.context().storageState({ path: saved });
  }
}

/** Waits until React has hydrated the page (components/ui/hydration-mark.tsx): before that, typing into a form is lost. */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** One OTC line of the sandbox catalogue (3.99 €), for orders whose items do not matter. */
export const otcItem = (d: DemoFile) => ({ sku_reference: d.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" } });

/**
 * POST /v1/management/orders with the sandbox's Management key: customer `lastName` (id
 * `cust-<externalId>` unless `customerId` names one, e.g. the shop customer of an anamnesis), one fulfillment "f-1" at `pharmacyUid` with `items` (external ids i-1, i-2…
 * unless given) and any further fulfillment fields; expects 201 and answers the created order.
 */
export async function placeOrder(
  request: APIRequestContext,
  d: DemoFile,
  order: {
    externalId: string;
    lastName: string;
    pharmacyUid: string;
    items: Record<string, unknown>[];
    fulfillment?: Record<string, unknown>;
    email?: string;
    customerId?: string;
    /** Further order fields (e.g. on_hold). */
    fields?: Record<string, unknown>;
  },
): Promise<{ uid: string } & Record<string, unknown>> {
  const response = await request.post("/v1/management/orders", {
    headers: { "X-API-Key": d.keys.management },
    data: {
      shop_identifier: d.shop.identifier,
      external_id: order.externalId,
      customer: { id: order.customerId ?? `cust-${order.externalId}`, email: order.email ?? "erika@example.com" },
      delivery_address: { first_name: "Erika", last_name: order.lastName, street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          destination_pharmacy_uid: order.pharmacyUid,
          items: order.items.map((item, i) => ({ external_id: `i-${i + 1}`, ...item })),
          ...order.fulfillment,
        },
      ],
      ...order.fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { uid: string };
}

/** The sandbox anamnesis answered in full (no allergies, no conditions, one medication, consent). */
export const ANAMNESIS_ANSWERS = { allergies: "no", conditions: ["none"], medication: "Vitamin D3 1000 IE", consent: true };

/**
 * An order waiting for a doctor: the patient answers the sandbox anamnesis (POST treatments, which
 * stores the completed questionnaire response), then the shop places the order of the Rx SKU with
 * that anamnesis for the same customer (`customerId`, also the external id), sent to pharmacies[0]
 * (the demo pharmacist's). Answers the external id and the prescription request's uid.
 */
export async function orderWithAnamnesis(request: APIRequestContext, d: DemoFile, lastName: string, customerId: string, fields?: { on_hold?: true; doctor_uid?: string }) {
  const rx = d.catalogue.rx[0]!;
  const treatment = await request.post(`/v2/public-api/treatments/${d.shop.identifier}`, {
    headers: { "X-API-Key": d.keys.public },
    data: {
      questionnaire_uid: d.questionnaire_uid,
      answers: ANAMNESIS_ANSWERS,
      intent: "consultation",
      lines: [{ sku_uid: rx.sku_uid, quantity: 1 }],
      patient_data: { first_name: "Erika", last_name: lastName, date_of_birth: -172_800_000, gender: "female" },
      shop_customer_id: customerId,
      shipping_address: { first_name: "Erika", last_name: lastName, address1: "Hauptstr. 5", city: "Berlin", country_code: "DE", zip: "10115" },
    },
  });
  expect(treatment.status(), await treatment.text()).toBe(201);
  const anamnesisUid = ((await treatment.json()) as { anamnesis_uid: string }).anamnesis_uid;
  const order = await placeOrder(request, d, {
    externalId: customerId,
    customerId,
    lastName,
    pharmacyUid: d.pharmacies[0]!.uid,
    items: [{ sku_reference: rx.sku_reference, quantity: 1, total_paid: { amount: 2890, currency: "EUR" }, anamnesis_uid: anamnesisUid }],
    fields,
  });
  expect(order.status).toBe(fields?.on_hold ? "paused" : "waiting for doctor");
  return { externalId: customerId, prescriptionUid: (order.prescriptions as { uid: string }[])[0]!.uid };
}

/** The language switch of the sign-in page and the portal header, in either language. */
export const languageSelect = (page: Page) => page.getByRole("combobox", { name: /^(Language|Sprache)$/ });

/** The demo pharmacist is shared by every spec: a spec that switches their language puts it back to English (afterEach). */
export async function pharmacistBackInEnglish(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, readDemoFile().users.pharmacist);
  if ((await languageSelect(page).inputValue()) !== "en") {
    await languageSelect(page).selectOption("en");
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  }
  await context.close();
}

/**
 * The prescription PDF's canvas, once its place is scrolled into view: pdf.js loads only when the PDF
 * nears the screen (components/orders/pdf-view.tsx), and below the fold it would wait for ever.
 */
export async function prescriptionCanvas(page: Page) {
  const place = page.getByTestId("prescription-pdf-place");
  await expect(page.getByTestId("prescription-pdf").or(place).first()).toBeAttached();
  // The place turns into the loading viewer as it nears the screen (it may do so mid-scroll).
  await expect(async () => {
    if ((await place.count()) > 0) await place.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await expect(place).toHaveCount(0, { timeout: 2_000 });
  }).toPass();
  return page.getByTestId("prescription-pdf").locator("canvas");
}
