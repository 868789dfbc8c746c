import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { otcItem, placeOrder, readDemoFile, signInAs, type DemoFile } from "./demo";
import { screenshot } from "./screenshots";

/**
 * The admin team's doors (issue 24): an admin asks the pharmacy about an order from the order page
 * and the pharmacist sees the question on the pharmacy order; an admin changes a provider's name and
 * identifier and the Management API lists the new ones; the organisation's payouts page shows a
 * payout flagged after a cancellation. Each test uses orders and a provider of its own.
 * Screenshots (SCREENSHOTS=1) go to test-results/admin-doors.
 */
const demo = () => readDemoFile();
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

test.use({ viewport: { width: 1280, height: 900 } });

async function shots(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, path.resolve(import.meta.dirname, "..", "test-results", "admin-doors", `${name}-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** An OTC order of its own at the demo pharmacist's pharmacy, and its pharmacy order (the External Pharmacy API's search finds it by order uid). */
async function orderAtPharmacy(request: APIRequestContext, d: DemoFile, externalId: string) {
  const order = await placeOrder(request, d, { externalId, lastName: `Doors-${externalId}`, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
  const list = await request.get(`${EPA}/?${new URLSearchParams({ search: order.uid })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  const pharmacyOrder = ((await list.json()) as { data: { uid: string; name: string }[] }).data[0]!;
  return { orderUid: order.uid, pharmacyOrder };
}

test("an admin requests clarification on an order; the pharmacist sees the question on the pharmacy order", async ({ page, browser, baseURL }) => {
  const d = demo();
  const { orderUid, pharmacyOrder } = await orderAtPharmacy(page.request, d, `e2e-clarify-${tag()}`);
  const question = `Is the prescription copy legible? ${tag()}`;

  await signInAs(page, d.users.admin, "/admin");
  await page.goto(`/admin/orders/${orderUid}`);
  const form = page.getByRole("form", { name: `Clarification for ${pharmacyOrder.name}` });
  await form.getByRole("button", { name: "Request clarification" }).click();
  await expect(form.getByText("This field is required.")).toBeVisible();
  await form.getByLabel("Question for the pharmacy").fill(question);
  await form.getByRole("button", { name: "Request clarification" }).click();
  await expect(page.getByText(`Clarification requested: ${pharmacyOrder.name} is on hold`)).toBeVisible();
  await expect(page.getByRole("article").getByText("On hold", { exact: true }).first()).toBeVisible();
  await shots(page, "admin-order-clarification");

  // The thread, on the admin's side.
  await page.getByRole("link", { name: "Open the thread" }).click();
  await expect(page.getByRole("list", { name: "Messages" })).toContainText(question);
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("admin team");

  // The pharmacist sees it opened, marked as new, and answers.
  const pharmacistContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  try {
    const pharmacist = await pharmacistContext.newPage();
    await signInAs(pharmacist, d.users.pharmacist);
    await pharmacist.goto(`/pharmacy/orders/${pharmacyOrder.uid}`);
    await expect(pharmacist.getByText("New answer from the admin team")).toBeVisible();
    const messages = pharmacist.getByRole("list", { name: "Messages" });
    await expect(messages).toContainText(question);
    await expect(messages).toContainText("admin team");
    await pharmacist.getByLabel("Reply").fill("Yes, it is legible.");
    await pharmacist.getByRole("button", { name: "Send reply" }).click();
    await expect(messages).toContainText("Yes, it is legible.");
    await shots(pharmacist, "pharmacy-order-admin-question");
  } finally {
    await pharmacistContext.close();
  }
  await page.reload();
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("Yes, it is legible.");
});

test("an admin changes a provider's name and identifier; the Management API lists them under the same uid", async ({ page }) => {
  const d = demo();
  const name = `E2E Doors ${tag()}`;
  await signInAs(page, d.users.admin, "/admin/telemedicine-providers");
  const connect = page.getByRole("region", { name: "Connect a provider" });
  await connect.getByLabel("Provider name").fill(name);
  await connect.getByLabel("Identifier").fill(`e2e-doors-${tag()}`);
  await connect.getByRole("button", { name: "Connect provider" }).click();
  await expect(page.getByLabel("New provider API key")).toBeVisible();
  const card = page.getByRole("region", { name });
  await expect(card).toContainText("Connected");
  const uid = await listed(page.request, d, name);

  await card.getByRole("button", { name: `Edit ${name}` }).click();
  const form = card.getByRole("form", { name: `Edit ${name}` });
  const renamed = `${name} renamed`;
  const identifier = `e2e-renamed-${tag()}`;
  await form.getByLabel("Provider name").fill(renamed);
  // The sandbox provider's identifier is taken: the field says so, nothing changes.
  await form.getByLabel("Identifier").fill("demo-telemedicine");
  await form.getByRole("button", { name: "Save name and identifier" }).click();
  await expect(form.getByText("A telemedicine provider with this identifier is already connected.")).toBeVisible();
  await shots(page, "admin-telemedicine-provider-edit");
  await form.getByLabel("Identifier").fill(identifier);
  await form.getByRole("button", { name: "Save name and identifier" }).click();
  const renamedCard = page.getByRole("region", { name: renamed });
  await expect(renamedCard.getByText(`Saved: the provider is now “${renamed}”.`)).toBeVisible();
  await expect(renamedCard).toContainText(identifier);
  await shots(page, "admin-telemedicine-provider-renamed");

  expect(await listed(page.request, d, renamed)).toBe(uid);
  const providers = await providerList(page.request, d);
  expect(providers.find((p) => p.uid === uid)).toEqual({ uid, display_name: renamed, identifier });
});

async function providerList(request: APIRequestContext, d: DemoFile) {
  const response = await request.get("/v1/management/telemedicine-providers", { headers: { "X-API-Key": d.keys.management } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { uid: string; display_name: string; identifier: string }[] }).data;
}

async function listed(request: APIRequestContext, d: DemoFile, name: string): Promise<string> {
  const provider = (await providerList(request, d)).find((p) => p.display_name === name);
  expect(provider, `provider ${name} in the Management API's list`).toBeTruthy();
  return provider!.uid;
}

test("the admin tool's payouts page shows a payout flagged after a cancellation, with its pharmacy", async ({ page }) => {
  const d = demo();
  const { pharmacyOrder } = await orderAtPharmacy(page.request, d, `e2e-doors-payout-${tag()}`);
  const headers = { "X-API-Key": d.keys.pharmacy };
  const completed = await page.request.patch(`${EPA}/${pharmacyOrder.uid}/complete_order`, { headers, data: {} });
  expect(completed.status(), await completed.text()).toBe(200);
  const cancelled = await page.request.patch(`${EPA}/${pharmacyOrder.uid}/status`, { headers, data: { status: "cancelled" } });
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  await signInAs(page, d.users.admin, "/admin");
  await page.getByRole("navigation").getByRole("link", { name: "Payouts" }).first().click();
  await expect(page).toHaveURL(/\/admin\/payouts$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  await expect(page.getByRole("region", { name: "Totals" })).toBeVisible();
  await page.getByLabel("Search", { exact: true }).fill(pharmacyOrder.uid);
  const table = page.getByRole("table", { name: "Payouts" });
  const rows = table.getByRole("row").filter({ hasText: pharmacyOrder.uid });
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    await expect(rows.nth(i)).toContainText("Needs review");
    await expect(rows.nth(i)).toContainText("Pharmacy order cancelled after completion");
    await expect(rows.nth(i)).toContainText(d.pharmacies[0]!.display_name);
  }
  await expect(page.getByRole("heading", { name: "Totals (filtered)" })).toBeVisible();
  await shots(page, "admin-payouts-flagged");

  // Another pharmacy has none of these rows; the filter lives in the URL.
  await page.getByLabel("Pharmacy", { exact: true }).selectOption(d.pharmacies[1]!.uid);
  await expect(page).toHaveURL(new RegExp(`pharmacy=${d.pharmacies[1]!.uid}`));
  await expect(page.getByText("No payouts match these filters")).toBeVisible();
  await page.getByLabel("Pharmacy", { exact: true }).selectOption(d.pharmacies[0]!.uid);
  await expect(rows.first()).toBeVisible();
});
