import { expect, test, type Browser, type Page } from "@playwright/test";
import { readDemoFile, signInAs } from "./demo";

/**
 * Patient and tenant text is data (issue 21, docs/security.md#patient-and-tenant-text-is-data).
 *
 * One seeding phase writes script payloads into the free text that each writer can set: a
 * Management key (questionnaire model with `html` elements and `{placeholders}`, order addresses,
 * patient fields, SKUs), an External Pharmacy key (on-hold comment, tracking link, SKU external
 * id), a patient (Public API treatment checkout: name, address, questionnaire answers), a
 * pharmacist, an admin and a doctor (portal forms, called as the forms call them). Then every page
 * that shows them is opened as each role, and the test fails if any payload ran.
 *
 * A payload that runs is seen however it runs, independently of any Content-Security-Policy:
 * it calls `__xss(field)`, a canary defined by an init script (recorded in the page and logged to
 * the console), opens a dialog, or requests the canary URL (observed by a route). Each page is
 * checked only after the markers of the fields it shows are on it and every image has loaded or
 * failed (an `onerror` handler has run by then), so a clean result means the payloads were there.
 */

const CANARY = "http://xss-canary.invalid";
const tag = Math.random().toString(36).slice(2, 8);

/** The payloads for one field (under 200 characters): a `<script>`, an `<img onerror>`, an attribute break-out with `<svg onload>`. */
const P = (field: string) =>
  `xss:${field} <script>__xss("${field}")</script><img src=x onerror="__xss('${field}');fetch('${CANARY}/?f=${field}')">"><svg onload="__xss('${field}');alert('${field}')">`;
/** For fields of at most 100 characters. */
const S = (field: string) => `xss:${field}"><img src=x onerror=__xss('${field}')>`;
/** A `javascript:` URL, where a URL is accepted. */
const J = (field: string) => `javascript:__xss('${field}')`;

type Seeded = {
  questionnaireUid: string;
  orderUid: string;
  prescriptionUid: string;
  pharmacyOrderUid: string;
  threadUid: string;
  productUid: string;
  checkoutPath: string;
};

/** A portal procedure as the portal's forms call it (the page's session cookie; GET for queries). */
async function trpc<T = unknown>(page: Page, procedure: string, input: unknown, { query = false, status = 200 } = {}): Promise<T> {
  const response = query
    ? await page.request.get(`/api/trpc/${procedure}?${new URLSearchParams({ input: JSON.stringify(input) })}`)
    : await page.request.post(`/api/trpc/${procedure}`, { data: input });
  expect(response.status(), `${procedure}: ${await response.text()}`).toBe(status);
  return ((await response.json()) as { result?: { data: T } }).result?.data as T;
}

async function rest<T = Record<string, unknown>>(page: Page, method: string, url: string, key: string, data?: unknown, status = [200, 201]): Promise<T> {
  const response = await page.request.fetch(url, { method, headers: { "X-API-Key": key }, ...(data !== undefined ? { data } : {}) });
  expect(status, `${method} ${url}: ${response.status()} ${await response.text()}`).toContain(response.status());
  return (await response.json()) as T;
}

async function signedIn(browser: Browser, user: { email: string; password: string }, landing: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInAs(page, user, landing);
  return page;
}

