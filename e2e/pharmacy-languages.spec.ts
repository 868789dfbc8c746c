/**
 * The pharmacist's main task in both languages (issue 22, item 13): queue → order → status →
 * complete with a tracking link. Once in German, by the German labels, after picking "Deutsch" with
 * the header's language switch; once in English by the English labels. Screenshots of the order
 * page at 390 and 1440 px per language go to test-results/screenshots.
 */
import { expect, test } from "@playwright/test";
import { screenshot } from "./screenshots";
import { otcItem, placeOrder, languageSelect, pharmacistBackInEnglish, readDemoFile, signInAs } from "./demo";

const EPA = "/v1/external_pharmacy_api";
const shot = (name: string) => `test-results/screenshots/${name}.png`;

/** The words the task is done by, per language. */
const WORDS = {
  de: {
    search: "Suche",
    status: "Status",
    update: "Status ändern",
    changed: "Status geändert auf In Bearbeitung.",
    open: "Bestellung abschließen",
    trackingLink: "Sendungsverfolgungslink",
    carrier: "Versanddienstleister",
    submit: "Abschließen",
    done: "Bestellung abgeschlossen: Bestand abgebucht, Beträge ausgezahlt.",
    completed: "Abgeschlossen",
    track: "Sendung verfolgen",
  },
  en: {
    search: "Search",
    status: "Status",
    update: "Update status",
    changed: "Status changed to In progress.",
    open: "Complete order",
    trackingLink: "Tracking link",
    carrier: "Carrier",
    submit: "Complete",
    done: "Order completed: stock reduced, payouts routed.",
    completed: "Completed",
    track: "Track parcel",
  },
} as const;

/** The demo pharmacist is shared with the other specs: leave their account in English whatever happens. */
test.afterEach(({ browser }) => pharmacistBackInEnglish(browser));

for (const language of ["de", "en"] as const) {
  test(`the pharmacist completes an order from the queue in ${language === "de" ? "German" : "English"}`, async ({ page }) => {
    const d = readDemoFile();
    const w = WORDS[language];
    const lastName = `Sprache${language}${Math.random().toString(36).slice(2, 8)}`;
    const externalId = `e2e-lang-${lastName.toLowerCase()}`;
    await placeOrder(page.request, d, { externalId, lastName, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
    const found = await page.request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
    const [po] = (await found.json()).data as { uid: string; name: string }[];

    await signInAs(page, d.users.pharmacist, "/pharmacy/orders");
    if (language === "de") {
      await languageSelect(page).selectOption({ label: "Deutsch" });
      await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
    } else {
      await expect(languageSelect(page)).toHaveValue("en");
    }

    // The queue: found by the customer's name, opened.
    await page.getByLabel(w.search, { exact: true }).fill(lastName);
    await expect(page).toHaveURL(new RegExp(`q=${lastName}`));
    await page.getByRole("link", { name: po!.name }).click();
    await expect(page.getByRole("heading", { name: po!.name })).toBeVisible();

    // The status: in progress.
    await page.getByLabel(w.status, { exact: true }).selectOption("in-progress");
    await page.getByRole("button", { name: w.update }).click();
    await expect(page.getByText(w.changed)).toBeVisible();

    // Completed with a tracking link.
    await page.getByRole("button", { name: w.open }).click();
    await page.getByLabel(w.trackingLink).fill("https://tracking.example.com/parcel/42");
    await page.getByLabel(w.carrier).fill("dhl");
    await page.getByRole("button", { name: w.submit, exact: true }).click();
    await expect(page.getByText(w.done)).toBeVisible();
    await expect(page.locator("main [data-status='completed']").first()).toHaveText(w.completed);
    await expect(page.getByRole("link", { name: w.track })).toHaveAttribute("href", "https://tracking.example.com/parcel/42");

    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `the page scrolls sideways at ${width}px`).toBeLessThanOrEqual(width);
      await screenshot(page, shot(`pharmacy-order-completed-${language}-${width}`));
    }

    const after = await page.request.get(`${EPA}/pharmacy_orders/${po!.uid}`, { headers: { "X-API-Key": d.keys.pharmacy } });
    expect(((await after.json()) as { status: string }).status).toBe("completed");
  });
}
