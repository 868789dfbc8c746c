/**
 * The pharmacy portal's API access: API keys (created, used, revoked), webhooks (registered, a test
 * sent to a receiver of this test), the delivery logs (a delivered and a dropped delivery with their
 * attempts, the dropped one re-sent) and the home page's counts. Webhooks go to 127.0.0.1, which the
 * Playwright web server refuses (SSRF guard), so this spec runs its own production server (the build from
 * the Playwright web server) with private targets allowed and short retry pauses, on its own data.
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 50;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-api-access-${port}`);
const shots = path.join(root, "test-results", "api-access-shots");
const docShots = path.join(root, "docs", "screenshots");

type Demo = {
  keys: { management: string; pharmacy: string };
  shop: { identifier: string };
  pharmacies: { uid: string; display_name: string }[];
  users: { pharmacist: { email: string; password: string } };
  catalogue: { otc: { sku_reference: string }[] };
};

let server: OwnServer | null = null;
let receiver: Server;
let receiverUrl: string;
let demo: Demo;
/** What the receiver got, by path; /fail answers 500 until `failing` is switched off. */
const received: { path: string; test: boolean; at: number }[] = [];
let failing = true;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: base, viewport: { width: 1280, height: 900 } });

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const isTest = req.headers["x-webhook-test"] === "true";
      received.push({ path: req.url ?? "", test: isTest, at: Date.now() });
      // A test answers 202, so the page shows what this receiver said.
      res.writeHead(isTest ? 202 : req.url === "/fail" && failing ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const env = await ownServerEnv({
    port,
    dataDir,
    databaseSuffix: "api_access",
    // Five attempts within a few seconds, so a delivery is dropped while the test waits.
    extra: { WEBHOOK_RETRY_BASE_MS: "300", WEBHOOK_RETRY_MAX_MS: "800" },
  });
  server = await startOwnServer(env);
  demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as Demo;
});

test.afterAll(async () => {
  signalOwnServer(server, "SIGTERM");
  receiver?.closeAllConnections();
  receiver?.close();
});

