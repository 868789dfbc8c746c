/**
 * The Shopify connector end to end (issue 25): an admin connects the demo shop to a Shopify
 * stand-in (tests/shopify-stand-in.ts, on 127.0.0.1) in the Shops page and tests the connection; the
 * stand-in sends a signed orders/paid webhook; the pharmacist completes the order in the pharmacy
 * portal with a tracking link; the fulfillment with that link arrives at the stand-in. Then the
 * draft orders: a Public API reservation becomes a Shopify draft, the checkout naming it updates
 * that draft and answers its invoice URL, and the order Shopify makes of the draft completes the
 * checkout once; its tracking link fails to reach Shopify once, which the Shops page lists. Runs on
 * a server of its own (e2e/own-server.ts): private targets must be allowed for the stand-in, which
 * the shared e2e server does not allow.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { paidOrderOfDraft, paidOrderPayload, sendOrderWebhook, startShopifyStandIn } from "../tests/shopify-stand-in";
import type { DemoFile } from "./demo";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 90;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-shopify-${port}`);
const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "shopify");

const TOKEN = "shpat_e2e_standin_7777";
const CLIENT_SECRET = "e2e-app-client-secret-8888";

test("an admin connects a shop to Shopify; a paid Shopify order arrives by webhook; its tracking link goes back as a fulfillment", async ({ browser }) => {
  test.setTimeout(240_000);
  rmSync(dataDir, { recursive: true, force: true });
  const standIn = await startShopifyStandIn({ accessToken: TOKEN, shopName: "E2E Stand-in Store" });
  let server: OwnServer | null = null;
  try {
    // A failed task waits ten minutes for its retry, so the Shops page shows it (the first pushes succeed at once).
    server = await startOwnServer(await ownServerEnv({ port, dataDir, databaseSuffix: "shopify", extra: { TASK_RETRY_BASE_MS: "600000" } }));
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as DemoFile;

    // The admin connects the demo shop and tests the connection.
    const admin = await browser.newContext({ baseURL: base });
    const page = await admin.newPage();
    await signInAs(page, demo.users.admin, "/admin/shops", { fresh: true });
    const shopify = page.locator(`section[aria-labelledby="shopify-${demo.shop.uid}"]`);
    await expect(shopify.getByText(/Not connected/)).toBeVisible();
    await screenshot(page, path.join(shots, "admin-shops-shopify-not-connected.png"));
    await shopify.getByLabel("Store address").fill(standIn.url);
    await shopify.getByLabel("Admin API access token").fill(TOKEN);
    await shopify.getByLabel("App client secret").fill(CLIENT_SECRET);
    await shopify.getByRole("button", { name: "Connect to Shopify" }).click();
    await expect(shopify.getByText("•••• 7777")).toBeVisible();
    await expect(shopify.getByText("•••• 8888")).toBeVisible();
    await expect(page.getByText(TOKEN)).toHaveCount(0);
    const webhookUrl = `${base}/api/shopify/webhooks/${demo.shop.uid}`;
    await expect(shopify.getByText(webhookUrl)).toBeVisible();
    await shopify.getByRole("button", { name: "Test connection" }).click();
    await expect(shopify.getByText('Connected to the Shopify store "E2E Stand-in Store".')).toBeVisible();
    expect(standIn.requests.at(-1)!.headers["x-shopify-access-token"]).toBe(TOKEN);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, path.join(shots, `admin-shops-shopify-${width}.png`));
    }

    // Shopify sends the paid order: a forged signature is refused, the signed one is taken once.
    const shopifyOrderId = 820_000_000 + Math.floor(Math.random() * 1_000_000);
    standIn.addOrder(String(shopifyOrderId));
    const otc = demo.catalogue.otc[0]!;
    const lastName = `Shopify${shopifyOrderId}`;
    // Variant 1 is mapped to nothing: the line's SKU (the demo shop SKU's reference) names the shop SKU.
    const payload = paidOrderPayload({ id: shopifyOrderId, name: `#S${shopifyOrderId}`, variantId: 1, sku: otc.sku_reference, quantity: 1, lastName });
    expect((await sendOrderWebhook(webhookUrl, payload, "forged-secret")).status).toBe(401);
    const delivered = await sendOrderWebhook(webhookUrl, payload, CLIENT_SECRET);
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ result: "created" });
    expect(await (await sendOrderWebhook(webhookUrl, payload, CLIENT_SECRET)).json()).toEqual({ result: "duplicate" });
    // A signed order the Management intake's rules refuse (a negative price): acknowledged, recorded for the admin (issue 36).
    const refusedId = shopifyOrderId + 500;
    const refused = paidOrderPayload({ id: refusedId, variantId: 1, sku: otc.sku_reference, price: "-12.99", lastName });
    const refusedAnswer = await sendOrderWebhook(webhookUrl, refused, CLIENT_SECRET);
    expect(refusedAnswer.status).toBe(200);
    expect(await refusedAnswer.json()).toEqual({ result: "rejected" });
    await admin.close();

    // The pharmacist completes it with a tracking link.
    const pharmacist = await browser.newContext({ baseURL: base });
    const portal = await pharmacist.newPage();
    await signInAs(portal, demo.users.pharmacist, "/pharmacy/orders", { fresh: true });
    await portal.getByLabel("Search").fill(lastName);
    const row = portal.getByRole("row").filter({ hasText: lastName }).first();
    await row.getByRole("link").first().click();
    await portal.getByRole("button", { name: "Complete order" }).click();
    const link = `https://www.dhl.de/de/privatkunden.html?piececode=${shopifyOrderId}`;
    await portal.getByLabel("Tracking link").fill(link);
    await portal.getByLabel("Carrier").fill("DHL");
    await portal.getByRole("button", { name: "Complete" }).click();
    await expect(portal.getByText("Order completed: stock reduced, payouts routed.")).toBeVisible();
    await pharmacist.close();

    // The background task sends the fulfillment with the tracking link to the stand-in.
    const order = standIn.orders.get(String(shopifyOrderId))!;
    await standIn.waitUntil(() => order.fulfillments.length > 0, 60_000);
    expect(order.fulfillments[0]).toMatchObject({ trackingInfo: [{ url: link, company: "DHL Express" }], notifyCustomer: true });
    const create = standIn.requests.find((r) => r.operation === "FulfillmentCreate")!;
    expect(create.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(create.variables.fulfillment.lineItemsByFulfillmentOrder).toEqual([{ fulfillmentOrderId: order.fulfillmentOrders[0].id }]);

    // Reservations and checkouts are Shopify draft orders once the shop SKU names its Shopify variant.
    const api = async (method: string, path: string, key: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, { method, headers: { "x-api-key": key, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, json: await response.json() };
    };
    const shopSkus = await api("GET", `/v1/management/shop-skus?shop_uid=${demo.shop.uid}&search=${encodeURIComponent(otc.sku_reference)}`, demo.keys.management);
    const variant = `gid://shopify/ProductVariant/${shopifyOrderId}`;
    expect((await api("PATCH", `/v1/management/shop-skus/${shopSkus.json.data[0].uid}`, demo.keys.management, { shop_variation_id: variant })).status).toBe(200);
    const reservation = await api("POST", `/v2/public-api/products/${demo.shop.identifier}/reservation`, demo.keys.public, { items: [{ sku_uid: otc.sku_uid, quantity: 1 }] });
    expect(reservation.status).toBe(201);
    const draftGid = `gid://shopify/DraftOrder/${reservation.json.draft_order_id}`;
    expect(standIn.drafts.get(draftGid)!.input).toMatchObject({ lineItems: [{ variantId: variant, quantity: 1 }], reserveInventoryUntil: expect.any(String) });
    const draftLastName = `Draft${shopifyOrderId}`;
    const checkout = await api("POST", `/v2/public-api/prescriptions/${demo.shop.identifier}`, demo.keys.public, {
      reserved_draft_order_id: reservation.json.draft_order_id,
      lines: [{ sku_uid: otc.sku_uid, quantity: 1 }],
      patient_data: { first_name: "Erika", last_name: draftLastName, date_of_birth: 315532800, gender: "female" },
      buyerIdentity: { email: "erika@example.com" },
      shipping_address: { first_name: "Erika", last_name: draftLastName, address1: "Hauptstraße 5", city: "Berlin", country_code: "DE", zip: "10115" },
    });
    expect(checkout.status).toBe(201);
    expect(checkout.json).toMatchObject({ draft_order_id: reservation.json.draft_order_id, checkout_url: standIn.drafts.get(draftGid)!.invoiceUrl });
    expect(standIn.requests.at(-1)!.operation).toBe("DraftOrderUpdate");

    // The patient pays the invoice: Shopify's order of the draft completes the checkout, once.
    const paidDraft = standIn.completeDraft(draftGid, shopifyOrderId + 1);
    expect(await (await sendOrderWebhook(webhookUrl, paidOrderOfDraft(paidDraft), CLIENT_SECRET)).json()).toEqual({ result: "created" });
    expect(await (await sendOrderWebhook(webhookUrl, paidOrderOfDraft(paidDraft), CLIENT_SECRET)).json()).toEqual({ result: "duplicate" });
    const queue = await api("GET", `/v1/external_pharmacy_api/pharmacy_orders?search=${draftLastName}`, demo.keys.pharmacy);
    expect(queue.json.data).toHaveLength(1);

    // Its tracking link meets a failing store: the Shops page lists the task while it waits for its retry.
    standIn.throttleNext({ kind: "500" });
    const completed = await api("PATCH", `/v1/external_pharmacy_api/pharmacy_orders/${queue.json.data[0].uid}/complete_order`, demo.keys.pharmacy, {
      tracking_links: [{ tracking_link: `https://www.dhl.de/de/privatkunden.html?piececode=${shopifyOrderId + 1}`, carrier: "DHL" }],
    });
    expect(completed.status).toBe(200);
    const failing = await browser.newContext({ baseURL: base });
    const shops = await failing.newPage();
    await signInAs(shops, demo.users.admin, "/admin/shops", { fresh: true });
    const problems = shops.locator(`section[aria-labelledby="shopify-${demo.shop.uid}"]`);
    await expect(async () => {
      await shops.reload();
      await expect(problems.getByRole("heading", { name: "Shopify tasks not yet done" })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(problems.getByText(`Tracking link of pharmacy order ${queue.json.data[0].name}`)).toBeVisible();
    await expect(problems.getByText("Shopify answered HTTP 500.")).toBeVisible();
    await expect(problems.getByRole("heading", { name: "Refused Shopify orders" })).toBeVisible();
    const refusedRow = problems.getByRole("row").filter({ hasText: String(refusedId) });
    await expect(refusedRow.getByText(/total_paid\.amount/)).toBeVisible();
    for (const width of [390, 1440]) {
      await shops.setViewportSize({ width, height: 900 });
      await screenshot(shops, path.join(shots, `admin-shops-shopify-task-problems-${width}.png`));
    }
    await failing.close();
  } finally {
    signalOwnServer(server, "SIGTERM");
    const running = server?.process;
    if (running && running.exitCode === null && running.signalCode === null) await new Promise((r) => running.once("exit", r));
    await standIn.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
