/**
 * Pharmacy portal for a group pharmacist: the queue shows the orders of both group pharmacies with a
 * pharmacy column and narrows to one pharmacy; an order of the pharmacy outside the group is not
 * found, and neither is the other group pharmacy's order for the pharmacist of one pharmacy; the
 * stock page offers the group's pharmacies to pick from.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { otcItem, placeOrder, readDemoFile, signInAs, type DemoFile } from "./demo";

/** Screenshots for review; the docs' copies in docs/screenshots are refreshed only with SCREENSHOTS_TO_DOCS=1 (`npm run screenshots`, e2e/screenshots.ts). */
const shotPath = (name: string) => `${SCREENSHOTS_TO_DOCS ? "docs/screenshots" : "test-results/screenshots"}/${name}.png`;

/** The parts of demo.json this spec uses besides DemoFile's (docs/api/README.md, "The sandbox: .data/demo.json"). */
type Sandbox = DemoFile & { keys: { pharmacy_group: string } };

const demo = () => readDemoFile() as Sandbox;
const tag = () => Math.random().toString(36).slice(2, 8);
const EPA = "/v1/external_pharmacy_api";

/** An OTC order for customer `lastName`, its one fulfillment routed to `pharmacyUid`. */
async function createOrderAt(request: APIRequestContext, lastName: string, pharmacyUid: string) {
  const d = demo();
  const externalId = `e2e-group-${lastName.toLowerCase()}`;
  const { uid: orderUid } = await placeOrder(request, d, { externalId, lastName, pharmacyUid, items: [otcItem(d)] });
  return { externalId, orderUid };
}

/** The pharmacy order of a shop order in a group pharmacy, over REST with the group key. */
async function groupPharmacyOrder(request: APIRequestContext, externalId: string, pharmacyUid: string) {
  const query = new URLSearchParams({ search: externalId, pharmacy_uid: pharmacyUid });
  const response = await request.get(`${EPA}/pharmacy_orders/?${query}`, { headers: { "X-API-Key": demo().keys.pharmacy_group } });
  expect(response.ok(), await response.text()).toBe(true);
  const [entry] = (await response.json()).data as { uid: string; name: string }[];
  expect(entry).toBeDefined();
  return entry!;
}