/** Writes the payloads through every door, as each kind of writer. */
async function seed(browser: Browser): Promise<Seeded> {
  const d = readDemoFile();
  const admin = await signedIn(browser, d.users.admin, "/admin");
  const pharmacist = await signedIn(browser, d.users.pharmacist, "/pharmacy");
  const doctor = await signedIn(browser, d.users.doctor, "/admin/doctor");
  const M = d.keys.management;
  const EPA = "/v1/external_pharmacy_api";

  // Admin: names and labels in the admin tool.
  const { uid: questionnaireUid } = await trpc<{ uid: string }>(admin, "admin.questionnaires.create", { displayName: P("a-qname") });
  await trpc(admin, "admin.settings.profileFields.add", { key: `xss_${tag}`, displayName: P("a-pflabel"), type: "text", source: "shop" });
  const { uid: productUid } = await trpc<{ uid: string }>(admin, "admin.catalogue.products.create", { displayName: P("a-prod"), prescriptionRequired: false });
  await trpc(admin, "admin.shops.create", { identifier: `xss-${tag}`, displayName: P("a-shop") });
  await trpc(admin, "admin.pharmacyGroups.create", { displayName: P("a-group") });
  await trpc(admin, "admin.users.add", { email: `xss-${tag}@example.com`, name: P("a-user"), role: "ADMIN", password: `Xss-${tag}-password-1` });
  await trpc(admin, "admin.settings.patientTokenSecrets.create", { displayName: P("a-secret") });

  // Management key: the model (an html element that shows answer q1), and HTML and text everywhere a model carries it.
  await rest(admin, "PATCH", `/v1/management/questionnaires/${questionnaireUid}/model`, M, {
    model: {
      title: P("m-stitle"),
      description: P("m-sdesc"),
      completedHtml: P("m-done"),
      pages: [
        {
          name: "p1",
          title: P("m-ptitle"),
          elements: [
            { type: "text", name: "q1", title: `${P("m-qtitle")} {q1}` },
            { type: "html", name: "h2", html: "Your answer: {q1}" },
            { type: "html", name: "h3", html: P("m-html") },
            { type: "html", name: "h4", html: `<a href="${J("m-href")}">a</a> <a href="{q2}">b</a> <iframe src="${J("m-iframe")}"></iframe>` },
            { type: "text", name: "q2", title: "Your website" },
            { type: "radiogroup", name: "q3", title: "Pick one", description: P("m-qdesc"), choices: [{ value: "a", text: P("m-choice") }, "b"] },
            { type: "panel", name: "pn", title: P("m-panel"), elements: [{ type: "comment", name: "q4", title: "Anything else?" }] },
            { type: "image", name: "img", imageLink: J("m-img"), contentMode: "youtube" },
          ],
        },
      ],
    },
  });
  await rest(admin, "POST", "/v1/management/skus", M, { product_uid: productUid, display_name: P("m-sku") });
  // A javascript: webhook target is refused (webhook targets are http(s) only; no page links them anyway).
  await rest(admin, "POST", "/v1/management/notification-subscriptions", M, { notification_type: "pharmacy_order_updated", target: J("m-hook") }, [400]);

  // Patient: a treatment checkout over the Public API, the answers of the attack.
  const customerId = `xss-${tag}`;
  const rx = d.catalogue.rx[0]!;
  const treatment = await rest<{ anamnesis_uid: string; checkout_url: string }>(admin, "POST", `/v2/public-api/treatments/${d.shop.identifier}`, d.keys.public, {
    questionnaire_uid: questionnaireUid,
    answers: { q1: P("p-q1"), q2: J("p-q2"), q3: "a", q4: P("p-q4") },
    intent: "consultation",
    lines: [{ sku_uid: rx.sku_uid, quantity: 1 }],
    patient_data: { first_name: P("p-first"), last_name: P("p-last"), date_of_birth: -172_800_000, gender: "female" },
    shop_customer_id: customerId,
    shipping_address: { first_name: P("p-sfirst"), last_name: "Muster", address1: P("p-addr"), city: P("p-city"), country_code: "DE", zip: "10115" },
  });

  // Management key: the customer's profile field, and the order with the anamnesis (for the doctor) and an OTC item (for the pharmacy).
  await rest(admin, "POST", "/v1/management/patients", M, { shop_uid: d.shop.uid, shop_customer_id: customerId, fields: [{ field: `xss_${tag}`, value: P("m-pfield") }] });
  const externalId = `xss-${tag}`;
  const order = await rest<{ uid: string; prescriptions: { uid: string }[] }>(admin, "POST", "/v1/management/orders", M, {
    shop_identifier: d.shop.identifier,
    external_id: externalId,
    customer: { id: customerId, email: `xss-${tag}@example.com` },
    delivery_address: {
      first_name: P("m-first"),
      last_name: P("m-last"),
      street: P("m-street"),
      house_number: S("m-no").slice(0, 50),
      zip_code: "10115",
      city: P("m-city"),
      country: "DE",
      additional_address: P("m-addr2"),
      province: P("m-prov"),
    },
    fulfillments: [
      {
        external_id: "f-rx",
        destination_pharmacy_uid: d.pharmacies[0]!.uid,
        items: [{ external_id: "i-rx", sku_reference: rx.sku_reference, quantity: 1, total_paid: { amount: 2890, currency: "EUR" }, anamnesis_uid: treatment.anamnesis_uid }],
      },
      {
        external_id: "f-otc",
        destination_pharmacy_uid: d.pharmacies[0]!.uid,
        items: [{ external_id: "i-otc", sku_reference: d.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" }, fulfillment_method: S("m-method") }],
      },
    ],
  });

  // External Pharmacy key: an on-hold comment (the admin issue thread), a SKU's external id, tracking links on completion.
  const key = d.keys.pharmacy;
  const list = await rest<{ data: { uid: string }[] }>(admin, "GET", `${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, key);
  expect(list.data).toHaveLength(1);
  const pharmacyOrderUid = list.data[0]!.uid;
  await rest(admin, "PATCH", `${EPA}/pharmacy_orders/${pharmacyOrderUid}/status`, key, { status: "on-hold", comment: P("e-hold") });
  await rest(admin, "PATCH", `${EPA}/pharmacy_skus/${d.catalogue.otc[0]!.pharmacy_sku_uid}/external_id`, key, { external_id: P("e-extid") });

  // Pharmacist and admin: replies in the issue thread; the pharmacist's API key and a shipment.
  const threads = await trpc<{ uid: string }[]>(pharmacist, "pharmacy.issueThreads.listForOrder", { pharmacyOrderUid }, { query: true });
  const threadUid = threads[0]!.uid;
  await trpc(pharmacist, "pharmacy.issueThreads.reply", { uid: threadUid, body: P("r-reply") });
  await trpc(admin, "admin.issues.reply", { uid: threadUid, body: P("a-reply") });
  await trpc(pharmacist, "pharmacy.apiKeys.create", { displayName: P("r-key"), permissions: ["orders_read"] });
  await rest(admin, "PATCH", `${EPA}/pharmacy_orders/${pharmacyOrderUid}/status`, key, { status: "in-progress" });
  const shipment = { uid: pharmacyOrderUid, trackingNumber: S("r-tno"), carrier: "DHL", expectedStatus: "in-progress" };
  await trpc(pharmacist, "pharmacy.orders.addShipment", { ...shipment, trackingUrl: J("r-jturl") }, { status: 400 });
  await trpc(pharmacist, "pharmacy.orders.addShipment", {
    ...shipment,
    trackingUrl: `https://track.example/?q="><svg/onload=__xss('r-turl')>`,
  });
  // A javascript: tracking link is refused; an http(s) one carrying markup is kept as text.
  await rest(admin, "PATCH", `${EPA}/pharmacy_orders/${pharmacyOrderUid}/complete_order`, key, { tracking_links: [{ tracking_link: J("e-jtrack"), carrier: "DHL" }] }, [400]);
  await rest(admin, "PATCH", `${EPA}/pharmacy_orders/${pharmacyOrderUid}/complete_order`, key, {
    tracking_links: [{ tracking_link: `https://track.example/?q="><svg/onload=__xss('e-track')>`, carrier: "Other" }],
  });

  // Doctor: a hold note on the request.
  const prescriptionUid = order.prescriptions[0]!.uid;
  await trpc(doctor, "doctor.requests.hold", { prescriptionUid, note: P("d-hold") });

  for (const page of [admin, pharmacist, doctor]) await page.close();
  return { questionnaireUid, orderUid: order.uid, prescriptionUid, pharmacyOrderUid, threadUid, productUid, checkoutPath: new URL(treatment.checkout_url).pathname };
}

/** Installs the canaries on a page; returns what ran (field names and how). */
async function watch(page: Page): Promise<string[]> {
  const ran: string[] = [];
  await page.addInitScript(() => {
    const w = window as unknown as { __xss: (field: string) => void; __xssRan: string[] };
    w.__xssRan = [];
    w.__xss = (field) => {
      w.__xssRan.push(String(field));
      console.log(`xss-canary:${field}`);
    };
  });
  page.on("console", (message) => {
    if (message.text().includes("xss-canary:")) ran.push(`console ${message.text()}`);
  });
  page.on("dialog", (dialog) => {
    ran.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.route(`${CANARY}/**`, (route) => {
    ran.push(`request ${route.request().url()}`);
    void route.fulfill({ status: 204 });
  });
  return ran;
}

/**
 * Opens `path`, waits until the markers of `fields` are shown (as text or in a form field), then
 * says what ran.
 */
async function visit(page: Page, ran: string[], path: string, fields: string[]) {
  await page.goto(path);
  await expect
    .poll(
      () =>
        page.evaluate(
          (markers) => {
            const shown = [document.body.innerText, ...[...document.querySelectorAll("input, textarea")].map((e) => (e as HTMLInputElement).value)].join("\n");
            return markers.filter((m) => !shown.includes(m));
          },
          fields.map((f) => `xss:${f}`),
        ),
      { message: `markers missing on ${path}`, timeout: 20_000 },
    )
    .toEqual([]);
  return { path, ...(await whatRan(page, ran)) };
}

/** What ran on the page so far (once every image has loaded or failed), and its `javascript:` links and frames. */
async function whatRan(page: Page, ran: string[]) {
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  const inPage = await page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLAnchorElement | HTMLIFrameElement>("a[href], area[href], iframe[src]")]
      .map((e) => ("href" in e ? e.href : e.src))
      .filter((url) => url.trim().toLowerCase().startsWith("javascript:"));
    return { ran: (window as unknown as { __xssRan: string[] }).__xssRan, links };
  });
  return { ran: [...inPage.ran.map((f) => `canary ${f}`), ...ran.splice(0)], javascriptUrls: inPage.links };
}

