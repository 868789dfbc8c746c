import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { mintPatientToken } from "../tests/patient-tokens";
import { readDemoFile, signInAs } from "./demo";

/**
 * The admin tool's providers, questionnaires and settings as an admin uses them: a provider
 * connected with its key shown once and working; a questionnaire edited with a live preview, an
 * invalid model refused, then published; a patient token secret created and revoked (its tokens
 * refused); a pharmacy's hidden SKU type changing what its API lists. Screenshots go to
 * test-results/admin with `npm run screenshots` (e2e/screenshots.ts).
 */
const demo = () => readDemoFile();
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const docShots = path.resolve(import.meta.dirname, "..", "docs", "screenshots");

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

test("an admin connects a telemedicine provider and sees its key once", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/telemedicine-providers");
  const name = `E2E Tele ${Date.now()}`;
  await page.getByLabel("Provider name").fill(name);
  await page.getByLabel("Identifier").fill(`e2e-tele-${Date.now()}`);
  await page.getByRole("button", { name: "Connect provider" }).click();
  const keyBox = page.getByLabel("New provider API key");
  await expect(keyBox).toHaveAttribute("readonly", "");
  const key = await keyBox.inputValue();
  expect(key).toMatch(/^rxm_/);
  const card = page.getByRole("region", { name });
  await expect(card).toContainText("Connected");
  await expect(card).toContainText(`${key.slice(0, 12)}…`);
  await shot(page, "admin-telemedicine-providers");

  expect((await page.request.get("/v1/management/telemedicine-providers", { headers: { "X-API-Key": key } })).status()).toBe(200);

  // Shown once: after a reload only the prefix is left.
  await page.reload();
  await expect(page.getByRole("region", { name })).toContainText(`${key.slice(0, 12)}…`);
  await expect(page.getByLabel("New provider API key")).toHaveCount(0);
  await expect(page.getByText(key)).toHaveCount(0);

  // Disconnecting revokes the key.
  await page.getByRole("button", { name: `Disconnect ${name}` }).click();
  await page.getByRole("region", { name }).getByRole("button", { name: "Confirm disconnect" }).click();
  await expect(page.getByRole("region", { name })).toContainText("Disconnected");
  expect((await page.request.get("/v1/management/telemedicine-providers", { headers: { "X-API-Key": key } })).status()).toBe(401);
});

const model = (question: string) =>
  JSON.stringify({ pages: [{ name: "p1", elements: [{ type: "text", name: "shoe_size", title: question, isRequired: true }] }] }, null, 2);

test("an admin edits a questionnaire with a live preview; an invalid model is refused, a valid one published", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/questionnaires");
  const name = `E2E questionnaire ${Date.now()}`;
  await page.getByLabel("Questionnaire name").fill(name);
  await page.getByRole("button", { name: "Create questionnaire" }).click();
  await expect(page).toHaveURL(/\/admin\/questionnaires\/[^/]+$/);
  const preview = page.getByTestId("survey-preview");
  await expect(preview).toContainText("Your first question");

  const editor = page.getByLabel("Model JSON");
  await editor.fill(model("What is your shoe size?"));
  await expect(preview).toContainText("What is your shoe size?");
  await expect(page.getByText(/Draft saved/)).toBeVisible();

  // Not JSON: said at once, under the field.
  await editor.fill("{ pages: ");
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();
  // JSON that survey-core refuses: the server's check (as PATCH …/model) says why and nothing is published.
  await editor.fill(JSON.stringify({ pages: [{ name: "p1", elements: [{ type: "no-such-question", name: "x" }] }] }));
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("The model has no questions.")).toBeVisible();
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Published: the model is live.")).toHaveCount(0);

  await editor.fill(model("Which shoe size do you wear?"));
  await expect(preview).toContainText("Which shoe size do you wear?");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published: the model is live.")).toBeVisible();
  await shot(page, "admin-questionnaire-editor");

  // The live model, without a draft, after a reload.
  await page.reload();
  // (The database stores the model as jsonb, which may order its keys differently.)
  await expect.poll(async () => JSON.parse(await page.getByLabel("Model JSON").inputValue())).toEqual(JSON.parse(model("Which shoe size do you wear?")));
  await expect(page.getByText(/You are editing the draft/)).toHaveCount(0);

  await page.getByRole("link", { name: "All questionnaires" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toBeVisible();
  await shot(page, "admin-questionnaires");
});

test("an admin creates and revokes a patient token secret, and changes a pharmacy's hidden SKU type", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/settings");
  const name = `E2E backend ${Date.now()}`;
  await page.getByLabel("Secret name").fill(name);
  await page.getByRole("button", { name: "Create secret" }).click();
  const secretBox = page.getByLabel("New patient token secret");
  await expect(secretBox).toHaveAttribute("readonly", "");
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^ptsec_/);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Active");
  const kid = ((await row.textContent()) ?? "").match(/kid ([0-9a-f-]{36})/)?.[1];
  expect(kid).toBeTruthy();
  await shot(page, "admin-settings");

  // A token signed with the secret is accepted (the unknown customer is then not found), until revoked (401).
  const token = await mintPatientToken({ kid: kid!, secret, audience: "patient-data" }, { shop_identifier: demo().shop.identifier, shop_customer_id: "e2e-nobody" });
  const read = () =>
    page.request.get(`/api/v0/patient/properties?shop_identifier=${encodeURIComponent(demo().shop.identifier)}&shop_customer_id=e2e-nobody&field=phone`, {
      headers: { "X-Service-Booking-Token": token },
    });
  expect((await read()).status()).toBe(404);
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await row.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(page.getByText(`Revoked “${name}”`)).toBeVisible();
  await expect(row).toContainText("Revoked");
  expect((await read()).status()).toBe(401);

  // Hiding physical SKUs empties the (all physical) sandbox pharmacy's SKU list in its API; None restores it.
  const pharmacy = demo().pharmacies[0].display_name;
  const skuCount = async () => {
    const res = await page.request.get("/v1/external_pharmacy_api/pharmacy_skus/", { headers: { "X-API-Key": demo().keys.pharmacy } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { totalRegistries: number }).totalRegistries;
  };
  const before = await skuCount();
  expect(before).toBeGreaterThan(0);
  const pharmacyRow = page.getByRole("row").filter({ hasText: pharmacy });
  const saveHidden = async (type: "PHYSICAL" | "NONE") => {
    await page.getByLabel(`Hidden SKU type of ${pharmacy}`, { exact: true }).selectOption(type);
    await page.getByRole("button", { name: `Save hidden SKU type of ${pharmacy}` }).click();
    await expect(pharmacyRow.getByText("Saved.")).toBeVisible();
  };
  try {
    await saveHidden("PHYSICAL");
    expect(await skuCount()).toBe(0);
  } finally {
    // The sandbox pharmacy is shared with the other specs: None again, even when an assertion failed.
    await saveHidden("NONE");
  }
  await expect.poll(skuCount).toBe(before);
});