test("a group pharmacist sees both group pharmacies' orders, narrows to one, and gets not found outside the group", async ({ page }) => {
  const d = demo();
  const [first, second, outside] = [d.pharmacies[0]!, d.pharmacies[1]!, d.pharmacies.find((p) => p.group_uid === null)!];
  expect([first.group_uid, second.group_uid]).toEqual([d.pharmacy_group_uid, d.pharmacy_group_uid]);
  const prefix = `Group${tag()}`;
  await signInAs(page, d.users.group_pharmacist, "/pharmacy/orders");

  const atFirst = await createOrderAt(page.request, `${prefix}a`, first.uid);
  const atSecond = await createOrderAt(page.request, `${prefix}b`, second.uid);
  const atOutside = await createOrderAt(page.request, `${prefix}c`, outside.uid);
  const poFirst = await groupPharmacyOrder(page.request, atFirst.externalId, first.uid);
  const poSecond = await groupPharmacyOrder(page.request, atSecond.externalId, second.uid);

  // Both group pharmacies' orders, each with its pharmacy; the one outside the group is not listed.
  await page.getByLabel("Search").fill(prefix);
  await expect(page.getByRole("link", { name: /^PO-/ })).toHaveCount(2);
  await expect(page.getByRole("columnheader", { name: "Pharmacy" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: poFirst.name })).toContainText(first.display_name);
  await expect(page.getByRole("row").filter({ hasText: poSecond.name })).toContainText(second.display_name);
  await expect(page.getByText(`${prefix}c`)).toHaveCount(0);
  await screenshot(page, shotPath("pharmacy-orders-queue-group"));

  // Picking one pharmacy narrows the queue to its orders.
  const picker = page.getByLabel("Pharmacy", { exact: true });
  await expect(picker.locator("option")).toHaveText(["All pharmacies", ...[first, second].map((p) => p.display_name).sort()]);
  await picker.selectOption(second.uid);
  await expect(page.getByRole("link", { name: /^PO-/ })).toHaveCount(1);
  await expect(page.getByRole("link", { name: poSecond.name })).toBeVisible();
  await picker.selectOption(first.uid);
  await expect(page.getByRole("link", { name: /^PO-/ })).toHaveCount(1);
  await expect(page.getByRole("link", { name: poFirst.name })).toBeVisible();

  // Orders of both group pharmacies open.
  await page.getByRole("link", { name: poFirst.name }).click();
  await expect(page.getByRole("heading", { name: poFirst.name })).toBeVisible();
  await page.goto(`/pharmacy/orders/${poSecond.uid}`);
  await expect(page.getByRole("heading", { name: poSecond.name })).toBeVisible();

  // The pharmacy outside the group: its order is routed there (the Management API says so), never
  // listed, and naming that pharmacy answers NOT_FOUND, as the REST API's 404. No key or user of the
  // sandbox works for that pharmacy, so its pharmacy order's uid cannot be learned here; the detail
  // page's not found is shown with an unknown uid (the same answer as another pharmacy's order).
  const shopOrder = await page.request.get(`/v1/management/orders/${atOutside.orderUid}`, { headers: { "X-API-Key": d.keys.management } });
  expect(shopOrder.ok(), await shopOrder.text()).toBe(true);
  expect(((await shopOrder.json()) as { status: string }).status).toBe("waiting for pharmacy");
  await page.goto("/pharmacy/orders");
  await page.getByLabel("Search").fill(`${prefix}c`);
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  const input = encodeURIComponent(JSON.stringify({ pharmacyUid: outside.uid }));
  const listed = await page.request.get(`/api/trpc/pharmacy.orders.list?input=${input}`);
  expect(listed.status()).toBe(404);
  expect((await listed.json()).error.data.code).toBe("NOT_FOUND");
  await page.goto(`/pharmacy/orders/${crypto.randomUUID()}`);
  await expect(page.getByText(/Order not found/)).toBeVisible();
  await screenshot(page, shotPath("pharmacy-order-not-found-group"));
});

test("the pharmacist of one pharmacy does not find the other group pharmacy's order", async ({ page }) => {
  const d = demo();
  const lastName = `Sibling${tag()}`;
  await signInAs(page, d.users.pharmacist, "/pharmacy/orders");
  const { externalId } = await createOrderAt(page.request, lastName, d.pharmacies[1]!.uid);
  const po = await groupPharmacyOrder(page.request, externalId, d.pharmacies[1]!.uid);
  await expect(page.getByLabel("Pharmacy", { exact: true })).toHaveCount(0);
  await page.goto(`/pharmacy/orders/${po.uid}`);
  await expect(page.getByText(/Order not found/)).toBeVisible();
  await expect(page.getByText(lastName)).toHaveCount(0);
});

test("the stock page lets a group pharmacist pick a group pharmacy", async ({ page }) => {
  const d = demo();
  const [first, second] = [d.pharmacies[0]!, d.pharmacies[1]!];
  const skuList = await page.request.get(`${EPA}/pharmacy_skus/`, { headers: { "X-API-Key": d.keys.pharmacy_group }, params: { pharmacy_uid: second.uid, limit: 100 } });
  expect(skuList.ok()).toBe(true);
  const sku = ((await skuList.json()) as { data: { stock: number; sku: { display_name: string } }[] }).data[0]!;

  await signInAs(page, d.users.group_pharmacist, "/pharmacy/orders");
  await page.goto("/pharmacy/stock");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stock and prices");
  const picker = page.getByLabel("Pharmacy", { exact: true });
  await expect(picker.locator("option")).toHaveText([first, second].map((p) => p.display_name).sort());
  await picker.selectOption(second.uid);
  await expect(page.getByLabel(`Stock of ${sku.sku.display_name}`, { exact: true })).toHaveValue(String(sku.stock));
});
