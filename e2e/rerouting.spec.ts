import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { readDemoFile, signInAs, type DemoFile } from "./demo";
import { layoutProblems, seriousAccessibilityViolations, WIDTHS } from "./page-checks";
import { screenshot } from "./screenshots";

/**
 * A pharmacy that cannot fulfil (docs/decisions/intake.md#re-routing): the pharmacist cancels an
 * automatically routed order in the portal and the admin finds it at another pharmacy, the
 * cancelled one kept as history; an order no other pharmacy can take shows on the admin home
 * "without a pharmacy", and the admin routes it by hand. Each order is the spec's own; its
 * fulfillment is cancelled at the end (Management API), so no queue or count keeps it.
 * Screenshots (SCREENSHOTS=1) go to test-results/rerouting.
 */
const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const shots = path.resolve(import.meta.dirname, "..", "test-results", "rerouting");
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

test.use({ viewport: { width: 1280, height: 900 } });

/** A signed-in page of its own (its own cookies), so the pharmacist and the admin work side by side. */
async function signedInPage(browser: Browser, baseURL: string | undefined, user: { email: string; password: string }, landing: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, user, landing);
  return page;
}

/** An order of `quantity` of the first OTC SKU that names no pharmacy: routing chooses (pharmacies[0] has the most stock). */
async function autoRoutedOrder(request: APIRequestContext, d: DemoFile, quantity: number) {
  const externalId = `e2e-reroute-${tag()}`;
  const response = await request.post("/v1/management/orders", {
    headers: { "X-API-Key": d.keys.management },
    data: {
      shop_identifier: d.shop.identifier,
      external_id: externalId,
      name: `#REROUTE-${tag()}`,
      customer: { id: `cust-${externalId}`, email: "reroute@example.com" },
      delivery_address: { first_name: "Erika", last_name: "Reroute", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          items: [{ external_id: "i-1", sku_reference: d.catalogue.otc[0]!.sku_reference, quantity, total_paid: { amount: 399 * quantity, currency: "EUR" } }],
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const order = (await response.json()) as { uid: string; name?: string };
  // pharmacies[0]'s pharmacy order of it (its key's search matches the order uid).
  const found = await request.get(`${EPA}/?${new URLSearchParams({ search: order.uid })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  const [po] = (await found.json()).data as { uid: string; name: string; order: { uid: string } }[];
  expect(po, "routed to pharmacies[0]").toBeDefined();
  return { externalId, uid: order.uid, po };
}

/** The fulfillment cancelled by the integrator: the order leaves every queue and count. */
async function cancelFulfillment(request: APIRequestContext, d: DemoFile, externalId: string) {
  const response = await request.post(`/v1/management/orders/${externalId}/fulfillments/f-1/cancel`, { headers: { "X-API-Key": d.keys.management } });
  expect(response.status(), await response.text()).toBe(200);
}

async function shot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, path.join(shots, `${name}-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a pharmacist cancels an automatically routed order and the admin finds it at another pharmacy", async ({ browser, baseURL }) => {
  const d = demo();
  const pharmacist = await signedInPage(browser, baseURL, d.users.pharmacist, "/pharmacy");
  const order = await autoRoutedOrder(pharmacist.request, d, 1);
  try {
    await pharmacist.goto(`/pharmacy/orders/${order.po.uid}`);
    await expect(pharmacist.getByRole("heading", { name: order.po.name })).toBeVisible();
    await pharmacist.getByLabel("Status", { exact: true }).selectOption("cancelled");
    await pharmacist.getByRole("button", { name: "Update status" }).click();
    const dialog = pharmacist.getByRole("alertdialog", { name: `Cancel order ${order.po.name}?` });
    await expect(dialog).toContainText("may send it to another pharmacy");
    await dialog.getByRole("button", { name: "Cancel the order" }).click();
    await expect(pharmacist.getByText("Status changed to Cancelled.")).toBeVisible();

    const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin");
    await admin.goto(`/admin/orders/${order.uid}`);
    const card = admin.getByRole("article", { name: "Fulfillment f-1" });
    const others = d.pharmacies.slice(1).map((p) => p.display_name);
    await expect(card.getByText(new RegExp(`^at (${others.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`))).toBeVisible();
    await expect(card.getByText("Pharmacy chosen automatically").first()).toBeVisible();
    await expect(card.getByRole("heading", { name: "Earlier pharmacy orders" })).toBeVisible();
    await expect(card.getByText(`${order.po.name} at ${d.pharmacies[0]!.display_name}`)).toBeVisible();
    await expect(card.getByRole("button", { name: /^Route to pharmacy/ })).toHaveCount(0);
    await shot(admin, "re-routed");
    await admin.context().close();
  } finally {
    await cancelFulfillment(pharmacist.request, d, order.externalId);
    await pharmacist.context().close();
  }
});

test("an order no other pharmacy can take is without a pharmacy on the admin home, and the admin routes it by hand", async ({ browser, baseURL }) => {
  const d = demo();
  const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin");
  // More than the other pharmacies hold (100 each): only pharmacies[0] could take it.
  const order = await autoRoutedOrder(admin.request, d, 150);
  const chosen = d.pharmacies[1]!;
  try {
    const cancelled = await admin.request.patch(`${EPA}/${order.po.uid}/status`, { headers: { "X-API-Key": d.keys.pharmacy }, data: { status: "cancelled" } });
    expect(cancelled.status(), await cancelled.text()).toBe(200);

    // The admin home counts it and links to the list that shows it.
    await admin.goto("/admin");
    const homeCard = admin.getByRole("listitem").filter({ hasText: "Orders without a pharmacy" });
    await expect(homeCard).toContainText("whose pharmacy gave it back");
    await expect(homeCard.locator("p.text-3xl")).not.toHaveText("0");
    await homeCard.getByRole("link", { name: /Show these orders/ }).click();
    await expect(admin).toHaveURL(/withoutPharmacy=1/);
    await expect(admin.getByLabel("Without a pharmacy only")).toBeChecked();
    await admin.getByLabel("Search", { exact: true }).fill(order.externalId);
    await admin.getByRole("link", { name: new RegExp(`#REROUTE-`) }).first().click();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${order.uid}$`));

    const card = admin.getByRole("article", { name: "Fulfillment f-1" });
    await expect(card.getByRole("heading", { name: "Route to pharmacy" })).toBeVisible();
    await expect(card.getByText(`${order.po.name} at ${d.pharmacies[0]!.display_name}`)).toBeVisible();
    const select = card.getByLabel("Pharmacy", { exact: true });
    // Nothing is preselected; the button waits for a choice.
    await expect(select).toHaveValue("");
    const route = card.getByRole("button", { name: "Route to pharmacy: fulfillment f-1" });
    await expect(route).toBeDisabled();
    await expect(select.locator("option", { hasText: `${d.pharmacies[0]!.display_name}: carries every item, in stock · cancelled this fulfillment before` })).toHaveCount(1);
    // The sandbox's seeded order (e2e/every-page.spec.ts) never shows this state: checked here.
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    for (const width of WIDTHS) {
      await admin.setViewportSize({ width, height: 900 });
      expect(await layoutProblems(admin), `at ${width}px`).toEqual([]);
    }
    await shot(admin, "without-a-pharmacy");

    await select.selectOption(chosen.uid);
    await route.click();
    const dialog = admin.getByRole("alertdialog", { name: `Route fulfillment f-1 to ${chosen.display_name}?` });
    await expect(dialog).toContainText(`${chosen.display_name} does not have every item in stock.`);
    await shot(admin, "route-confirmation");
    await dialog.getByRole("button", { name: "Confirm routing" }).click();
    await expect(admin.getByText(`Fulfillment f-1 routed to ${chosen.display_name}.`)).toBeVisible();
    await expect(card.getByText(`at ${chosen.display_name}`, { exact: true })).toBeVisible();
    await expect(card.getByText("Pharmacy chosen by an admin")).toBeVisible();
    await expect(card.getByRole("heading", { name: "Route to pharmacy" })).toHaveCount(0);
  } finally {
    await cancelFulfillment(admin.request, d, order.externalId);
    await admin.context().close();
  }
});
