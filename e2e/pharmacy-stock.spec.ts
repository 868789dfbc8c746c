import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { readDemoFile, signInAs } from "./demo";

/**
 * Pharmacy portal: stock and prices, shipping methods and payouts, each checked against the REST
 * API the same data is served by (the demo pharmacy key), with screenshots of the full, empty and
 * error states under test-results/; with SCREENSHOTS_TO_DOCS=1 the full ones replace those committed
 * under docs/screenshots/.
 */
const demo = readDemoFile();
const pharmacy = demo.pharmacies[0]!;
const PHARMACY_API = "/v1/external_pharmacy_api";
const SHOTS = "test-results/pharmacy-stock-shots";

const shot = (page: Page, name: string, committed = false) =>
  screenshot(page, committed && SCREENSHOTS_TO_DOCS ? `docs/screenshots/${name}.png` : `${SHOTS}/${name}.png`);

/**
 * Makes one tRPC procedure fail (as a server error would) or answer `data`, for the empty and error
 * screenshots. A double, kept on purpose for the error states: the real server cannot be made to
 * fail one procedure from a browser test.
 */
async function stubProcedure(page: Page, procedure: string, answer: { data: unknown } | "error") {
  await page.route(new RegExp(`/api/trpc/[^?]*${procedure.replace(".", "\\.")}`), (route) =>
    answer === "error"
      ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify([{ error: { message: "Internal server error", code: -32603, data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } } }]) })
      : route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify([{ result: { data: answer.data } }]) }),
  );
}

const pharmacyHeaders = { "X-API-Key": demo.keys.pharmacy };

/**
 * An OTC order placed over the Management API and routed to the demo pharmacy (`extra` adds to or
 * replaces parts of the body), and its pharmacy order as the REST queue lists it.
 */
