/**
 * A list keeps every quick change however late the page renders (issue 33): a person on a slow tablet
 * picks a tab, a date and types a search faster than the router renders. Here the page's renders are
 * slowed, not the machine: every task of React's scheduler (it posts to a MessageChannel to run a
 * render) waits 250 ms first, so each change arrives while earlier ones have not rendered.
 */
import { expect, test, type Page } from "@playwright/test";
import { hydrated, readDemoFile, signInAs } from "./demo";

const RENDER_DELAY_MS = 250;

/** Delays every message a page script posts to a MessageChannel port: React's scheduler runs renders so. */
async function slowRenders(page: Page) {
  await page.addInitScript((delay) => {
    const Native = window.MessageChannel;
    window.MessageChannel = class extends Native {
      constructor() {
        super();
        for (const port of [this.port1, this.port2]) {
          const post = port.postMessage.bind(port) as (message: unknown) => void;
          port.postMessage = ((message: unknown) => void setTimeout(() => post(message), delay)) as MessagePort["postMessage"];
        }
      }
    };
  }, RENDER_DELAY_MS);
}

const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

async function urlHas(page: Page, expected: Record<string, string>) {
  await expect.poll(() => params(page), { message: `the URL carries ${JSON.stringify(expected)}` }).toMatchObject(expected);
}

test("pharmacy order queue: a search, a tab and a date in quick succession", async ({ page }) => {
  await signInAs(page, readDemoFile().users.pharmacist, "/pharmacy/orders");
  await slowRenders(page);
  await page.goto("/pharmacy/orders");
  await hydrated(page);
  // Typed first, so its write (after a pause in typing) comes while the tab and the date have not rendered.
  await page.getByLabel("Search", { exact: true }).fill("Muster");
  await page.getByRole("navigation", { name: "Order status" }).getByRole("button", { name: /^On hold/ }).click();
  await page.getByLabel("Created from").fill("2020-01-01");
  await urlHas(page, { status: "on-hold", q: "Muster", from: "2020-01-01" });
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("Muster");
  await expect(page.getByLabel("Created from")).toHaveValue("2020-01-01");
});

test("pharmacy payouts: status, two dates and a search in quick succession", async ({ page }) => {
  await signInAs(page, readDemoFile().users.pharmacist, "/pharmacy/payouts");
  await slowRenders(page);
  await page.goto("/pharmacy/payouts");
  await hydrated(page);
  await page.getByLabel("Status", { exact: true }).selectOption("routed");
  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("Search", { exact: true }).fill("PO");
  await page.getByLabel("To", { exact: true }).fill("2030-12-31");
  await urlHas(page, { status: "routed", from: "2020-01-01", to: "2030-12-31", q: "PO" });
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("PO");
});

test("admin orders: a search typed, then filters ticked before it is written", async ({ page }) => {
  await signInAs(page, readDemoFile().users.admin, "/admin");
  await slowRenders(page);
  await page.goto("/admin/orders");
  await hydrated(page);
  await page.getByLabel("Search", { exact: true }).fill("e");
  await page.getByLabel("On hold only").click();
  await page.getByLabel("Without a pharmacy only").click();
  await page.getByLabel("Status", { exact: true }).selectOption("waiting for pharmacy");
  await urlHas(page, { q: "e", onHold: "1", withoutPharmacy: "1", status: "waiting for pharmacy" });
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("e");
  await expect(page.getByLabel("On hold only")).toBeChecked();
});
