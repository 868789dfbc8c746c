/**
 * Pharmacy portal, Orders: the demo pharmacist finds an order created through the Management API,
 * puts it on hold with a comment, completes it with a tracking link (stock drops, read back over
 * REST), sees a signed prescription in the page (react-pdf canvas), loses a race with a clear
 * message, and gets "not found" for another pharmacy's order.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { placeOrder, readDemoFile, signInAs, type DemoFile } from "./demo";

/** Screenshots for review; the docs' copies in docs/screenshots are refreshed only with SCREENSHOTS_TO_DOCS=1 (`npm run screenshots`, e2e/screenshots.ts). */
const shotPath = (name: string) => `${SCREENSHOTS_TO_DOCS ? "docs/screenshots" : "test-results/screenshots"}/${name}.png`;

/** The parts of demo.json this spec uses besides DemoFile's (docs/api/README.md, "The sandbox: .data/demo.json"). */
type Sandbox = DemoFile & {
  shop: { identifier: string };
  keys: { management: string; pharmacy: string; pharmacy_group: string };
  catalogue: { otc: { sku_reference: string; pharmacy_sku_uid: string }[]; rx: { sku_reference: string }[] };
  qes: { signer_p12_path: string; signer_p12_password: string };
};

const demo = () => readDemoFile() as Sandbox;
const tag = () => Math.random().toString(36).slice(2, 8);
const EPA = "/v1/external_pharmacy_api";

/** An order for customer `lastName`: one fulfillment at `pharmacyUid` with `items`; extra fields on the fulfillment. Answers its external id. */
async function createOrder(
  request: APIRequestContext,
  options: { lastName: string; pharmacyUid: string; items: Record<string, unknown>[]; fulfillment?: Record<string, unknown> },
) {
  const externalId = `e2e-${options.lastName.toLowerCase()}`;
  await placeOrder(request, demo(), { externalId, ...options });
  return externalId;
}

/** The pharmacy order of a shop order (its name defaults to the external id), over REST with `key`. */
async function pharmacyOrderOf(request: APIRequestContext, key: string, externalId: string, pharmacyUid?: string) {
  const query = new URLSearchParams({ search: externalId, ...(pharmacyUid ? { pharmacy_uid: pharmacyUid } : {}) });
  const response = await request.get(`${EPA}/pharmacy_orders/?${query}`, { headers: { "X-API-Key": key } });
  expect(response.ok()).toBe(true);
  const [entry] = (await response.json()).data as { uid: string; name: string }[];
  expect(entry).toBeDefined();
  return entry;
}

/** The stock of a pharmacy SKU of pharmacies[0], as GET pharmacy_skus shows it (the demo catalogue fits one page). */
async function stockOf(request: APIRequestContext, pharmacySkuUid: string): Promise<number> {
  const response = await request.get(`${EPA}/pharmacy_skus/?limit=200`, { headers: { "X-API-Key": demo().keys.pharmacy } });
  expect(response.ok()).toBe(true);
  const sku = ((await response.json()).data as { uid: string; stock: number }[]).find((s) => s.uid === pharmacySkuUid);
  expect(sku).toBeDefined();
  return sku!.stock;
}

