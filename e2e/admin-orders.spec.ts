import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { readDemoFile, signInAs, type DemoFile } from "./demo";

/**
 * The admin tool's orders and issue threads as the operations team uses them: a pharmacist's
 * on-hold comment opens a thread, admin and pharmacist reply, the admin resolves it from the list
 * and the order goes back to its status before the hold; an admin searches an order and opens it.
 * Screenshots go to test-results/admin with `npm run screenshots` (e2e/screenshots.ts).
 */
const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const docShots = path.resolve(import.meta.dirname, "..", "docs", "screenshots");

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

/** A signed-in page of its own (its own cookies), so two people can work side by side. */
async function signedInPage(browser: Browser, baseURL: string | undefined, user: { email: string; password: string }, landing: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, user, landing);
  return page;
}

/** POST /v1/management/orders with the demo key: one OTC item at the demo pharmacist's pharmacy. */
async function createOrder(request: APIRequestContext, d: DemoFile, options: { name: string; email: string; quantity?: number }) {
  const externalId = `e2e-admin-${tag()}`;
  const response = await request.post("/v1/management/orders", {
    headers: { "X-API-Key": d.keys.management },
    data: {
      shop_identifier: d.shop.identifier,
      external_id: externalId,
      name: options.name,
      customer: { id: `cust-${externalId}`, email: options.email },
      delivery_address: { first_name: "Erika", last_name: "Admin", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          destination_pharmacy_uid: d.pharmacies[0]!.uid,
          items: [{ external_id: "i-1", sku_reference: d.catalogue.otc[0]!.sku_reference, quantity: options.quantity ?? 1, total_paid: { amount: 399, currency: "EUR" } }],
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { externalId, uid: (await response.json()).uid as string };
}

/** The order's pharmacy order over the External Pharmacy API (its search matches the order uid). */
async function pharmacyOrderOf(request: APIRequestContext, d: DemoFile, orderUid: string) {
  const response = await request.get(`/v1/external_pharmacy_api/pharmacy_orders/?${new URLSearchParams({ search: orderUid })}`, {
    headers: { "X-API-Key": d.keys.pharmacy },
  });
  expect(response.ok()).toBe(true);
  const [entry] = (await response.json()).data as { uid: string; name: string; status: string }[];
  expect(entry).toBeDefined();
  return entry;
}

test("resolve an issue thread opened by a pharmacist's on-hold comment", async ({ browser, baseURL }) => {
  const d = demo();
  const pharmacist = await signedInPage(browser, baseURL, d.users.pharmacist, "/pharmacy");
  const order = await createOrder(pharmacist.request, d, { name: `#ISSUE-${tag()}`, email: "issue@example.com" });
  const po = await pharmacyOrderOf(pharmacist.request, d, order.uid);
  const comment = `Dosage unclear ${tag()}: please ask the doctor`;

  // The pharmacist puts the order on hold with a comment in the portal.
  await pharmacist.goto(`/pharmacy/orders/${po.uid}`);
  await pharmacist.getByLabel("Status", { exact: true }).selectOption("on-hold");
  await pharmacist.getByLabel("Comment").fill(comment);
  await pharmacist.getByRole("button", { name: "Update status" }).click();
  await expect(pharmacist.getByText("Status changed to On hold.")).toBeVisible();

  // The admin sees it on the home page and in the open threads, with the order's name and the comment.
  const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin");
  await expect(admin.getByText("Open issue threads")).toBeVisible();
  await shot(admin, "admin-home");
  await admin.goto("/admin/issues");
  const row = admin.getByRole("row").filter({ hasText: po.name });
  await expect(row).toContainText(comment);
  await expect(row).toContainText(d.pharmacies[0]!.display_name);
  await shot(admin, "admin-issues");

  // Replies from both sides.
  await row.getByRole("link", { name: "Open thread" }).click();
  await expect(admin.getByRole("heading", { name: `Pharmacy order ${po.name}` })).toBeVisible();
  await admin.getByLabel("Reply").fill("Which strength does the label say?");
  await admin.getByRole("button", { name: "Send reply" }).click();
  await expect(admin.getByRole("list", { name: "Messages" }).getByText("Which strength does the label say?")).toBeVisible();
  await expect(admin.getByLabel("Reply")).toHaveValue("");
  await pharmacist.reload();
  await expect(pharmacist.getByRole("list", { name: "Messages" }).getByText("Which strength does the label say?")).toBeVisible();
  await pharmacist.getByLabel("Reply").fill("1 mg, twice a day.");
  await pharmacist.getByRole("button", { name: "Send reply" }).click();
  await expect(pharmacist.getByRole("list", { name: "Messages" }).getByText("1 mg, twice a day.")).toBeVisible();
  await expect(pharmacist.getByLabel("Reply")).toHaveValue("");
  await shot(pharmacist, "pharmacy-order-thread");
  await admin.reload();
  await expect(admin.getByRole("list", { name: "Messages" }).getByText("1 mg, twice a day.")).toBeVisible();
  await shot(admin, "admin-issue-thread");

  // "Resolve" on the row: the thread leaves the open list, the order goes back to its status before the hold.
  await admin.goto("/admin/issues");
  await row.getByRole("button", { name: "Resolve" }).click();
  await expect(admin.getByText(`Resolved. ${po.name} went back to “Waiting for pharmacy”.`)).toBeVisible();
  await expect(admin.getByRole("row").filter({ hasText: po.name })).toHaveCount(0);
  expect((await pharmacyOrderOf(admin.request, d, order.uid)).status).toBe("waiting for pharmacy");
  await admin.getByRole("button", { name: "Resolved" }).click();
  await expect(admin.getByRole("row").filter({ hasText: po.name })).toBeVisible();
});

test("search an order on /admin/orders and open its detail via the name link", async ({ browser, baseURL }) => {
  const d = demo();
  const admin = await signedInPage(browser, baseURL, d.users.admin, "/admin");
  const name = `#SEARCH-${tag()}`;
  const order = await createOrder(admin.request, d, { name, email: `search-${tag()}@example.com`, quantity: 2 });

  await admin.goto("/admin/orders");
  await admin.getByLabel("Search").fill(name);
  const link = admin.getByRole("link", { name });
  await expect(link).toBeVisible();
  await expect(admin.getByRole("row")).toHaveCount(2); // header and the one order
  await expect(link).toHaveAttribute("href", `/admin/orders/${order.uid}`);
  await shot(admin, "admin-orders");
  await link.click();

  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${order.uid}$`));
  await expect(admin.getByRole("heading", { name })).toBeVisible();
  const fulfillment = admin.getByRole("article", { name: "Fulfillment f-1" });
  await expect(fulfillment).toContainText("Waiting for pharmacy");
  await expect(fulfillment).toContainText(d.pharmacies[0]!.display_name);
  await shot(admin, "admin-order-detail");

  // Cancel the fulfillment: a confirmation first, then the pharmacy order is cancelled.
  await fulfillment.getByRole("button", { name: "Cancel fulfillment" }).click();
  await admin.getByRole("alertdialog", { name: "Cancel fulfillment f-1" }).getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(admin.getByText("Fulfillment f-1 cancelled.")).toBeVisible();
  await expect(fulfillment).toContainText("Waiting for pharmacy → Cancelled");

  // An order that is not the organisation's (or does not exist): the page's not-found state.
  await admin.goto("/admin/orders/00000000-0000-4000-8000-000000000000");
  await expect(admin.getByText("Order not found")).toBeVisible();
});
