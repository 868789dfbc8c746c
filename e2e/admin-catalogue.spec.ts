/**
 * The admin tool's catalogue and prescriptions as an admin uses them: create a product with a shop
 * listing, a SKU and a shop SKU, try a duplicate shop SKU and read the field error beside the field;
 * edit a pharmacy's stock (a movement by the admin); open a prescription and see its PDF. Screenshots
 * go to test-results/admin with `npm run screenshots` (e2e/screenshots.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { prescriptionCanvas, readDemoFile, signInAs, type DemoFile } from "./demo";

/** The parts of demo.json this spec uses besides DemoFile's. */
type Sandbox = DemoFile & {
  catalogue: { otc: { sku_reference: string; pharmacy_sku_uid: string }[]; rx: { sku_reference: string }[] };
  qes: { signer_p12_path: string; signer_p12_password: string };
};
const demo = () => readDemoFile() as Sandbox;
const tag = () => Math.random().toString(36).slice(2, 8);
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const docShots = path.resolve(import.meta.dirname, "..", "docs", "screenshots");

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

test("an admin creates a product, a SKU and a shop SKU, and a duplicate shop SKU is refused beside its field", async ({ page }) => {
  const t = tag();
  await signInAs(page, demo().users.admin, "/admin/catalogue");
  const newProduct = page.getByRole("form", { name: "New product" });
  await newProduct.getByLabel("Display name", { exact: true }).fill(`E2E Ibuprofen ${t}`);
  await newProduct.getByLabel("Prescription required", { exact: true }).uncheck();
  await newProduct.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue\/products\/[\w-]+$/);
  await expect(page.getByRole("heading", { name: `E2E Ibuprofen ${t}`, exact: true })).toBeVisible();

  const listing = page.getByRole("form", { name: "New shop listing" });
  await listing.getByLabel("Shop's product id", { exact: true }).fill(`ibu-${t}`);
  await listing.getByRole("button", { name: "List in shop" }).click();
  await expect(page.getByRole("cell", { name: `ibu-${t}`, exact: true })).toBeVisible();

  const newSku = page.getByRole("form", { name: "New SKU" });
  await newSku.getByLabel("SKU name", { exact: true }).fill(`Ibuprofen 400 mg ${t}`);
  await newSku.getByLabel("PZN", { exact: true }).fill("12345678");
  await newSku.getByLabel("Pieces", { exact: true }).fill("20");
  await newSku.getByLabel("Unit", { exact: true }).fill("tablets");
  await newSku.getByRole("button", { name: "Create SKU" }).click();
  await expect(page.getByRole("heading", { name: `Ibuprofen 400 mg ${t}`, exact: true })).toBeVisible();

  const shopSku = page.getByRole("form", { name: `New shop SKU of Ibuprofen 400 mg ${t}` });
  await shopSku.getByLabel("Shop variation id", { exact: true }).fill(`var-${t}`);
  await shopSku.getByLabel("Price (EUR)", { exact: true }).fill("4.99");
  await shopSku.getByRole("button", { name: "Add shop SKU" }).click();
  const table = page.getByRole("table", { name: `Shop SKUs of Ibuprofen 400 mg ${t}` });
  await expect(table.getByRole("cell", { name: `var-${t}`, exact: true })).toBeVisible();
  await expect(table.getByRole("cell", { name: "4.99", exact: true })).toBeVisible();

  // The same variation id again in the same shop: the spec's conflict, shown beside the field.
  await shopSku.getByLabel("Shop variation id", { exact: true }).fill(`var-${t}`);
  await shopSku.getByLabel("Price (EUR)", { exact: true }).fill("5.49");
  await shopSku.getByRole("button", { name: "Add shop SKU" }).click();
  const variation = shopSku.getByLabel("Shop variation id", { exact: true });
  await expect(variation).toHaveAttribute("aria-invalid", "true");
  await expect(shopSku.getByText("This shop already has a shop SKU with this variation id.")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await shot(page, "admin-product-detail");

  await page.getByRole("link", { name: "← All products" }).click();
  await page.getByLabel("Search", { exact: true }).fill(`E2E Ibuprofen ${t}`);
  await expect(page.getByRole("link", { name: `E2E Ibuprofen ${t}` })).toBeVisible();
  await page.getByLabel("Search", { exact: true }).fill("");
  await expect(page.getByRole("link", { name: `E2E Ibuprofen ${t}` })).toBeVisible();
  await shot(page, "admin-catalogue");
});

