import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { otcItem, placeOrder, readDemoFile, signInAs } from "./demo";

/**
 * The portals' main pages carry their data in the HTML (components/trpc/server.tsx): with scripts
 * off, the page already shows its order, queue or summary instead of a loading placeholder; with
 * scripts on, the browser's first render finds the same answers under the same query keys, so React
 * hydrates without a mismatch (a production build reports one as a minified error #418 / #423 / #425).
 */
const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const HYDRATION_ERROR = /#418|#423|#425|Hydration|did not match/i;

type Who = "pharmacist" | "admin" | "doctor";
type Check = { path: string; who: Who; shows: (page: Page) => Promise<void> };

/** A context signed in as `who`, with scripts on or off. */
async function signedIn(browser: Browser, baseURL: string | undefined, who: Who, landing: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const signing = await browser.newContext({ baseURL });
  const page = await signing.newPage();
  await signInAs(page, demo().users[who], landing);
  const cookies = await signing.cookies();
  await signing.close();
  const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: { width: 1280, height: 900 } });
  await context.addCookies(cookies);
  return context;
}

const noPlaceholder = (scope: (page: Page) => ReturnType<Page["locator"]>) => async (page: Page) => {
  await expect(scope(page)).toBeVisible();
  await expect(scope(page).locator('[aria-busy="true"]')).toHaveCount(0);
};

test("the portals' main pages arrive with their data and hydrate without a mismatch", async ({ browser, baseURL, request }) => {
  const d = demo();
  const externalId = `e2e-ssr-${tag()}`;
  const { uid: orderUid } = await placeOrder(request, d, { externalId, lastName: `Ssr${tag()}`, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
  const listed = await request.get(`/v1/external_pharmacy_api/pharmacy_orders/?search=${externalId}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  const [po] = ((await listed.json()) as { data: { uid: string; name: string }[] }).data;
  expect(po).toBeTruthy();

  const checks: Check[] = [
    { path: "/pharmacy", who: "pharmacist", shows: noPlaceholder((p) => p.locator('section[aria-labelledby="attention-heading"]')) },
    { path: "/pharmacy/orders", who: "pharmacist", shows: async (p) => expect(p.getByRole("cell", { name: po!.name })).toBeVisible() },
    { path: `/pharmacy/orders/${po!.uid}`, who: "pharmacist", shows: async (p) => expect(p.getByRole("heading", { name: po!.name })).toBeVisible() },
    { path: "/admin", who: "admin", shows: noPlaceholder((p) => p.getByRole("main")) },
    { path: "/admin/orders", who: "admin", shows: async (p) => expect(p.getByRole("cell", { name: externalId })).toBeVisible() },
    { path: `/admin/orders/${orderUid}`, who: "admin", shows: async (p) => expect(p.getByText(externalId).first()).toBeVisible() },
    { path: "/admin/doctor", who: "doctor", shows: noPlaceholder((p) => p.getByRole("main")) },
  ];

  for (const who of ["pharmacist", "admin", "doctor"] as const) {
    const mine = checks.filter((c) => c.who === who);
    const landing = who === "pharmacist" ? "/pharmacy" : who === "doctor" ? "/admin/doctor" : "/admin";
    // Scripts off: what the server sent is all there is.
    const html = await signedIn(browser, baseURL, who, landing, false);
    const page = await html.newPage();
    for (const check of mine) {
      await page.goto(check.path);
      await test.step(`${check.path} without scripts`, () => check.shows(page));
    }
    await html.close();

    // Scripts on: no hydration mismatch, and the page shows the same.
    const live = await signedIn(browser, baseURL, who, landing, true);
    const errors: string[] = [];
    live.on("console", (m) => m.type() === "error" && HYDRATION_ERROR.test(m.text()) && errors.push(`${m.page()?.url()}: ${m.text()}`));
    live.on("weberror", (e) => HYDRATION_ERROR.test(String(e.error())) && errors.push(String(e.error())));
    const livePage = await live.newPage();
    for (const check of mine) {
      await livePage.goto(check.path);
      await expect(livePage.locator("html[data-hydrated]")).toHaveCount(1);
      await livePage.waitForLoadState("networkidle");
      await test.step(`${check.path} with scripts`, () => check.shows(livePage));
    }
    expect(errors).toEqual([]);
    await live.close();
  }
});
