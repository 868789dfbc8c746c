import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { screenshot } from "./screenshots";
import { otcItem, placeOrder, readDemoFile, signInAs, type DemoFile } from "./demo";

/**
 * Issue 22, "say what it means": the pages show statuses by their labels (components/ui/status.ts),
 * never the spec's raw values; the admin order list says what the pharmacy is doing and when the
 * order really changed; the pharmacist sees an admin's answer ("New answer") on the queue and the
 * home page until the order is opened. Screenshots go to test-results/labels (`npm run screenshots`).
 */
const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";
const shots = path.resolve(import.meta.dirname, "..", "test-results", "labels");

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  await screenshot(page, path.join(shots, `${name}.png`));
}

async function signedInPage(browser: Browser, baseURL: string | undefined, user: { email: string; password: string }, landing: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, user, landing);
  return page;
}

/** An OTC order at the demo pharmacist's pharmacy over the Management API; its pharmacy order over the External Pharmacy API. */
async function placeOtcOrder(request: APIRequestContext, d: DemoFile, lastName: string) {
  const externalId = `e2e-labels-${tag()}`;
  const { uid: orderUid } = await placeOrder(request, d, { externalId, lastName, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)], email: "labels@example.com" });
  const list = await request.get(`${EPA}/?${new URLSearchParams({ search: orderUid })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  const [po] = (await list.json()).data as { uid: string; name: string }[];
  expect(po).toBeDefined();
  return { externalId, orderUid, po };
}

async function setStatus(request: APIRequestContext, d: DemoFile, uid: string, body: Record<string, unknown>) {
  const r = await request.patch(`${EPA}/${uid}/status`, { headers: { "X-API-Key": d.keys.pharmacy }, data: body });
  expect(r.status(), await r.text()).toBe(200);
}

/** None of the spec's raw values is text of `area`. */
async function expectNoRawValues(area: Locator, values: string[]) {
  for (const value of values) await expect(area, `raw "${value}"`).not.toContainText(value);
}

const RAW = ["ready_for_pickup", "in-progress", "on-hold", "waiting for pharmacy", "on_hold", "ON_HOLD", "NON_QES_SIGNED", "EXTERNALLY_SIGNED", "item_markup", "item_rest", "pharmacy_mapping", "overall:"];

test("statuses read as labels on the pharmacy and admin pages; the admin list says what the pharmacy is doing", async ({ browser, baseURL }) => {
  const d = demo();
  const lastName = `Labels${tag()}`;
  const pharmacist = await signedInPage(browser, baseURL, d.users.pharmacist, "/pharmacy/orders");
  const { externalId, orderUid, po } = await placeOtcOrder(pharmacist.request, d, lastName);
  await setStatus(pharmacist.request, d, po.uid, { status: "in-progress" });
  await setStatus(pharmacist.request, d, po.uid, { status: "ready_for_pickup" });

  // The queue: the row's badge, the status tabs and the bulk select (its values stay the spec's).
  await pharmacist.getByLabel("Search").fill(lastName);
  // The search applies after a pause in typing and clears the selection: select once it has applied.
  await expect(pharmacist).toHaveURL(new RegExp(`q=${lastName}`));
  const row = pharmacist.getByRole("row").filter({ hasText: po.name });
  await expect(row).toContainText("Ready for pickup");
  await expect(pharmacist.getByRole("navigation", { name: "Order status" })).toContainText("Ready for pickup");
  await row.getByRole("checkbox").check();
  await expect(pharmacist.getByLabel("New status for the selection")).toHaveValue("in-progress");
  await expect(pharmacist.getByLabel("New status for the selection").locator("option:checked")).toHaveText("In progress");
  await expectNoRawValues(pharmacist.locator("main"), RAW);
  await shot(pharmacist, "pharmacy-queue");

  // The admin list: the order is at the pharmacy, where it is ready for pickup.
  const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin/orders");
  await admin.getByLabel("Search").fill(externalId);
  const adminRow = admin.getByRole("row").filter({ hasText: externalId });
  await expect(adminRow).toContainText("At the pharmacy");
  await expect(adminRow).toContainText("Ready for pickup");
  await expectNoRawValues(admin.locator("main"), RAW);
  await shot(admin, "admin-orders");

  // On hold at the pharmacy: the admin's order page says so in words, with the true last change.
  await setStatus(pharmacist.request, d, po.uid, { status: "on-hold", comment: "Waiting for the patient to call back." });
  await admin.goto(`/admin/orders/${orderUid}`);
  await expect(admin.getByText("All fulfillments together: On hold")).toBeVisible();
  await expect(admin.getByRole("article", { name: "Fulfillment f-1" })).toContainText("Ready for pickup → On hold");
  await expectNoRawValues(admin.locator("main"), RAW);
  await shot(admin, "admin-order-detail");

  // The pharmacist's order page: no "external status: OPEN", no "Prepaid 0,00 €" on an OTC order; payouts by their names.
  const completed = await pharmacist.request.patch(`${EPA}/${po.uid}/complete_order`, { headers: { "X-API-Key": d.keys.pharmacy }, data: {} });
  expect(completed.status(), await completed.text()).toBe(200);
  await pharmacist.goto(`/pharmacy/orders/${po.uid}`);
  await expect(pharmacist.getByRole("heading", { name: po.name })).toBeVisible();
  await expect(pharmacist.getByText("On hold → Completed")).toBeVisible();
  const detail = pharmacist.locator("main");
  await expect(detail).not.toContainText("external status");
  await expect(detail).not.toContainText("OPEN");
  await expect(detail).not.toContainText("Prepaid");
  await expectNoRawValues(detail, RAW);
  await shot(pharmacist, "pharmacy-order-detail");

  for (const page of ["/pharmacy/payouts", "/pharmacy/settings/shipping-methods", "/pharmacy/api-access/delivery-logs"]) {
    await pharmacist.goto(page);
    await expect(pharmacist.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(pharmacist.getByText(/Loading/)).toHaveCount(0);
    await expectNoRawValues(pharmacist.locator("main"), RAW);
  }
  await admin.goto("/admin/prescriptions");
  await expect(admin.getByRole("heading", { name: /prescriptions? now$/ })).toBeVisible();
  await expectNoRawValues(admin.locator("main"), RAW);
});

test("an admin's answer shows as “New answer” on the queue and the home page until the pharmacist opens the order", async ({ browser, baseURL }) => {
  const d = demo();
  const lastName = `Answer${tag()}`;
  const pharmacist = await signedInPage(browser, baseURL, d.users.pharmacist, "/pharmacy");
  const { po } = await placeOtcOrder(pharmacist.request, d, lastName);
  await setStatus(pharmacist.request, d, po.uid, { status: "on-hold", comment: `Which strength? ${lastName}` });

  // The admin answers in the thread the on-hold comment opened.
  const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin/issues");
  await admin.getByRole("row").filter({ hasText: po.name }).getByRole("link", { name: "Open thread" }).click();
  await admin.getByLabel("Reply").fill("5 mg, as prescribed.");
  await admin.getByRole("button", { name: "Send reply" }).click();
  await expect(admin.getByRole("list", { name: "Messages" }).getByText("5 mg, as prescribed.")).toBeVisible();

  // Home: the answered order is named, with a link.
  await pharmacist.reload();
  const answers = pharmacist.getByRole("status", { name: "New answers from the admin team" });
  await expect(answers.getByRole("link", { name: po.name })).toBeVisible();
  await shot(pharmacist, "pharmacy-home-new-answer");
  // Queue: the row is marked.
  await pharmacist.goto("/pharmacy/orders");
  await pharmacist.getByLabel("Search").fill(lastName);
  // The search applies after a pause in typing and clears the selection: select once it has applied.
  await expect(pharmacist).toHaveURL(new RegExp(`q=${lastName}`));
  const row = pharmacist.getByRole("row").filter({ hasText: po.name });
  await expect(row.getByText("New answer", { exact: true })).toBeVisible();
  await shot(pharmacist, "pharmacy-queue-new-answer");

  // Opening the order reads it: the page points to the answer, and the marks are gone.
  const read = pharmacist.waitForResponse((r) => r.url().includes("pharmacy.orders.markAnswerRead") && r.ok());
  await row.getByRole("link", { name: po.name }).click();
  await expect(pharmacist.getByText(/New answer from the admin team/)).toBeVisible();
  await read;
  await expect(pharmacist.getByRole("list", { name: "Messages" }).getByText("5 mg, as prescribed.")).toBeVisible();
  await shot(pharmacist, "pharmacy-order-new-answer");
  await pharmacist.goto("/pharmacy/orders");
  await pharmacist.getByLabel("Search").fill(lastName);
  await expect(pharmacist.getByRole("row").filter({ hasText: po.name })).toBeVisible();
  await expect(pharmacist.getByRole("row").filter({ hasText: po.name }).getByText("New answer", { exact: true })).toHaveCount(0);
  await pharmacist.goto("/pharmacy");
  await expect(pharmacist.getByRole("heading", { name: "Needs attention" })).toBeVisible();
  await expect(pharmacist.getByRole("link", { name: po.name })).toHaveCount(0);
});
