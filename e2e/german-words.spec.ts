/**
 * Issue 37, every word in the reader's language: the demo admin and the demo pharmacist, in German,
 * walk their main pages, and no page shows a word of the English word list below. Both users are
 * put back into English afterwards (the other specs expect them so).
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { hydrated, languageSelect, otcItem, placeOrder, readDemoFile, signInAs } from "./demo";
import { screenshot } from "./screenshots";

const EPA = "/v1/external_pharmacy_api";
const shot = (name: string) => `test-results/screenshots/${name}.png`;

/**
 * English words a German page must not show. Taken from messages/en.json and the English the server
 * used to store (history notes, payout descriptions, audit summaries, country names): words whose
 * German messages differ and that are neither German words nor brand or demo names (so not "Status",
 * "Shop", "Fulfillment", "E-Mail", product or pharmacy names). Matched as whole words, case-sensitive.
 * No short words ("the", "of"): what people typed (a note, a name) is data in its own language, and
 * other specs leave such data behind; the audit log and the payouts are filtered to this test's order.
 */
const ENGLISH = [
  "created",
  "updated",
  "cancelled",
  "deleted",
  "revoked",
  "changed",
  "Amount paid",
  "pharmacy's price",
  "Shipping costs",
  "API key",
  "portal",
  "Germany",
  "stock returned",
  "stock kept",
  "payouts flagged",
  "shipment added",
  "Order",
  "Pharmacy order",
  "Prescription",
  "Payouts",
  "Loading",
  "Search",
  "Sign out",
  "History",
];

async function englishOn(page: Page): Promise<string[]> {
  await hydrated(page);
  // What is still loading has arrived: no loading state ("… werden geladen…", "Laden…") is left.
  await expect(page.getByText(/geladen…|Laden…/)).toHaveCount(0);
  const text = await page.locator("body").innerText();
  const found: string[] = [];
  for (const word of ENGLISH) {
    const match = new RegExp(`(^|[^\\p{L}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u").exec(text);
    if (match) found.push(`"${word}" on ${new URL(page.url()).pathname}: …${text.slice(Math.max(0, match.index - 60), match.index + 60).replaceAll("\n", " | ")}…`);
  }
  return found;
}

async function inGerman(page: Page) {
  if ((await languageSelect(page).inputValue()) !== "de") {
    await languageSelect(page).selectOption({ label: "Deutsch" });
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
  }
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
}

async function backInEnglish(browser: Browser, user: { email: string; password: string }, landing: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, user, landing);
  if ((await languageSelect(page).inputValue()) !== "en") {
    await languageSelect(page).selectOption("en");
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  }
  await context.close();
}

// Signed in by the English labels (signInAs), then switched to German by the header's language
// switch, which the account keeps (as a de-DE browser's first visit would choose).
test.describe("German pages in German words", () => {
  test.afterEach(async ({ browser }) => {
    const d = readDemoFile();
    await backInEnglish(browser, d.users.admin, "/admin");
    await backInEnglish(browser, d.users.pharmacist, "/pharmacy");
  });

  test("the admin's and the pharmacist's pages carry no English word", async ({ page }) => {
    const d = readDemoFile();
    const lastName = `Wort${Math.random().toString(36).slice(2, 8)}`;
    const externalId = `e2e-words-${lastName.toLowerCase()}`;
    const order = await placeOrder(page.request, d, { externalId, lastName, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
    const found = await page.request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
    const [po] = (await found.json()).data as { uid: string; name: string }[];
    // Completed by an API key: the history says who ("API-Schlüssel") and the payouts are routed.
    const completed = await page.request.patch(`${EPA}/pharmacy_orders/${po!.uid}/complete_order`, { headers: { "X-API-Key": d.keys.pharmacy }, data: {} });
    expect(completed.status(), await completed.text()).toBe(200);
    // (The REST API keeps its English routing_description: server/api/pharmacy-payouts/payouts.test.ts.)

    const found1: string[] = [];
    await signInAs(page, d.users.admin, "/admin");
    await inGerman(page);
    for (const path of ["/admin", "/admin/orders", `/admin/orders/${order.uid}`, `/admin/audit-log?${new URLSearchParams({ text: externalId })}`, `/admin/payouts?${new URLSearchParams({ q: po!.uid })}`]) {
      await page.goto(path);
      found1.push(...(await englishOn(page)));
      if (path === `/admin/orders/${order.uid}`) {
        await expect(page.getByText("(API-Schlüssel)").first()).toBeVisible();
        await expect(page.getByText("Deutschland").first()).toBeVisible();
        await screenshot(page, shot("german-words-admin-order"), { fullPage: true });
      }
      if (path.startsWith("/admin/audit-log")) {
        await expect(page.getByText(`Bestellung ${order.name ?? ""}`, { exact: false }).first()).toBeVisible();
        await screenshot(page, shot("german-words-admin-audit-log"), { fullPage: true });
      }
    }

    await page.context().clearCookies();
    await signInAs(page, d.users.pharmacist, "/pharmacy/orders", { fresh: true });
    await inGerman(page);
    for (const path of ["/pharmacy/orders", `/pharmacy/orders/${po!.uid}`, `/pharmacy/payouts?${new URLSearchParams({ q: po!.uid })}`]) {
      await page.goto(path);
      found1.push(...(await englishOn(page)));
      if (path.startsWith("/pharmacy/payouts")) await screenshot(page, shot("german-words-pharmacy-payouts"), { fullPage: true });
    }
    expect(found1).toEqual([]);
  });
});
