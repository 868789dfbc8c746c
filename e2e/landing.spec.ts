import { expect, test } from "@playwright/test";
import { readDemoFile, signInAs } from "./demo";

const families = [
  ["Management API", "/v1/management"],
  ["Public API", "/v2/public-api"],
  ["External Pharmacy API", "/v1/external_pharmacy_api"],
  ["Pharmacy payouts", "/v1/external-pharmacy-api-v1/payouts"],
] as const;

test("the landing page describes the service and lists every API family it serves with its base path", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Rx Fulfilment/);
  await expect(page.getByText(/prescription and pharmacy fulfilment platform/i)).toBeVisible();

  const rows = page.getByTestId("api-family");
  await expect(rows).toHaveCount(families.length);
  for (const [name, basePath] of families) {
    const row = rows.filter({ has: page.getByRole("rowheader", { name, exact: true }) });
    await expect(row.locator("code")).toHaveText(basePath);
  }
  await expect(page.getByRole("link", { name: /API explorer/ })).toHaveCount(4);
  await expect(page.locator('a[href="/v1/management/apidocs"]')).toBeVisible();
  await expect(page.locator('a[href="/v2/public-api/apidocs"]')).toBeVisible();
  await expect(page.locator('a[href="/v1/external_pharmacy_api/apidocs"]')).toBeVisible();
  await expect(page.locator('a[href="/v1/external-pharmacy-api-v1/apidocs"]')).toBeVisible();
  // Nothing that does not exist yet is promised.
  await expect(page.getByText(/waiting room|wallet pass|patient data|admin tool/i)).toHaveCount(0);
});

test("the favicon is served", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const svg = await request.get("/icon.svg");
  expect(svg.status()).toBe(200);
});

test("the header shows the signed-in user, their portal and sign-out instead of Sign in", async ({ page }) => {
  const { pharmacist } = readDemoFile().users;
  await signInAs(page, pharmacist, "/pharmacy", { fresh: true }); // signs out below
  await page.goto("/");
  const banner = page.getByRole("banner");
  await expect(banner.getByTestId("signed-in-user")).toContainText(pharmacist.email);
  await expect(banner.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  await expect(banner.getByRole("link", { name: "Pharmacy portal" })).toHaveAttribute("href", "/pharmacy");
  await banner.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("the pharmacy portal link leads to sign-in with a way back to /pharmacy", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Open the pharmacy portal" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpharmacy$/);
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("the header's sign-in link opens the sign-in page", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});

test("the API explorer renders the operations of the route table", async ({ page }) => {
  await page.goto("/v1/management/apidocs");
  await expect(page.getByText("Management API", { exact: false }).first()).toBeVisible();
  const createSku = page.locator(".opblock-post").filter({ hasText: "/v1/management/skus/" });
  await expect(createSku).toBeVisible();
  await createSku.locator(".opblock-summary").click();
  await expect(page.getByText("Permission: product:write").first()).toBeVisible();
});
