import { expect, test } from "@playwright/test";

const families = [
  ["Management API", "/v1/management"],
  ["Public API", "/v2/public-api"],
  ["External Pharmacy API", "/v1/external_pharmacy_api"],
  ["Pharmacy payouts", "/v1/external-pharmacy-api-v1/payouts"],
  ["Patient data", "/api/v0/patient"],
] as const;

test("the landing page describes the service and lists every API family with its base path", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Rx Fulfilment/);
  await expect(page.getByText(/prescription and pharmacy fulfilment platform/i)).toBeVisible();

  const rows = page.getByTestId("api-family");
  await expect(rows).toHaveCount(families.length);
  for (const [name, basePath] of families) {
    const row = rows.filter({ has: page.getByRole("rowheader", { name, exact: true }) });
    await expect(row.locator("code")).toHaveText(basePath);
  }
  await expect(page.getByRole("link", { name: /API explorer/ })).toHaveCount(3);
  await expect(page.locator('a[href="/v1/management/apidocs"]')).toBeVisible();
  await expect(page.locator('a[href="/v2/public-api/apidocs"]')).toBeVisible();
  await expect(page.locator('a[href="/v1/external_pharmacy_api/apidocs"]')).toBeVisible();
});

test("the admin tool link leads to sign-in with a way back to /admin", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in to the admin tool" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("the pharmacy portal link leads to sign-in with a way back to /pharmacy", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in to the pharmacy portal" }).click();
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
