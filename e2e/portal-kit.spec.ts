import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { hydrated, readDemoFile, signInAs } from "./demo";
import { screenshot } from "./screenshots";

/**
 * The portal UI kit (ARCHITECTURE.md, "Portal UI kit"): the shell's skip link and small-screen
 * menu (every page's fit at phone, tablet and desktop widths is e2e/every-page.spec.ts), list
 * state in the URL (the pharmacy home's links open the filtered queue; reload and back keep it), and
 * a form on the kit showing the client's check and the server's field error under the right field.
 */
const demo = () => readDemoFile();
const shots = path.resolve(import.meta.dirname, "..", "test-results", "kit");

/** Screenshots to look at (test-results/kit), named by page and width. */
async function shot(page: Page, name: string) {
  await screenshot(page, path.join(shots, `${name}-${page.viewportSize()?.width}.png`));
}

test("the skip link is the first Tab stop and moves focus to the page's main content", async ({ page }) => {
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("below 1024 px a Menu button opens the navigation; from 1024 px it is always there", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, demo().users.pharmacist, "/pharmacy");
  const nav = page.getByRole("navigation", { name: "Pharmacy portal" });
  const menu = page.getByRole("button", { name: "Menu" });
  // The page starts right below the header: the navigation waits behind the button.
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav).toBeVisible();
  await shot(page, "pharmacy-menu-open");
  expect(await menu.getAttribute("aria-controls")).toBeTruthy();
  await nav.getByRole("link", { name: "Payouts" }).click();
  await expect(page).toHaveURL(/\/pharmacy\/payouts$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  // Following a link closes the menu; the current page is marked in it.
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav.getByRole("link", { name: "Payouts" })).toHaveAttribute("aria-current", "page");

  // Every page at 390, 768 and 1440 px (no sideways scroll, every action on screen): e2e/every-page.spec.ts.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, demo().users.admin, "/admin");
  // At desktop width the side navigation is always there, without the button.
  await expect(page.getByRole("navigation", { name: "Admin tool" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
});

test("the pharmacy home's links open the filtered queue, and reload and back keep the filter", async ({ page }) => {
  await signInAs(page, demo().users.pharmacist, "/pharmacy");
  await page.getByRole("link", { name: "Show orders on hold →" }).click();
  await expect(page).toHaveURL(/\/pharmacy\/orders\?status=on-hold$/);
  const statusTabs = page.getByRole("navigation", { name: "Order status" });
  await expect(statusTabs.getByRole("button", { name: /^On hold/ })).toHaveAttribute("aria-pressed", "true");
  await expect(statusTabs.getByRole("button", { name: /^All/ })).toHaveAttribute("aria-pressed", "false");

  // A search joins the filter in the URL once typing pauses.
  await page.getByLabel("Search").fill("PO-");
  await expect(page).toHaveURL(/\/pharmacy\/orders\?status=on-hold&q=PO-$/);
  await page.reload();
  await hydrated(page);
  await expect(statusTabs.getByRole("button", { name: /^On hold/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Search")).toHaveValue("PO-");

  await page.getByRole("navigation", { name: "Pharmacy portal" }).getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/pharmacy$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/pharmacy\/orders\?status=on-hold&q=PO-$/);
  await expect(statusTabs.getByRole("button", { name: /^On hold/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Search")).toHaveValue("PO-");

  // The other link: the orders waiting for the pharmacy; another tab replaces the filter.
  await page.goto("/pharmacy");
  await page.getByRole("link", { name: "Open the order queue →" }).click();
  await expect(page).toHaveURL(/\/pharmacy\/orders\?status=waiting\+for\+pharmacy$/);
  await expect(statusTabs.getByRole("button", { name: /^Waiting for pharmacy/ })).toHaveAttribute("aria-pressed", "true");
  await statusTabs.getByRole("button", { name: /^All/ }).click();
  await expect(page).toHaveURL(/\/pharmacy\/orders$/);
});

test("a form on the kit shows the client's check and the server's field error under the field they concern", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/telemedicine-providers");
  const name = page.getByLabel("Provider name");
  const identifier = page.getByLabel("Identifier");
  const connect = page.getByRole("button", { name: "Connect provider" });

  // Nothing typed: the input schema refuses it in the browser, beside the field.
  await identifier.fill(`e2e-kit-${Date.now()}`);
  await connect.click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("This field may not be blank.");
  await expect(identifier).not.toHaveAttribute("aria-invalid", "true");

  // A taken identifier: the server's field error, under Identifier (the input's own field name).
  const taken = `e2e-kit-taken-${Date.now()}`;
  await name.fill("Kit First");
  await identifier.fill(taken);
  await connect.click();
  await expect(page.getByLabel("New provider API key")).toBeVisible();
  await name.fill("Kit Second");
  await identifier.fill(taken);
  await connect.click();
  await expect(identifier).toHaveAttribute("aria-invalid", "true");
  await expect(identifier).toHaveAccessibleDescription(/already connected/);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  // The button kept its name while it worked.
  await expect(connect).toBeEnabled();
});