test("a duplicate handle or PZN is warned under its field and saved anyway; Create SKU says so", async ({ page }) => {
  const t = tag();
  const handle = `dup-handle-${t}`;
  const pzn = `99${t}`;
  await signInAs(page, demo().users.admin, "/admin/catalogue");
  const newProduct = page.getByRole("form", { name: "New product" });
  await newProduct.getByLabel("Display name", { exact: true }).fill(`E2E First ${t}`);
  await newProduct.getByLabel("Handle", { exact: true }).fill(handle);
  await newProduct.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue\/products\/[\w-]+$/);
  const newSku = page.getByRole("form", { name: "New SKU" });
  await newSku.getByLabel("SKU name", { exact: true }).fill(`First SKU ${t}`);
  await newSku.getByLabel("PZN", { exact: true }).fill(pzn);
  await newSku.getByRole("button", { name: "Create SKU" }).click();
  await expect(newSku.getByText(`SKU “First SKU ${t}” created`)).toBeVisible();
  await expect(page.getByRole("heading", { name: `First SKU ${t}`, exact: true })).toBeVisible();

  // A second product with the same handle: warned while typing, with a link to the first; created anyway.
  await page.goto("/admin/catalogue");
  await newProduct.getByLabel("Display name", { exact: true }).fill(`E2E Second ${t}`);
  await newProduct.getByLabel("Handle", { exact: true }).fill(handle);
  await expect(newProduct.getByText("Another product already has this handle: E2E First")).toBeVisible();
  await expect(newProduct.getByRole("link", { name: `E2E First ${t}` })).toBeVisible();
  await expect(newProduct.getByLabel("Handle", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await newProduct.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("heading", { name: `E2E Second ${t}`, exact: true })).toBeVisible();
  await expect(page.getByRole("form", { name: "Product" }).getByText("Another product already has this handle")).toBeVisible();

  // A SKU with the PZN of the first product's SKU: warned, created anyway, and the creation is confirmed.
  await newSku.getByLabel("SKU name", { exact: true }).fill(`Second SKU ${t}`);
  await newSku.getByLabel("PZN", { exact: true }).fill(pzn);
  await expect(newSku.getByText(`Another SKU already has this PZN: First SKU ${t}.`)).toBeVisible();
  await newSku.getByRole("button", { name: "Create SKU" }).click();
  await expect(newSku.getByText(`SKU “Second SKU ${t}” created: it is listed above with the product's other SKUs.`)).toBeVisible();
  await expect(page.getByRole("heading", { name: `Second SKU ${t}`, exact: true })).toBeVisible();
  await expect(newSku.getByLabel("PZN", { exact: true })).toHaveValue("");
});

test("an admin edits a pharmacy's stock and the movement names the admin", async ({ page }) => {
  const d = demo();
  await signInAs(page, d.users.admin, "/admin/pharmacy-stock");
  await page.getByLabel("Pharmacy", { exact: true }).selectOption({ label: d.pharmacies[0]!.display_name });
  const stock = page.getByLabel(/^Stock of /).first();
  await expect(stock).toBeVisible();
  const next = String(Number(await stock.inputValue()) + 7);
  await stock.fill(next);
  await stock.press("Enter");
  await expect(page.getByText("Saved").first()).toBeVisible();
  await page.getByRole("button", { name: /^Stock movements of / }).first().click();
  const movements = page.getByRole("table", { name: /^Recent stock movements of / }).first();
  await expect(movements.getByRole("row").nth(1)).toContainText("+7");
  await expect(movements.getByRole("row").nth(1)).toContainText("(portal user)");
  await shot(page, "admin-pharmacy-stock");
});

test("an admin opens a prescription and sees its PDF", async ({ page }) => {
  const d = demo();
  const t = tag();
  const pdf = await signPdfWithP12(await samplePrescriptionPdf(), readFileSync(d.qes.signer_p12_path), d.qes.signer_p12_password);
  const externalId = `e2e-admin-rx-${t}`;
  const created = await page.request.post("/v1/management/orders", {
    headers: { "X-API-Key": d.keys.management },
    data: {
      shop_identifier: d.shop.identifier,
      external_id: externalId,
      customer: { id: `cust-${externalId}`, email: "erika@example.com" },
      delivery_address: { first_name: "Erika", last_name: `Rx${t}`, street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          destination_pharmacy_uid: d.pharmacies[0]!.uid,
          items: [{ external_id: "i-1", sku_reference: d.catalogue.rx[0]!.sku_reference, quantity: 1, total_paid: { amount: 2890, currency: "EUR" }, prescription_reference: "rx-1" }],
          prescriptions: [{ id: "rx-1", pdf_base64: pdf.toString("base64") }],
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await signInAs(page, d.users.admin, "/admin/prescriptions");
  await expect(page.getByRole("heading", { name: /prescriptions? now$/ })).toBeVisible();
  await page.getByLabel("Search", { exact: true }).fill(externalId);
  const row = page.getByRole("row").filter({ hasText: externalId });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Signed externally");
  await expect(row).not.toContainText("EXTERNALLY_SIGNED");
  await page.getByLabel("Search", { exact: true }).fill("");
  await expect(page.getByRole("row").filter({ hasText: externalId })).toHaveCount(1);
  await shot(page, "admin-prescriptions");

  await page.getByLabel("Search", { exact: true }).fill(externalId);
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/admin\/prescriptions\/[\w-]+$/);
  // The order appears twice: as the prescription's order and among the orders that redeem it.
  await expect(page.getByRole("link", { name: externalId }).first()).toHaveAttribute("href", /^\/admin\/orders\/[\w-]+$/);
  await expect(page.getByRole("heading", { name: "Signed PDF" })).toBeVisible();
  await expect(await prescriptionCanvas(page)).toBeVisible();
  await expect(page.getByText("Page 1 of 1")).toBeVisible();
  await shot(page, "admin-prescription-detail");
});