async function placeRoutedOrder(page: Page, externalId: string, paid: number, extra: Record<string, unknown> = {}) {
  const created = await page.request.post("/v1/management/orders", {
    headers: { "X-API-Key": demo.keys.management },
    data: {
      shop_identifier: demo.shop.identifier,
      external_id: externalId,
      customer: { id: `cust-${externalId}` },
      delivery_address: { first_name: "Max", last_name: "Muster", street: "Hauptstr.", house_number: "7", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          destination_pharmacy_uid: pharmacy.uid,
          items: [{ external_id: "i-1", sku_reference: demo.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: paid, currency: "EUR" } }],
        },
      ],
      ...extra,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const orderUid = ((await created.json()) as { uid: string }).uid;
  const queue = await page.request.get(`${PHARMACY_API}/pharmacy_orders/`, { headers: pharmacyHeaders, params: { limit: 100 } });
  const pharmacyOrder = ((await queue.json()) as { data: { uid: string; order: { uid: string } }[] }).data.find((o) => o.order.uid === orderUid)!;
  expect(pharmacyOrder).toBeTruthy();
  return pharmacyOrder;
}

test("a pharmacist changes a stock with Enter, and the REST API shows it", async ({ page }) => {
  const sku = demo.catalogue.otc[0]!;
  const list = await page.request.get(`${PHARMACY_API}/pharmacy_skus/`, { headers: pharmacyHeaders, params: { limit: 100 } });
  expect(list.ok()).toBe(true);
  const before = ((await list.json()) as { data: { uid: string; stock: number; sku: { display_name: string; pzn: string | null } }[] }).data.find((r) => r.uid === sku.pharmacy_sku_uid)!;
  const name = before.sku.display_name;
  const newStock = before.stock + 17;

  await signInAs(page, demo.users.pharmacist);
  await page.goto("/pharmacy/stock");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stock and prices");
  const stockInput = page.getByLabel(`Stock of ${name}`, { exact: true });
  await expect(stockInput).toHaveValue(String(before.stock));
  await stockInput.fill(String(newStock));
  await stockInput.press("Enter");
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();

  const after = await page.request.get(`${PHARMACY_API}/pharmacy_skus/`, { headers: pharmacyHeaders, params: { limit: 100 } });
  const row = ((await after.json()) as { data: { uid: string; stock: number }[] }).data.find((r) => r.uid === sku.pharmacy_sku_uid)!;
  expect(row.stock).toBe(newStock);

  // The change is in the SKU's stock movements, as the pharmacist's.
  await page.getByRole("button", { name: `Stock movements of ${name}` }).click();
  const movements = page.getByRole("table", { name: `Recent stock movements of ${name}` });
  await expect(movements.getByRole("row").nth(1)).toContainText("+17");
  await expect(movements.getByRole("row").nth(1)).toContainText("Manual change");
  await expect(movements.getByRole("row").nth(1)).toContainText("Demo Pharmacist (portal user)");

  // A value the REST PATCH would refuse is refused beside the field, and nothing is saved.
  await stockInput.fill("-3");
  await stockInput.press("Enter");
  await expect(page.getByText("Ensure this value is greater than or equal to 0.")).toBeVisible();
  await shot(page, "pharmacy-stock", true);

  // Search, and its empty state.
  const search = page.getByLabel("Search");
  await search.fill(before.sku.pzn ?? name);
  await expect(page.getByLabel(`Stock of ${name}`, { exact: true })).toBeVisible();
  await search.fill("no-such-sku-anywhere");
  await expect(page.getByText("No SKU matches your search")).toBeVisible();
  await shot(page, "pharmacy-stock-empty");

  // The error state.
  await stubProcedure(page, "pharmacy.stock.list", "error");
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "Something went wrong on our side" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  await shot(page, "pharmacy-stock-error");
});

test("a pharmacist maps a shipping method, and a REST pharmacy order detail carries the mapping", async ({ page }) => {
  const label = `e2e-express-${randomUUID().slice(0, 6)}`;
  const externalId = `e2e-ship-${randomUUID()}`;
  const pharmacyOrder = await placeRoutedOrder(page, externalId, 499, {
    customer: { id: `cust-${externalId}`, email: "erika@example.com" },
    delivery_address: { first_name: "Erika", last_name: "Mustermann", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
    shipping_methods: ["standard", label],
    shipping_cost: { amount: 495, currency: "EUR" },
  });
  type Detail = { shop_shipping_methods: { external_id: string; pharmacy_mapping: unknown }[] };
  const detail = async () => {
    const r = await page.request.get(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/`, { headers: pharmacyHeaders });
    expect(r.ok()).toBe(true);
    return ((await r.json()) as Detail).shop_shipping_methods.find((m) => m.external_id === label)!;
  };
  expect((await detail()).pharmacy_mapping).toBeNull();

  await signInAs(page, demo.users.pharmacist);
  await page.goto("/pharmacy/settings/shipping-methods");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shipping methods");
  // The seeded mapping of the sandbox's standard method is shown; the new method is listed unmapped.
  await expect(page.getByLabel("Standard shipping", { exact: true })).toHaveValue("DHL_PAKET");
  const input = page.getByLabel(label, { exact: true });
  await expect(input).toHaveValue("");
  await input.fill("EXPRESS_24");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect((await detail()).pharmacy_mapping).toEqual({ pharmacy_uid: pharmacy.uid, shipping_method_identifier_for_pharmacy: "EXPRESS_24" });
  await shot(page, "pharmacy-shipping-methods", true);

  // Clearing the input removes the mapping; the method stays listed.
  await input.fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect((await detail()).pharmacy_mapping).toBeNull();
  await page.reload();
  await expect(page.getByLabel(label, { exact: true })).toHaveValue("");

  // The empty list, a double: the list is the organisation's shops' methods, and the sandbox
  // organisation's shop always has its seeded standard method (no door removes one). The real empty
  // list of an organisation without methods is tested in server/trpc/pharmacy-stock.test.ts.
  await stubProcedure(page, "pharmacy.shippingMethods.list", { data: [] });
  await page.reload();
  await expect(page.getByText("No shipping methods yet")).toBeVisible();
  await shot(page, "pharmacy-shipping-methods-empty");
  await page.unrouteAll();
  await stubProcedure(page, "pharmacy.shippingMethods.list", "error");
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "Something went wrong on our side" })).toBeVisible();
  await shot(page, "pharmacy-shipping-methods-error");
});

test("a pharmacist opens payouts and sees the rows with their totals, or the empty state", async ({ page }) => {
  // A completed order, so that there are routed payout rows to show.
  const pharmacyOrder = await placeRoutedOrder(page, `e2e-payout-${randomUUID()}`, 999, { shipping_cost: { amount: 495, currency: "EUR" } });
  const started = await page.request.patch(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/status`, { headers: pharmacyHeaders, data: { status: "in-progress" } });
  expect(started.status(), await started.text()).toBe(200);
  const completed = await page.request.patch(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/complete_order`, { headers: pharmacyHeaders, data: {} });
  expect(completed.status(), await completed.text()).toBe(200);
  const rest = await page.request.get("/v1/external-pharmacy-api-v1/payouts", { headers: pharmacyHeaders, params: { limit: 200 } });
  const restRows = ((await rest.json()) as { data: { pharmacy_order_uid: string }[] }).data;

  await signInAs(page, demo.users.pharmacist);
  await page.goto("/pharmacy/payouts");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  // Completing the order routed its payout rows: the REST list and the page both show them.
  const ofOrder = restRows.filter((r) => r.pharmacy_order_uid === pharmacyOrder.uid).length;
  expect(ofOrder).toBeGreaterThan(0);
  const table = page.getByRole("table", { name: "Payouts" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(Math.min(restRows.length, 50) + 1);
  await expect(page.getByRole("region", { name: "Totals" })).toBeVisible();
  await expect(page.getByText(pharmacyOrder.uid).first()).toBeVisible();
  await shot(page, "pharmacy-payouts", true);

  // Search narrows the rows (and the totals) to the completed order's.
  await page.getByLabel("Search").fill(pharmacyOrder.uid);
  await expect(page.getByRole("table", { name: "Payouts" }).getByRole("row")).toHaveCount(ofOrder + 1);
  await page.getByRole("button", { name: "Clear filters" }).click();

  // Filters that match nothing show the empty state.
  await page.getByLabel("From", { exact: true }).fill("2001-01-01");
  await page.getByLabel("To", { exact: true }).fill("2001-01-31");
  await expect(page.getByText("No payouts match these filters")).toBeVisible();
  await shot(page, "pharmacy-payouts-empty");

  await stubProcedure(page, "pharmacy.payouts.list", "error");
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "Something went wrong on our side" })).toBeVisible();
  await shot(page, "pharmacy-payouts-error");
});

test("an order cancelled after completion: the pharmacist says the goods came back, its stock returns, its payouts show as needing review", async ({ page }) => {
  const pharmacyOrder = await placeRoutedOrder(page, `e2e-cancel-${randomUUID()}`, 999);
  const completed = await page.request.patch(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/complete_order`, { headers: pharmacyHeaders, data: {} });
  expect(completed.status(), await completed.text()).toBe(200);

  await signInAs(page, demo.users.pharmacist);
  await page.goto(`/pharmacy/orders/${pharmacyOrder.uid}`);
  await page.getByLabel("Status", { exact: true }).selectOption("cancelled");
  await page.getByRole("button", { name: "Update status" }).click();
  const dialog = page.getByRole("alertdialog", { name: /^Cancel order / });
  await expect(dialog).toContainText("stays taken unless you say below that they came back");
  const cameBack = dialog.getByRole("checkbox", { name: /The goods came back to the pharmacy/ });
  await expect(cameBack).not.toBeChecked();
  await cameBack.check();
  await shot(page, "pharmacy-cancel-completed-goods-returned");
  await dialog.getByRole("button", { name: "Cancel the order" }).click();
  await expect(page.getByText("Status changed to cancelled.")).toBeVisible();
  await expect(page.getByText("stock returned")).toBeVisible();
  await expect(page.getByText(/the goods came back/)).toBeVisible();
  await expect(page.getByText("payouts flagged for review")).toBeVisible();
  await expect(page.getByText(/Needs review: Pharmacy order cancelled after completion/).first()).toBeVisible();
  await shot(page, "pharmacy-order-cancelled-after-completion");

  const rest = await page.request.get("/v1/external-pharmacy-api-v1/payouts", { headers: pharmacyHeaders, params: { search: pharmacyOrder.uid } });
  const restRows = ((await rest.json()) as { data: Record<string, unknown>[] }).data;
  expect(restRows.length).toBeGreaterThan(0);
  expect(restRows.every((row) => !("review" in row))).toBe(true);
  await page.goto("/pharmacy/payouts");
  await page.getByLabel("Search").fill(pharmacyOrder.uid);
  const table = page.getByRole("table", { name: "Payouts" });
  await expect(table.getByRole("row")).toHaveCount(restRows.length + 1);
  await expect(table.getByText("Needs review")).toHaveCount(restRows.length);
  await expect(table.getByText("Pharmacy order cancelled after completion").first()).toBeVisible();
  await shot(page, "pharmacy-payouts-review");
});

test("an order cancelled after completion through the API keeps its stock taken, and its page says so", async ({ page }) => {
  const pharmacyOrder = await placeRoutedOrder(page, `e2e-cancel-api-${randomUUID()}`, 999);
  expect((await page.request.patch(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/complete_order`, { headers: pharmacyHeaders, data: {} })).status()).toBe(200);
  const cancelled = await page.request.patch(`${PHARMACY_API}/pharmacy_orders/${pharmacyOrder.uid}/status`, { headers: pharmacyHeaders, data: { status: "cancelled" } });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  await signInAs(page, demo.users.pharmacist);
  await page.goto(`/pharmacy/orders/${pharmacyOrder.uid}`);
  await expect(page.getByText("stock kept")).toBeVisible();
  await expect(page.getByText(/the goods had left the pharmacy, so no stock was returned/)).toBeVisible();
});