test.describe.configure({ mode: "serial" });

let seeded: Seeded;
test.beforeAll(async ({ browser }) => {
  seeded = await seed(browser);
});

async function visitAll(browser: Browser, user: { email: string; password: string } | null, landing: string, pages: [string, string[]][]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const ran = await watch(page);
  if (user) await signInAs(page, user, landing);
  const results = [];
  for (const [path, fields] of pages) results.push(await visit(page, ran, path, fields));
  await page.close();
  return results.filter((r) => r.ran.length > 0 || r.javascriptUrls.length > 0);
}

test("the issue's attack: an answer placed into a model's html element runs neither for the doctor nor in the admin's preview", async ({ browser }) => {
  const d = readDemoFile();
  const clean = { ran: [], javascriptUrls: [] };

  // The doctor reads the patient's answer as the text it is.
  const doctor = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const ranForDoctor = await watch(doctor);
  await signInAs(doctor, d.users.doctor, "/admin/doctor");
  const path = `/admin/doctor/requests/${seeded.prescriptionUid}`;
  expect(await visit(doctor, ranForDoctor, path, ["p-q1", "p-q4", "m-choice"])).toEqual({ path, ...clean });
  await expect(doctor.getByTestId("anamnesis-answers").getByText(P("p-q1"), { exact: true })).toBeVisible();
  await doctor.close();

  // The admin's preview: the model's own HTML is sanitised, and an answer typed into it shows as text.
  const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const ranForAdmin = await watch(admin);
  await signInAs(admin, d.users.admin, "/admin");
  const preview = `/admin/questionnaires/${seeded.questionnaireUid}`;
  expect(await visit(admin, ranForAdmin, preview, ["m-html", "m-qtitle", "m-choice"])).toEqual({ path: preview, ...clean });
  const q1 = admin.getByTestId("survey-preview").getByRole("textbox").first();
  await q1.fill(P("a-typed"));
  await q1.press("Tab");
  await expect(admin.getByTestId("survey-preview").getByText(`Your answer: ${P("a-typed")}`, { exact: true })).toBeVisible();
  expect(await whatRan(admin, ranForAdmin)).toEqual(clean);
  await admin.close();
});

