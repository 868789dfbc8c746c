/**
 * German and English (issue 22, item 13): the browser's language picks the sign-in page's, a choice
 * there switches it (and is kept by the cookie), a signed-in pharmacist's choice is remembered per
 * user (after sign-out, in a browser without the cookie), money and dates follow de-DE, and a
 * browser without a German preference gets English. Screenshots (`npm run screenshots`) go to test-results/screenshots.
 */
import { expect, test } from "@playwright/test";
import { screenshot } from "./screenshots";
import { hydrated, otcItem, placeOrder, pharmacistBackInEnglish, readDemoFile, signInAs } from "./demo";

const EPA = "/v1/external_pharmacy_api";
const shot = (name: string) => `test-results/screenshots/${name}.png`;

test.describe("a browser that prefers German", () => {
  test.use({ locale: "de-DE" });

  test("gets the German sign-in page; picking English switches it and keeps it", async ({ page }) => {
    await page.goto("/signin");
    await hydrated(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anmelden");
    await expect(page.getByLabel("E-Mail")).toBeVisible();
    await expect(page.getByLabel("Passwort")).toBeVisible();
    await expect(page.getByRole("button", { name: "Anmelden" })).toBeVisible();
    await screenshot(page, shot("languages-signin-de"));

    await page.getByRole("combobox", { name: "Sprache" }).selectOption({ label: "English" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Language" })).toHaveValue("en");

    // The choice outlives the page: the cookie beats the browser's German.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  });
});

test("English stays the default for a browser without a German preference", async ({ browser }) => {
  for (const locale of ["en-US", "fr-FR"]) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto("/signin");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(page.getByRole("combobox", { name: "Language" })).toHaveValue("en");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("From prescription to parcel, through one API.");
    await context.close();
  }
});

test.describe("a pharmacist who picks Deutsch", () => {
  // The demo pharmacist is shared with the other specs: leave their account in English whatever happens.
  test.afterEach(({ browser }) => pharmacistBackInEnglish(browser));

  test("sees the portal in German after a reload and after signing in again, with de-DE money and dates", async ({ page, context }) => {
    const d = readDemoFile();
    const externalId = `e2e-languages-${Math.random().toString(36).slice(2, 8)}`;
    await placeOrder(page.request, d, { externalId, lastName: "Sprachwahl", pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
    const found = await page.request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
    const [po] = (await found.json()).data as { uid: string; name: string }[];

    await signInAs(page, d.users.pharmacist);
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await page.getByRole("combobox", { name: "Language" }).selectOption({ label: "Deutsch" });
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Sprache" })).toHaveValue("de");
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

    // Money and dates in de-DE on the order page (3.99 € paid for the OTC line); its status label in German.
    await page.goto(`/pharmacy/orders/${po!.uid}`);
    await expect(page.getByRole("heading", { name: po!.name })).toBeVisible();
    await expect(page.getByRole("cell", { name: /^3,99\s€$/ }).first()).toBeVisible();
    await expect(page.getByText(/Angelegt \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/)).toBeVisible();
    await expect(page.locator("main [data-status='waiting for pharmacy']").first()).toHaveText("Wartet auf Apotheke");
    await screenshot(page, shot("languages-pharmacy-order-de"));

    // Remembered for the user, not only in this browser: sign out, forget the cookie, sign in again.
    await page.getByRole("button", { name: "Abmelden" }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await context.clearCookies();
    await signInAs(page, d.users.pharmacist);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Sprache" })).toHaveValue("de");
  });
});
