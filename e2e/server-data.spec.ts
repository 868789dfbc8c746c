import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { otcItem, placeOrder, readDemoFile, signInAs } from "./demo";

/**
 * The portals' main pages carry their data in the HTML (components/trpc/server.tsx): the page's
 * response already holds its order, queue or summary as markup, not the section's loading
 * placeholder (the response streams behind the shell's Suspense boundary, so it is read as sent,
 * not as a browser without scripts would show it); with scripts on, the browser's first render finds
 * the same answers under the same query keys, so React hydrates without a mismatch (a production
 * build reports one as a minified error #418 / #423 / #425) and the page shows the data.
 */
const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const HYDRATION_ERROR = /#418|#423|#425|Hydration|did not match/i;

type Who = "pharmacist" | "admin" | "doctor";
/** `sent`: what the response's HTML must hold; `shows`: what the page shows once hydrated. */
type Check = { path: string; who: Who; sent: (html: string) => void; shows: (page: Page) => Promise<void> };

/** A context signed in as `who`. */
async function signedIn(browser: Browser, baseURL: string | undefined, who: Who, landing: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await signInAs(await context.newPage(), demo().users[who], landing);
  return context;
}

/** A text as an element's content in the markup (not only inside the page's data script). */
const asMarkup = (text: string) => (html: string) => expect(html).toContain(`>${text}<`);
/** The section's own loading label is not in the markup (the page's words, in its data script, hold it anyway): its data came with it. */
const notLoading = (label: string) => (html: string) => {
  expect(html).toContain("</main>");
  expect(html).not.toContain(`>${label}`);
};
const sectionShown = (scope: (page: Page) => ReturnType<Page["locator"]>) => async (page: Page) => {
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
    { path: "/pharmacy", who: "pharmacist", sent: notLoading("Loading what needs attention"), shows: sectionShown((p) => p.locator('section[aria-labelledby="attention-heading"]')) },
    { path: "/pharmacy/orders", who: "pharmacist", sent: asMarkup(po!.name), shows: async (p) => expect(p.getByText(po!.name, { exact: true }).first()).toBeVisible() },
    { path: `/pharmacy/orders/${po!.uid}`, who: "pharmacist", sent: asMarkup(po!.name), shows: async (p) => expect(p.getByRole("heading", { name: po!.name })).toBeVisible() },
    { path: "/admin", who: "admin", sent: notLoading("Loading what needs attention"), shows: sectionShown((p) => p.getByRole("main")) },
    { path: "/admin/orders", who: "admin", sent: asMarkup(externalId), shows: async (p) => expect(p.getByText(externalId, { exact: true }).first()).toBeVisible() },
    { path: `/admin/orders/${orderUid}`, who: "admin", sent: asMarkup(externalId), shows: async (p) => expect(p.getByText(externalId).first()).toBeVisible() },
    { path: "/admin/doctor", who: "doctor", sent: notLoading("Loading the requests"), shows: sectionShown((p) => p.getByRole("main")) },
  ];

  for (const who of ["pharmacist", "admin", "doctor"] as const) {
    const mine = checks.filter((c) => c.who === who);
    const landing = who === "pharmacist" ? "/pharmacy" : who === "doctor" ? "/admin/doctor" : "/admin";
    const context = await signedIn(browser, baseURL, who, landing);
    // As sent: the response's HTML, before any script ran.
    for (const check of mine) {
      const response = await context.request.get(check.path, { headers: { "accept-language": "en" } });
      expect(response.status()).toBe(200);
      const html = await response.text();
      await test.step(`${check.path} as sent`, () => check.sent(html));
    }
    // Hydrated: no mismatch, and the page shows the same.
    const errors: string[] = [];
    context.on("console", (m) => m.type() === "error" && HYDRATION_ERROR.test(m.text()) && errors.push(`${m.page()?.url()}: ${m.text()}`));
    context.on("weberror", (e) => HYDRATION_ERROR.test(String(e.error())) && errors.push(String(e.error())));
    const page = await context.newPage();
    for (const check of mine) {
      await page.goto(check.path);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      await page.waitForLoadState("networkidle");
      await test.step(`${check.path} hydrated`, () => check.shows(page));
    }
    expect(errors).toEqual([]);
    await context.close();
  }
});