/** Every page's states are photographed for review (`npm run screenshots`); the docs' copies are refreshed only with SCREENSHOTS_TO_DOCS=1. */
async function shot(page: Page, name: string, forDocs = false) {
  const dir = forDocs && SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

/** A page whose tRPC calls all fail: the error states (a double on purpose: the real server does not fail on demand). */
async function withBrokenApi(page: Page, url: string, name: string) {
  await page.route("**/api/trpc/**", (route) => route.abort());
  await page.goto(url);
  await expect(page.getByRole("button", { name: "Try again" }).first()).toBeVisible();
  await shot(page, name);
  await page.unroute("**/api/trpc/**");
}

const pharmacyHeaders = () => ({ "x-api-key": demo.keys.pharmacy, "content-type": "application/json" });

/** An order routed to the demo pharmacy; its pharmacy order uid. */
async function placeOrder(request: APIRequestContext, externalId: string): Promise<string> {
  const created = await request.post("/v1/management/orders", {
    headers: { "x-api-key": demo.keys.management, "content-type": "application/json" },
    data: {
      shop_identifier: demo.shop.identifier,
      external_id: externalId,
      customer: { id: `cust-${externalId}`, email: "erika@example.com" },
      delivery_address: { first_name: "Erika", last_name: "Mustermann", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: `${externalId}-f1`,
          destination_pharmacy_uid: demo.pharmacies[0]!.uid,
          items: [{ external_id: `${externalId}-i1`, sku_reference: demo.catalogue.otc[0]!.sku_reference, quantity: 1, total_paid: { amount: 399, currency: "EUR" } }],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const { uid: orderUid } = (await created.json()) as { uid: string };
  const list = await request.get("/v1/external_pharmacy_api/pharmacy_orders/?limit=100", { headers: pharmacyHeaders() });
  expect(list.status()).toBe(200);
  const { data } = (await list.json()) as { data: { uid: string; order: { uid: string } }[] };
  // The pharmacy order of the order just placed, wherever the list puts it.
  const placed = data.filter((po) => po.order.uid === orderUid);
  expect(placed).toHaveLength(1);
  return placed[0]!.uid;
}

test("API keys: created with orders_read and shown once, used, revoked (401 at once)", async ({ page }) => {
  await signInAs(page, demo.users.pharmacist, "/pharmacy/settings/api-keys", { fresh: true });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");

  // The form refuses a key without a name or permissions before sending it.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("This field may not be blank.")).toBeVisible();
  await expect(page.getByText("Choose at least one permission.")).toBeVisible();

  await page.getByLabel("Display name").fill("E2E connector");
  await page.getByLabel("orders_read", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = page.getByLabel("New API key");
  await expect(secret).toHaveValue(/^rxe_/);
  await expect(secret).toHaveAttribute("readonly", "");
  const key = await secret.inputValue();
  const row = page.getByRole("row").filter({ hasText: "E2E connector" });
  await expect(row).toContainText("orders_read");
  await expect(row).toContainText("Demo Pharmacist");
  await shot(page, "pharmacy-api-keys", true);

  const orders = () => page.request.get("/v1/external_pharmacy_api/pharmacy_orders/", { headers: { "x-api-key": key } });
  expect((await orders()).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: "E2E connector" })).not.toContainText("Never");
  // Shown once: not on the page any more.
  await expect(page.getByLabel("New API key")).toHaveCount(0);

  await page.getByRole("button", { name: "Revoke E2E connector" }).click();
  await page.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(page.getByText("Revoked “E2E connector”: it no longer works.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "E2E connector" })).toHaveCount(0);
  expect((await orders()).status()).toBe(401);

  await withBrokenApi(page, "/pharmacy/settings/api-keys", "pharmacy-api-keys-error");
});

test("webhooks: registered with the secret shown once, a test answered by the receiver", async ({ page }) => {
  await signInAs(page, demo.users.pharmacist, "/pharmacy/api-access/webhooks", { fresh: true });
  await expect(page.getByText("No webhooks registered")).toBeVisible();
  await shot(page, "pharmacy-webhooks-empty");

  await page.getByLabel("Target URL").fill("ftp://nowhere");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByLabel("Target URL")).toHaveAttribute("aria-invalid", "true");
  await shot(page, "pharmacy-webhooks-invalid");

  for (const target of [`${receiverUrl}/ok`, `${receiverUrl}/fail`]) {
    await page.getByLabel("Event type").selectOption("pharmacy_order_updated");
    await page.getByLabel("Target URL").fill(target);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByLabel("Webhook secret")).toHaveValue(/^whsec_/);
    await expect(page.getByRole("listitem", { name: `pharmacy_order_updated to ${target}` })).toBeVisible();
  }
  await expect(page.getByLabel("Webhook secret")).toHaveAttribute("readonly", "");

  const ok = page.getByRole("listitem", { name: `pharmacy_order_updated to ${receiverUrl}/ok` });
  await ok.getByRole("button", { name: "Send test" }).click();
  await expect(ok.getByRole("status")).toContainText("Your receiver answered HTTP 202");
  expect(received.filter((r) => r.test && r.path === "/ok")).toHaveLength(1);
  await shot(page, "pharmacy-webhooks", true);

  await withBrokenApi(page, "/pharmacy/api-access/webhooks", "pharmacy-webhooks-error");
});

test("delivery logs: a delivered and a dropped delivery with their attempts; the dropped one re-sent; the home page counts", async ({ page }) => {
  await signInAs(page, demo.users.pharmacist, "/pharmacy", { fresh: true });
  await expect(page.getByText("Nothing is waiting for you right now.")).toBeVisible();
  await shot(page, "pharmacy-home-empty");
  await page.goto("/pharmacy/api-access/delivery-logs");
  await expect(page.getByText("No webhook deliveries yet")).toBeVisible();
  await shot(page, "pharmacy-delivery-logs-empty");

  await placeOrder(page.request, `e2e-waiting-${Date.now()}`);
  const held = await placeOrder(page.request, `e2e-held-${Date.now()}`);
  const changed = await page.request.patch(`/v1/external_pharmacy_api/pharmacy_orders/${held}/status`, {
    headers: pharmacyHeaders(),
    data: { status: "on-hold", comment: "Waiting for the patient to call back." },
  });
  expect(changed.status()).toBe(200);

  // Delivered at once to /ok; /fail answers 500 five times, then the delivery is dropped.
  await expect.poll(() => received.filter((r) => !r.test && r.path === "/ok").length).toBe(1);
  await expect.poll(() => received.filter((r) => r.path === "/fail").length).toBe(5);

  await page.reload();
  const delivered = page.getByRole("row").filter({ hasText: `${receiverUrl}/ok` });
  await expect(delivered).toContainText("pharmacy_order_updated");
  await expect(delivered).toContainText(held);
  await expect(delivered).toContainText("Delivered");
  await expect(delivered.getByRole("button", { name: "Re-send" })).toHaveCount(0);
  const dropped = page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` });
  await expect(dropped).toContainText("pharmacy_order_updated");
  await expect(dropped).toContainText("Failed");
  await expect(dropped).toContainText("5 of 5");

  await dropped.getByRole("button", { name: "Show attempts" }).click();
  const attempts = page.getByRole("table", { name: "Attempts" });
  await expect(attempts.getByRole("row")).toHaveCount(6);
  await expect(attempts).toContainText("#5");
  await expect(attempts.getByText("HTTP 500", { exact: true })).toHaveCount(5);
  await shot(page, "pharmacy-delivery-logs", true);

  // Filters: one webhook; failed only; then an event type without deliveries.
  await page.getByLabel("Webhook").selectOption({ label: `${receiverUrl}/ok (pharmacy_order_updated)` });
  await expect(page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: `${receiverUrl}/ok` })).toHaveCount(1);
  await page.getByLabel("Webhook").selectOption("");
  await page.getByLabel("State").selectOption("failed");
  await expect(page.getByRole("row").filter({ hasText: `${receiverUrl}/ok` })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` }).first()).toBeVisible();
  await page.getByLabel("Event type").selectOption("pharmacy_sku_stock_updated");
  await expect(page.getByText("No deliveries match these filters")).toBeVisible();

  // The home page: one order waiting, one on hold, one failed delivery, with links.
  await page.goto("/pharmacy");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.pharmacies[0]!.display_name);
  const card = (label: string) => page.getByRole("listitem").filter({ hasText: label });
  await expect(card("Orders waiting for you").getByText("1", { exact: true })).toBeVisible();
  await expect(card("Orders on hold").getByText("1", { exact: true })).toBeVisible();
  await expect(card("Failed webhook deliveries").getByText("1", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the order queue" })).toHaveAttribute("href", "/pharmacy/orders?status=waiting+for+pharmacy");
  await expect(page.getByRole("link", { name: "Show orders on hold" })).toHaveAttribute("href", "/pharmacy/orders?status=on-hold");
  await shot(page, "pharmacy-home", true);
  await page.getByRole("link", { name: "Open the delivery logs" }).click();
  await expect(page).toHaveURL(/\/pharmacy\/api-access\/delivery-logs\?state=failed&from=\d+$/);
  await expect(page.getByLabel("State")).toHaveValue("failed");

  // A target that failed five times seconds after it was registered: the page says what was
  // measured, and does not call it "keeps failing" (that takes failures over an hour: target-health.ts).
  await page.goto("/pharmacy/api-access/webhooks");
  const failingItem = page.getByRole("listitem", { name: `pharmacy_order_updated to ${receiverUrl}/fail` });
  await expect(failingItem).toContainText(/Recent failures: 5 failed attempts since it was registered at .+, none succeeded; last failure at /);
  await expect(page.getByText(/keeps failing/i)).toHaveCount(0);
  await expect(page.getByRole("listitem", { name: `pharmacy_order_updated to ${receiverUrl}/ok` })).toContainText("Healthy");
  await shot(page, "pharmacy-webhooks-failing");
  await page.goto("/pharmacy/api-access/delivery-logs?state=failed");
  await expect(page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` }).first()).toBeVisible();
  await expect(page.getByText(/keeps failing/i)).toHaveCount(0);

  // The receiver is fixed: re-send.
  failing = false;
  const again = page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` });
  await again.getByRole("button", { name: "Re-send" }).click();
  await expect.poll(() => received.filter((r) => r.path === "/fail").length).toBe(6);
  await expect(page.getByText(/Re-sent the pharmacy_order_updated delivery to .*\/fail: it is being attempted again\./)).toBeVisible();
  // Shown under all states now, so it stays in sight while it is attempted; who re-sent it is recorded.
  await expect(page.getByLabel("State")).toHaveValue("");
  await expect(page.getByText(/Re-sent \d.* by Demo Pharmacist/)).toBeVisible();
  const resent = page.getByRole("row").filter({ hasText: `${receiverUrl}/fail` }).first();
  await expect(resent).toContainText("Delivered");
  await expect(resent).toContainText("6 of 10");

  await withBrokenApi(page, "/pharmacy/api-access/delivery-logs", "pharmacy-delivery-logs-error");
  // The home page's summary comes with its HTML (components/trpc/server.tsx): the browser's broken
  // API does not take it away.
  await page.route("**/api/trpc/**", (route) => route.abort());
  await page.goto("/pharmacy");
  await expect(page.getByRole("heading", { name: "Needs attention" })).toBeVisible();
  await expect(page.getByText("Loading what needs attention…")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await page.unroute("**/api/trpc/**");
});
