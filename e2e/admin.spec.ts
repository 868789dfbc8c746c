import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { e2eDataDir, readDemoFile, signInAs } from "./demo";

/**
 * The admin tool as an admin uses it: a Management key created on /admin/api-keys works against the
 * Management API at once and stops working when revoked; the provider setting saved on
 * /admin/telemedicine-providers is what the Management API reads. Screenshots of every page go to
 * test-results/admin with `npm run screenshots` (e2e/screenshots.ts).
 */
// Read when a test runs: the e2e server's seed writes the file.
const demo = () => readDemoFile();
const providerUid = () =>
  (JSON.parse(readFileSync(path.join(e2eDataDir, "demo.json"), "utf8")) as { telemedicine_provider_uid: string })
    .telemedicine_provider_uid;
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const docShots = path.resolve(import.meta.dirname, "..", "docs", "screenshots");

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

test("an admin creates a Management key, calls the API with it and revokes it", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin");
  await expect(page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "API keys" })).toBeVisible();
  await shot(page, "admin-home");
  await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/admin\/api-keys$/);

  // The Public family offers its own permissions, patient_data among them.
  await page.getByLabel("API family").selectOption({ label: "Public" });
  await expect(page.getByLabel("patient_data", { exact: true })).toBeVisible();
  await page.getByLabel("API family").selectOption({ label: "Management" });
  await expect(page.getByLabel("patient:write", { exact: true })).toBeVisible();

  const name = `E2E ops ${Date.now()}`;
  await page.getByLabel("Display name").fill(name);
  await page.getByLabel("order:read", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^rxm_/);
  await expect(page.getByLabel("New API key")).toHaveAttribute("readonly", "");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Management");
  await expect(row).toContainText("order:read");
  await shot(page, "admin-api-keys");

  const orders = await page.request.get("/v1/management/orders", { headers: { "X-API-Key": key } });
  expect(orders.status()).toBe(200);

  // Revoking asks once, in a dialog that names what it does.
  await row.getByRole("button", { name: "Revoke" }).click();
  const confirmation = page.getByRole("alertdialog", { name: `Revoke the API key “${name}”?` });
  await expect(confirmation).toContainText("refused (401)");
  await screenshot(page, "test-results/screenshots/admin-api-key-revoke-confirmation.png", { fullPage: false });
  await confirmation.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(page.getByText(`Revoked “${name}”`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  expect((await page.request.get("/v1/management/orders", { headers: { "X-API-Key": key } })).status()).toBe(401);
});

test("an admin switches the provider's non-QES setting and the Management API reads it", async ({ page }) => {
  const settings = async () => {
    const response = await page.request.get(`/v1/management/telemedicine-providers/${providerUid()}/settings`, {
      headers: { "X-API-Key": demo().keys.management },
    });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { allow_non_qes_signed_prescriptions: boolean }).allow_non_qes_signed_prescriptions;
  };
  const before = await settings();

  await signInAs(page, demo().users.admin, "/admin/telemedicine-providers");
  // The seeded provider's card (other tests may connect more providers, each with its own checkbox).
  const provider = page.getByRole("region", { name: "Demo Telemedicine Provider" });
  const checkbox = provider.getByLabel("Allow non-QES signed prescriptions");
  await expect(checkbox).toHaveCount(1);
  expect(await checkbox.isChecked()).toBe(before);
  const save = async (allowed: boolean) => {
    await checkbox.setChecked(allowed);
    await provider.getByRole("button", { name: "Save", exact: true }).click();
    await expect(provider.getByText("Saved.")).toBeVisible();
  };
  try {
    await save(!before);
    await shot(page, "admin-telemedicine-providers");
    expect(await settings()).toBe(!before);
  } finally {
    // The seeded provider is shared with the other specs: set it back even when an assertion failed.
    await save(before);
  }
  await expect.poll(settings).toBe(before);
});
