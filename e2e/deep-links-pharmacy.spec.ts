/**
 * Every list of the pharmacy portal keeps its filters, search, tab and page in the URL (issue 22,
 * item 10): set one, reload, go back — the list shows the same state, its controls too.
 */
import { expect, test, type Page } from "@playwright/test";
import { readDemoFile, signInAs } from "./demo";

/** After a reload and after going elsewhere and back, `check` holds again. */
async function keptAcrossReloadAndBack(page: Page, url: RegExp, check: () => Promise<void>) {
  await expect(page).toHaveURL(url);
  await check();
  await page.reload();
  await expect(page).toHaveURL(url);
  await check();
  await page.goto("/pharmacy");
  await page.goBack();
  await expect(page).toHaveURL(url);
  await check();
}

test.beforeEach(async ({ page }) => {
  await signInAs(page, readDemoFile().users.pharmacist, "/pharmacy/orders");
});

test("the order queue: status tab, search and dates", async ({ page }) => {
  await page.getByRole("navigation", { name: "Order status" }).getByRole("button", { name: /^On hold/ }).click();
  await page.getByLabel("Search", { exact: true }).fill("Muster");
  await page.getByLabel("Created from").fill("2020-01-01");
  await keptAcrossReloadAndBack(page, /status=on-hold.*/, async () => {
    await expect(page).toHaveURL(/q=Muster/);
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(page.getByRole("button", { name: /^On hold/ })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("Muster");
    await expect(page.getByLabel("Created from")).toHaveValue("2020-01-01");
  });
});

test("payouts: status, dates and search", async ({ page }) => {
  await page.goto("/pharmacy/payouts");
  await page.getByLabel("Status", { exact: true }).selectOption("routed");
  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("To", { exact: true }).fill("2030-12-31");
  await page.getByLabel("Search", { exact: true }).fill("PO");
  await keptAcrossReloadAndBack(page, /\/pharmacy\/payouts\?.*status=routed/, async () => {
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(page).toHaveURL(/to=2030-12-31/);
    await expect(page).toHaveURL(/q=PO/);
    await expect(page.getByLabel("Status", { exact: true })).toHaveValue("routed");
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("2020-01-01");
    await expect(page.getByLabel("To", { exact: true })).toHaveValue("2030-12-31");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("PO");
  });
});

test("stock: search", async ({ page }) => {
  await page.goto("/pharmacy/stock");
  await page.getByLabel("Search", { exact: true }).fill("zzz-no-such-sku");
  await keptAcrossReloadAndBack(page, /\/pharmacy\/stock\?q=zzz-no-such-sku/, async () => {
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("zzz-no-such-sku");
    await expect(page.getByText("No SKU matches your search")).toBeVisible();
  });
});

test("webhook delivery logs: state, event type and dates", async ({ page }) => {
  await page.goto("/pharmacy/api-access/delivery-logs");
  await page.getByLabel("State").selectOption("failed");
  await page.getByLabel("Event type").selectOption("pharmacy_sku_stock_updated");
  await page.getByLabel("From date").fill("2020-01-01");
  await keptAcrossReloadAndBack(page, /\/pharmacy\/api-access\/delivery-logs\?.*state=failed/, async () => {
    await expect(page).toHaveURL(/eventType=pharmacy_sku_stock_updated/);
    await expect(page.getByLabel("State")).toHaveValue("failed");
    await expect(page.getByLabel("Event type")).toHaveValue("pharmacy_sku_stock_updated");
    await expect(page.getByLabel("From date")).toHaveValue("2020-01-01");
  });
});
