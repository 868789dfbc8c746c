import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { e2eDataDir } from "./demo";

/**
 * The built-in connector's hosted checkout: a prescription checkout made over the Public API (the
 * sandbox key, a prescription signed by the sandbox QES signer), opened at its checkout_url,
 * reviewed and confirmed by the patient; the order then exists for the Management API. Screenshots
 * of the review, completed and not-found states under test-results/ (with SCREENSHOTS_TO_DOCS=1
 * the first two also under docs/screenshots/).
 */
type Demo = {
  shop: { identifier: string };
  keys: { public: string; management: string };
  catalogue: { otc: { sku_uid: string }[]; rx: { sku_uid: string }[] };
  qes: { signer_p12_path: string; signer_p12_password: string };
};
const demo = JSON.parse(readFileSync(path.join(e2eDataDir, "demo.json"), "utf8")) as Demo;

const SHOTS = "test-results/checkout-shots";
const shot = (page: Page, name: string, forDocs = false) =>
  screenshot(page, forDocs && SCREENSHOTS_TO_DOCS ? `docs/screenshots/${name}.png` : `${SHOTS}/${name}.png`);

test.use({ viewport: { width: 1000, height: 900 } });

test("a patient reviews a prescription checkout made over the Public API and confirms it: the order is created", async ({ page }) => {
  const unsigned = await samplePrescriptionPdf({ patient: "Erika Mustermann" });
  const signed = await signPdfWithP12(unsigned, readFileSync(demo.qes.signer_p12_path), demo.qes.signer_p12_password);
  const externalOrderId = `e2e-checkout-${randomUUID().slice(0, 8)}`;
  const address = { first_name: "Erika", last_name: "Mustermann", address1: "Hauptstraße 5", city: "Berlin", country_code: "DE", zip: "10115" };

  const created = await page.request.post(`/v2/public-api/prescriptions/${demo.shop.identifier}`, {
    headers: { "X-API-Key": demo.keys.public },
    data: {
      prescriptions: [{ id: "RX-2026-0042", pdf_base64: signed.toString("base64") }],
      lines: [
        { sku_uid: demo.catalogue.rx[0]!.sku_uid, quantity: 1, prescription_id: "RX-2026-0042" },
        { sku_uid: demo.catalogue.otc[0]!.sku_uid, quantity: 2 },
      ],
      patient_data: { first_name: "Erika", last_name: "Mustermann", date_of_birth: 315532800, gender: "female" },
      shop_customer_id: "e2e-erika",
      buyerIdentity: { email: "erika@example.com" },
      external_order_id: externalOrderId,
      delivery: { delivery_type: "shipping", delivery_price: 495 },
      shipping_address: address,
      billing_address: address,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const checkout = (await created.json()) as { checkout_url: string; draft_order_id: string };

  await page.goto(new URL(checkout.checkout_url).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demo Shop");
  await expect(page.getByText(`Prescription order no. ${checkout.draft_order_id}`)).toBeVisible();
  await expect(page.getByText("Signed prescription RX-2026-0042")).toBeVisible();
  await expect(page.getByRole("region", { name: "Addresses" })).toContainText("Hauptstraße 5");
  await shot(page, "checkout-review", true);

  await page.getByRole("button", { name: /^Confirm order/ }).click();
  await expect(page.getByText(`Order placed: ${externalOrderId}.`, { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Confirm order/ })).toHaveCount(0);
  await shot(page, "checkout-completed", true);

  const orders = await page.request.get("/v1/management/orders", {
    headers: { "X-API-Key": demo.keys.management },
    params: { shop_identifier: demo.shop.identifier, shop_order_external_id: externalOrderId },
  });
  const list = (await orders.json()) as { orders: { uid: string; status: string }[] };
  expect(list.orders).toHaveLength(1);
  expect(list.orders[0]!.status).toBe("waiting for pharmacy");

  // Opened again later: the completed state, no second order.
  await page.reload();
  await expect(page.getByText(`Order placed: ${externalOrderId}.`, { exact: false })).toBeVisible();
});

test("an unknown or undecodable checkout link is a clean not-found page", async ({ page }) => {
  const unknown = await page.goto("/checkout/this-token-opens-no-checkout-at-all");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByText("Checkout not found")).toBeVisible();
  await shot(page, "checkout-not-found");

  const undecodable = await page.request.get("/checkout/%FF");
  expect(undecodable.status()).toBe(404);
});
