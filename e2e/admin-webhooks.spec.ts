/**
 * The admin tool's webhooks and audit log as an admin uses them: an organisation subscription
 * registered with its secret shown once, a signed test answered by a receiver of this test, a real
 * delivery (a stock change) in the delivery logs with its attempt; then the audit log filtered to
 * API keys shows a key created on /admin/api-keys. Webhooks go to 127.0.0.1, which the shared e2e
 * server refuses (SSRF guard), so this spec runs its own production server (the build of the
 * Playwright web server) with private targets allowed, on its own data (as pharmacy-api-access.spec.ts).
 */
import { createHmac } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 60;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-admin-webhooks-${port}`);
const shots = path.join(root, "test-results", "admin");
const docShots = path.join(root, "docs", "screenshots");

type Demo = {
  keys: { management: string; pharmacy: string };
  shop: { identifier: string };
  pharmacies: { uid: string }[];
  users: { admin: { email: string; password: string } };
  catalogue: { otc: { sku_reference: string; pharmacy_sku_uid: string }[] };
};

let server: OwnServer | null = null;
let receiver: Server;
let receiverUrl: string;
let demo: Demo;
const received: { path: string; test: boolean; signature: string | undefined; raw: Buffer }[] = [];

test.describe.configure({ mode: "serial" });
test.use({ baseURL: base, viewport: { width: 1280, height: 900 } });

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        test: req.headers["x-webhook-test"] === "true",
        signature: req.headers["x-webhook-signature"] as string | undefined,
        raw: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startOwnServer(await ownServerEnv({ port, dataDir, databaseSuffix: "admin_webhooks" }));
  demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as Demo;
});

test.afterAll(async () => {
  signalOwnServer(server, "SIGTERM");
  receiver?.closeAllConnections();
  receiver?.close();
});

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

test("an admin registers an organisation webhook, sends a signed test and sees a delivery in the logs", async ({ page }) => {
  await signInAs(page, demo.users.admin, "/admin/webhooks", { fresh: true });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
  await expect(page.getByText("No webhooks registered")).toBeVisible();

  const target = `${receiverUrl}/stock`;
  await page.getByLabel("Event type").selectOption("pharmacy_sku_stock_updated");
  await page.getByLabel("Target URL").fill(target);
  await page.getByRole("button", { name: "Register webhook" }).click();
  const secretBox = page.getByLabel("Webhook secret");
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expect(secretBox).toHaveAttribute("readonly", "");
  const item = page.getByRole("listitem", { name: `pharmacy_sku_stock_updated to ${target}` });
  await expect(item).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0); // only in the read-only input

  await item.getByRole("button", { name: "Send test" }).click();
  await expect(item.getByRole("status")).toContainText("Signed test sent");
  await expect(item.getByRole("status")).toContainText("HTTP 200");
  const testRequest = received.find((r) => r.test && r.path === "/stock")!;
  expect(testRequest.signature).toBe(createHmac("sha256", Buffer.from(secret, "utf8")).update(testRequest.raw).digest("hex"));
  await shot(page, "admin-webhooks");

  // A real event: a stock change through the External Pharmacy API goes to the organisation's subscription too.
  const skuUid = demo.catalogue.otc[0]!.pharmacy_sku_uid;
  const changed = await page.request.patch(`/v1/external_pharmacy_api/pharmacy_skus/${skuUid}/stock`, {
    headers: { "x-api-key": demo.keys.pharmacy, "content-type": "application/json" },
    data: { stock: 77 },
  });
  expect(changed.status()).toBe(200);
  await expect.poll(() => received.filter((r) => !r.test && r.path === "/stock").length).toBe(1);
  const delivery = received.find((r) => !r.test && r.path === "/stock")!;
  expect(delivery.signature).toBe(createHmac("sha256", Buffer.from(secret, "utf8")).update(delivery.raw).digest("hex"));

  await page.getByRole("link", { name: "Webhook delivery logs →" }).click();
  await expect(page).toHaveURL(/\/admin\/webhooks\/logs$/);
  const row = page.getByRole("row").filter({ hasText: target });
  await expect(row).toContainText("pharmacy_sku_stock_updated");
  await expect(row).toContainText("Delivered");
  await row.getByRole("button", { name: "Show attempts" }).click();
  await expect(page.getByRole("table", { name: "Attempts" })).toContainText("HTTP 200");
  await shot(page, "admin-webhook-logs");
});

test("the audit log, filtered to API keys, shows a key created in the admin tool", async ({ page }) => {
  // An order over the Management API: its creation and its pharmacy order's first status are in the log, by the API key.
  const externalId = `audit-${Date.now()}`;
  const created = await page.request.post("/v1/management/orders", {
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
  const orderUid = ((await created.json()) as { uid: string }).uid;

  await signInAs(page, demo.users.admin, "/admin/api-keys", { fresh: true });
  const name = `Audit ERP ${Date.now()}`;
  await page.getByLabel("Display name").fill(name);
  await page.getByLabel("order:read", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByLabel("New API key")).toHaveValue(/^rxm_/);

  await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  // The webhook registered above is in the log too.
  await expect(page.getByRole("row").filter({ hasText: "Webhook pharmacy_sku_stock_updated" })).toBeVisible();
  await page.getByLabel("Kind").selectOption({ label: "API keys" });
  const keyRow = page.getByRole("row").filter({ hasText: `Management API key "${name}" created` });
  await expect(keyRow).toBeVisible();
  await expect(keyRow).toContainText("Demo Admin");
  await expect(page.getByRole("row").filter({ hasText: "Webhook pharmacy_sku_stock_updated" })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: `Order ${externalId} created` })).toHaveCount(0);
  await expect(keyRow.getByRole("link")).toHaveAttribute("href", "/admin/api-keys");

  await page.getByLabel("Kind").selectOption("");
  const orderRow = page.getByRole("row").filter({ hasText: `Order ${externalId} created` });
  await expect(orderRow).toContainText("API key");
  await expect(orderRow.getByRole("link")).toHaveAttribute("href", `/admin/orders/${orderUid}`);
  await expect(page.getByRole("row").filter({ hasText: "Pharmacy order PO-" }).first()).toBeVisible();
  await shot(page, "admin-audit-log");
});