test("a pharmacist finds an order, puts it on hold with a comment and completes it with a tracking link; stock drops", async ({ page }) => {
  const d = demo();
  const otc = d.catalogue.otc[0]!;
  const lastName = `Queue${tag()}`;
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  const externalId = await createOrder(page.request, {
    lastName,
    pharmacyUid: d.pharmacies[0]!.uid,
    items: [{ external_id: "i-1", sku_reference: otc.sku_reference, quantity: 3, total_paid: { amount: 1197, currency: "EUR" } }],
  });
  const stockBefore = await stockOf(page.request, otc.pharmacy_sku_uid);

  // New orders appear in the queue (refetched), and search finds it by the customer's name.
  await page.getByLabel("Search").fill(lastName);
  const po = await pharmacyOrderOf(page.request, d.keys.pharmacy, externalId);
  const link = page.getByRole("link", { name: po.name });
  await expect(link).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2); // header and the one order
  await link.click();

  await expect(page).toHaveURL(new RegExp(`/pharmacy/orders/${po.uid}$`));
  await expect(page.getByRole("heading", { name: po.name })).toBeVisible();
  await expect(page.getByText(lastName).first()).toBeVisible();
  const status = page.getByLabel("Status", { exact: true });
  // The options show the labels and keep the spec's values.
  await expect(status.locator("option")).toHaveText(["Waiting for pharmacy", "Pending review", "On hold", "In progress", "Ready for pickup", "Cancelled"]);
  expect(await status.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
    "waiting for pharmacy",
    "pending review",
    "on-hold",
    "in-progress",
    "ready_for_pickup",
    "cancelled",
  ]);

  // On hold needs a comment: refused without one, then accepted.
  await status.selectOption("on-hold");
  await page.getByRole("button", { name: "Update status" }).click();
  await expect(page.getByText("A comment is required when setting an order on hold")).toBeVisible();
  await page.getByLabel("Comment").fill("Dosage unclear, asking the doctor");
  await page.getByRole("button", { name: "Update status" }).click();
  await expect(page.getByText("Status changed to On hold.")).toBeVisible();
  await expect(page.getByText("Waiting for pharmacy → On hold")).toBeVisible();
  await expect(page.getByText("Dosage unclear, asking the doctor")).toBeVisible();

  await page.getByRole("button", { name: "Complete order" }).click();
  await page.getByLabel("Tracking link").fill("https://tracking.example/e2e-1");
  await page.getByLabel("Carrier").fill("DHL");
  await page.getByRole("button", { name: "Complete" }).click();
  await expect(page.getByText("Order completed: stock reduced, payouts routed.")).toBeVisible();
  await expect(page.getByText("On hold → Completed")).toBeVisible();
  await expect(page.getByRole("link", { name: "Track parcel" })).toHaveAttribute("href", "https://tracking.example/e2e-1");
  expect(await stockOf(page.request, otc.pharmacy_sku_uid)).toBe(stockBefore - 3);
  const rest = await page.request.get(`${EPA}/pharmacy_orders/${po.uid}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  expect((await rest.json()).status).toBe("completed");
});

test("a completed order can get a clarification request: it goes on hold, its stock stays taken", async ({ page }) => {
  const d = demo();
  const otc = d.catalogue.otc[0]!;
  const externalId = await createOrder(page.request, {
    lastName: `Asked${tag()}`,
    pharmacyUid: d.pharmacies[0]!.uid,
    items: [{ external_id: "i-1", sku_reference: otc.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" } }],
  });
  const po = await pharmacyOrderOf(page.request, d.keys.pharmacy, externalId);
  const completed = await page.request.patch(`${EPA}/pharmacy_orders/${po.uid}/complete_order`, { headers: { "X-API-Key": d.keys.pharmacy } });
  expect(completed.status()).toBe(200);
  const stockAfterCompletion = await stockOf(page.request, otc.pharmacy_sku_uid);

  await signInAs(page, d.users.pharmacist, `/pharmacy/orders/${po.uid}`);
  await page.getByLabel("Question for the admin team").fill("The patient says the parcel never arrived.");
  await page.getByRole("button", { name: "Request clarification" }).click();
  await expect(page.getByText("Clarification requested: the order is on hold and the admin team has the question.")).toBeVisible();
  await expect(page.getByText("Completed → On hold")).toBeVisible();
  // The thread it opened shows at once (no reload).
  await expect(page.getByText(/Open thread · opened/i)).toBeVisible();
  await screenshot(page, shotPath("pharmacy-order-completed-clarification"));
  expect(await stockOf(page.request, otc.pharmacy_sku_uid)).toBe(stockAfterCompletion);
});

test("a change that lost a race shows the current state and says so", async ({ page }) => {
  const d = demo();
  const lastName = `Race${tag()}`;
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  const externalId = await createOrder(page.request, {
    lastName,
    pharmacyUid: d.pharmacies[0]!.uid,
    items: [{ external_id: "i-1", sku_reference: d.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" } }],
  });
  const po = await pharmacyOrderOf(page.request, d.keys.pharmacy, externalId);
  await page.goto(`/pharmacy/orders/${po.uid}`);
  await page.getByLabel("Status", { exact: true }).selectOption("in-progress");
  // Meanwhile the pharmacy's own system moves it.
  const moved = await page.request.patch(`${EPA}/pharmacy_orders/${po.uid}/status`, {
    headers: { "X-API-Key": d.keys.pharmacy },
    data: { status: "pending review" },
  });
  expect(moved.ok()).toBe(true);
  await page.getByRole("button", { name: "Update status" }).click();
  await expect(page.getByText(/The order was changed meanwhile \(status is now pending review\)/)).toBeVisible();
  await expect(page.getByText("Waiting for pharmacy → Pending review")).toBeVisible();
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("pending review");
  await screenshot(page, shotPath("pharmacy-order-conflict"));
});

test("an order with a signed prescription shows the PDF in the page", async ({ page }) => {
  const d = demo();
  const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-rx-"));
  const pdfPath = path.join(dir, "signed.pdf");
  execFileSync("npx", ["tsx", "scripts/sign-pdf.ts", "--sample", pdfPath, "--p12", d.qes.signer_p12_path, `--password=${d.qes.signer_p12_password}`], {
    stdio: "pipe",
  });
  const lastName = `Rx${tag()}`;
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  const externalId = await createOrder(page.request, {
    lastName,
    pharmacyUid: d.pharmacies[0]!.uid,
    items: [
      { external_id: "i-1", sku_reference: d.catalogue.rx[0]!.sku_reference, quantity: 1, total_paid: { amount: 2890, currency: "EUR" }, prescription_reference: "rx-1" },
    ],
    fulfillment: { prescriptions: [{ id: "rx-1", pdf_base64: readFileSync(pdfPath).toString("base64") }] },
  });
  const po = await pharmacyOrderOf(page.request, d.keys.pharmacy, externalId);
  await page.goto(`/pharmacy/orders/${po.uid}`);
  await expect(page.getByRole("heading", { name: po.name })).toBeVisible();
  const canvas = page.getByTestId("prescription-pdf").locator("canvas");
  await expect(canvas).toBeVisible();
  await expect(page.getByText("Page 1 of 1")).toBeVisible();
  const before = (await canvas.boundingBox())!.width;
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(before);
  await expect(page.getByRole("link", { name: "Download PDF" })).toHaveAttribute("download", /^prescription-.+\.pdf$/);
  await page.getByRole("button", { name: "Zoom out" }).click();
  await screenshot(page, shotPath("pharmacy-order-detail-prescription"));

  // On a phone: the status and completion actions come before the PDF, and the PDF fits its frame.
  await page.setViewportSize({ width: 390, height: 844 });
  const frame = page.getByTestId("prescription-pdf");
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeLessThanOrEqual((await frame.boundingBox())!.width);
  const status = (await page.getByRole("button", { name: "Update status" }).boundingBox())!;
  const complete = (await page.getByRole("button", { name: "Complete order" }).boundingBox())!;
  const pdfTop = (await frame.boundingBox())!.y;
  expect(status.y).toBeLessThan(pdfTop);
  expect(complete.y).toBeLessThan(pdfTop);
  expect(status.y).toBeLessThan(844 * 1.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: shotPath("pharmacy-order-detail-prescription-390"), fullPage: true });

  // Opened on a phone, pdf.js is fetched only once the PDF's place comes near the screen.
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  const pdfRequests: string[] = [];
  phone.on("request", (r) => /pdf\.worker/.test(r.url()) && pdfRequests.push(r.url()));
  await phone.goto(`/pharmacy/orders/${po.uid}`);
  await expect(phone.getByRole("button", { name: "Complete order" })).toBeVisible();
  const waiting = phone.getByText("Loading the viewer…");
  await expect(waiting).toBeAttached();
  // Hydrated and the network quiet: a viewer loading on mount would have asked for the worker by now.
  await expect(phone.locator("html[data-hydrated]")).toHaveCount(1);
  await phone.waitForLoadState("networkidle");
  await expect(waiting).toBeAttached();
  expect(pdfRequests).toEqual([]);
  await waiting.scrollIntoViewIfNeeded();
  await expect(phone.getByTestId("prescription-pdf").locator("canvas")).toBeVisible();
  expect(pdfRequests.length).toBeGreaterThan(0);
  await phone.close();
});

test("another pharmacy's order is not found, and a search without matches says so", async ({ page }, testInfo) => {
  const d = demo();
  const lastName = `Foreign${tag()}`;
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  // pharmacies[1] is in the group; the demo pharmacist works for pharmacies[0] only.
  const externalId = await createOrder(page.request, {
    lastName,
    pharmacyUid: d.pharmacies[1]!.uid,
    items: [{ external_id: "i-1", sku_reference: d.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" } }],
  });
  const foreign = await pharmacyOrderOf(page.request, d.keys.pharmacy_group, externalId, d.pharmacies[1]!.uid);

  await page.getByLabel("Search").fill(lastName);
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  await screenshot(page, shotPath("pharmacy-orders-queue-empty"));

  await page.goto(`/pharmacy/orders/${foreign.uid}`);
  await expect(page.getByText(/Order not found/)).toBeVisible();
  await expect(page.getByText(lastName)).toHaveCount(0);
  await screenshot(page, testInfo.outputPath("not-found.png"));
});

test("selected orders change status together; the queue shows every order with its status and priority", async ({ page }) => {
  const d = demo();
  const prefix = `Bulk${tag()}`;
  await signInAs(page, demo().users.pharmacist, "/pharmacy/orders");
  for (const suffix of ["a", "b"]) {
    await createOrder(page.request, {
      lastName: `${prefix}${suffix}`,
      pharmacyUid: d.pharmacies[0]!.uid,
      items: [{ external_id: "i-1", sku_reference: d.catalogue.otc[1]!.sku_reference, quantity: 2, total_paid: { amount: 598, currency: "EUR" } }],
    });
  }
  await page.getByLabel("Search").fill(prefix);
  await expect(page.getByRole("link", { name: /^PO-/ })).toHaveCount(2);
  for (const name of await page.getByRole("link", { name: /^PO-/ }).allTextContents()) {
    await page.getByRole("checkbox", { name: `Select ${name}` }).check();
  }
  await page.getByLabel("New status for the selection").selectOption("in-progress");
  await page.getByRole("button", { name: "Change status of selected" }).click();
  // Many orders at once: one confirmation, naming the move.
  const confirmation = page.getByRole("alertdialog", { name: "Change the status of 2 orders to “In progress”?" });
  await confirmation.getByRole("button", { name: "Change status of 2 orders" }).click();
  await expect(page.getByText("2 changed.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: prefix }).getByText("In progress", { exact: true })).toHaveCount(2);
  await page.getByLabel("Search").fill("");
  await expect(page.getByRole("link", { name: /^PO-/ })).not.toHaveCount(2);
  await screenshot(page, shotPath("pharmacy-orders-queue"));
});