test("the corpus: no payload runs on any page that shows it, for any role", async ({ browser }) => {
  const d = readDemoFile();
  const s = seeded;
  const failures = [
    ...(await visitAll(browser, d.users.doctor, "/admin/doctor", [
      ["/admin/doctor", ["p-first", "p-last"]],
      [`/admin/doctor/requests/${s.prescriptionUid}`, ["p-first", "p-last", "a-pflabel", "m-pfield", "m-qtitle", "p-q1", "p-q4", "m-choice", "d-hold"]],
      ["/admin/doctor/waiting-room", []],
      ["/admin/doctor/statistics", []],
    ])),
    ...(await visitAll(browser, d.users.admin, "/admin", [
      ["/admin", []],
      ["/admin/questionnaires", ["a-qname"]],
      [`/admin/questionnaires/${s.questionnaireUid}`, ["a-qname", "m-stitle", "m-sdesc", "m-ptitle", "m-qtitle", "m-html", "m-qdesc", "m-choice", "m-panel", "m-done"]],
      ["/admin/orders", []],
      [`/admin/orders/${s.orderUid}`, ["p-first", "p-last", "m-first", "m-last", "m-street", "m-no", "m-addr2", "m-city", "e-hold", "r-tno"]],
      ["/admin/prescriptions", ["p-first", "p-last"]],
      [`/admin/prescriptions/${s.prescriptionUid}`, ["p-first", "p-last", "d-hold"]],
      ["/admin/issues", ["e-hold"]],
      [`/admin/issues/${s.threadUid}`, ["e-hold", "r-reply", "a-reply"]],
      ["/admin/catalogue", ["a-prod"]],
      [`/admin/catalogue/products/${s.productUid}`, ["a-prod", "a-shop", "m-sku"]],
      ["/admin/pharmacies", ["a-group"]],
      ["/admin/pharmacy-stock", ["e-extid"]],
      ["/admin/shops", ["a-shop"]],
      ["/admin/users", ["a-user", "a-group"]],
      ["/admin/settings", ["a-pflabel", "a-secret", "a-shop"]],
      ["/admin/api-keys", []],
      ["/admin/audit-log", ["a-user", "a-qname", "a-prod", "m-sku", "e-hold", "r-key", "d-hold"]],
      ["/admin/webhooks", []],
      ["/admin/webhooks/logs", []],
      ["/admin/telemedicine-providers", []],
      ["/admin/payouts", []],
    ])),
    ...(await visitAll(browser, d.users.pharmacist, "/pharmacy", [
      ["/pharmacy", []],
      ["/pharmacy/orders", ["m-first", "m-last", "m-city"]],
      [`/pharmacy/orders/${s.pharmacyOrderUid}`, ["m-first", "m-last", "m-street", "m-no", "m-addr2", "m-city", "r-tno", "e-hold", "r-reply", "a-reply"]],
      ["/pharmacy/stock", ["e-extid"]],
      ["/pharmacy/payouts", []],
      ["/pharmacy/settings/api-keys", ["r-key"]],
      ["/pharmacy/settings/shipping-methods", []],
      ["/pharmacy/api-access/webhooks", []],
      ["/pharmacy/api-access/delivery-logs", []],
    ])),
    // The patient's own hosted checkout page.
    ...(await visitAll(browser, null, "", [[s.checkoutPath, ["p-first", "p-last", "p-sfirst", "p-addr", "p-city"]]])),
  ];
  expect(failures).toEqual([]);
});
