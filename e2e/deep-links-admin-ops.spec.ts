/**
 * The admin tool's operations lists keep their state in the URL (issue 22 item 10): each filter,
 * search, tab and page is set, then the page is reloaded and left and come back to: the list shows
 * the same state. The catalogue's three lists keep one search each (products-q, skus-q, shopSkus-q).
 */
import { expect, test, type Page } from "@playwright/test";
import { hydrated, readDemoFile, signInAs } from "./demo";

const demo = () => readDemoFile();

/** The query string as key → value. */
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** Waits until the URL carries `expected` (other keys may be there too). */
async function urlHas(page: Page, expected: Record<string, string>) {
  await expect.poll(() => params(page), { message: `the URL carries ${JSON.stringify(expected)}` }).toMatchObject(expected);
}

/** Reload, then leave for the home page and come back: `check` holds each time, and the URL keeps `expected`. */
async function keptAcrossReloadAndBack(page: Page, expected: Record<string, string>, check: () => Promise<void>) {
  await check();
  await page.reload();
  await hydrated(page);
  await urlHas(page, expected);
  await check();
  await page.goto("/admin");
  await hydrated(page);
  await page.goBack();
  await hydrated(page);
  await urlHas(page, expected);
  await check();
}

test("orders: search, status, on hold and without pharmacy (and the page, when there is a second)", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin");
  await page.goto("/admin/orders?status=waiting+for+pharmacy");
  await hydrated(page);
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("waiting for pharmacy");
  await page.getByLabel("On hold only").click();
  await expect(page.getByLabel("On hold only")).toBeChecked();
  await page.getByLabel("Without a pharmacy only").click();
  await expect(page.getByLabel("Without a pharmacy only")).toBeChecked();
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await page.getByLabel("Search", { exact: true }).fill("e");
  const expected = { q: "e", onHold: "1", withoutPharmacy: "1" };
  await urlHas(page, expected);
  expect(params(page).status).toBeUndefined();
  await keptAcrossReloadAndBack(page, expected, async () => {
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("e");
    await expect(page.getByLabel("On hold only")).toBeChecked();
    await expect(page.getByLabel("Without a pharmacy only")).toBeChecked();
    await expect(page.getByLabel("Status", { exact: true })).toHaveValue("");
  });

  // The unfiltered list: its second page, when the sandbox has one by now.
  await page.goto("/admin/orders");
  await hydrated(page);
  const next = page.getByRole("button", { name: "Next page" });
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
  if (await next.isEnabled()) {
    await next.click();
    await urlHas(page, { page: "2" });
    await keptAcrossReloadAndBack(page, { page: "2" }, async () => {
      await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("Page 2 of");
    });
  }
});

test("issue threads: the Resolved tab", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/issues");
  const tabs = page.getByRole("group", { name: "Show threads" });
  await tabs.getByRole("button", { name: "Resolved", exact: true }).click();
  await urlHas(page, { status: "resolved" });
  await keptAcrossReloadAndBack(page, { status: "resolved" }, async () => {
    await expect(tabs.getByRole("button", { name: "Resolved", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(tabs.getByRole("button", { name: "Open", exact: true })).toHaveAttribute("aria-pressed", "false");
  });
  await tabs.getByRole("button", { name: "Open", exact: true }).click();
  await expect.poll(() => params(page).status).toBeUndefined();
});

test("prescriptions: status and search", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/prescriptions");
  await page.getByLabel("Status", { exact: true }).selectOption("waiting for doctor");
  await page.getByLabel("Search", { exact: true }).fill("a");
  const expected = { status: "waiting for doctor", q: "a" };
  await urlHas(page, expected);
  await keptAcrossReloadAndBack(page, expected, async () => {
    await expect(page.getByLabel("Status", { exact: true })).toHaveValue("waiting for doctor");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("a");
    await expect(page.getByRole("button", { pressed: true })).toHaveCount(1);
  });
});

test("catalogue: the view, and each list's own search and the shop filter", async ({ page }) => {
  const d = demo();
  await signInAs(page, d.users.admin, "/admin/catalogue");
  const views = page.getByRole("group", { name: "Catalogue view" });
  await page.getByLabel("Search", { exact: true }).fill("Ibu");
  await urlHas(page, { "products-q": "Ibu" });
  await views.getByRole("button", { name: "SKUs", exact: true }).click();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");
  await page.getByLabel("Search", { exact: true }).fill("4");
  await urlHas(page, { view: "skus", "skus-q": "4", "products-q": "Ibu" });
  await views.getByRole("button", { name: "Shop SKUs", exact: true }).click();
  const shopLabel = await page.getByLabel("Shop", { exact: true }).locator("option").nth(1).textContent();
  await page.getByLabel("Shop", { exact: true }).selectOption({ label: shopLabel! });
  const expected = { view: "shop-skus", "shopSkus-shop": d.shop.uid, "skus-q": "4", "products-q": "Ibu" };
  await urlHas(page, expected);
  await keptAcrossReloadAndBack(page, expected, async () => {
    await expect(views.getByRole("button", { name: "Shop SKUs", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByLabel("Shop", { exact: true })).toHaveValue(d.shop.uid);
  });
  // Each list still has its own search.
  await views.getByRole("button", { name: "SKUs", exact: true }).click();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("4");
  await views.getByRole("button", { name: "Products", exact: true }).click();
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("Ibu");
  await expect.poll(() => params(page).view).toBeUndefined();
});

test("pharmacy stock: the pharmacy and the running-out filter", async ({ page }) => {
  const d = demo();
  const second = d.pharmacies[1]!;
  await signInAs(page, d.users.admin, "/admin/pharmacy-stock");
  await page.getByLabel("Pharmacy", { exact: true }).selectOption(second.uid);
  await page.getByLabel(/^Only SKUs running out/).click();
  await expect(page.getByLabel(/^Only SKUs running out/)).toBeChecked();
  const expected = { pharmacy: second.uid, runningOut: "1" };
  await urlHas(page, expected);
  await keptAcrossReloadAndBack(page, expected, async () => {
    await expect(page.getByLabel("Pharmacy", { exact: true })).toHaveValue(second.uid);
    await expect(page.getByLabel(/^Only SKUs running out/)).toBeChecked();
  });
});
