/**
 * A pharmacy's assortment in both portals: an admin adds a new SKU of the catalogue to a pharmacy
 * with "Add SKUs", imports a CSV file whose preview shows a row in error (nothing can be applied),
 * applies the fixed file, and exports the assortment; the pharmacist of that pharmacy imports a stock
 * change and sees it in the list; the admin removes the SKU again. Screenshots go to
 * test-results/assortments with `npm run screenshots` (e2e/screenshots.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { readDemoFile, signInAs, type DemoFile } from "./demo";
import { screenshot } from "./screenshots";

/** The parts of demo.json this spec uses besides DemoFile's. */
type Sandbox = DemoFile & { catalogue: { otc: { product_uid: string }[] } };

const shots = path.resolve(import.meta.dirname, "..", "test-results", "assortments");
const shot = (page: Page, name: string) => screenshot(page, path.join(shots, `${name}.png`));

test.use({ viewport: { width: 1280, height: 900 } });

async function signedIn(browser: Browser, user: { email: string; password: string }, landing: string) {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, user, landing);
  return page;
}

const csvFile = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

test("an admin adds a SKU, imports and exports the assortment; the pharmacist imports a stock change", async ({ browser, request }) => {
  const demo = readDemoFile() as Sandbox;
  const pharmacy = demo.pharmacies[0]!;
  const tag = Math.random().toString(36).slice(2, 8);
  const name = `E2E assortment ${tag}`;
  const created = await request.post("/v1/management/skus", {
    headers: { "X-API-Key": demo.keys.management },
    data: { product_uid: demo.catalogue.otc[0]!.product_uid, display_name: name },
  });
  expect(created.status()).toBe(201);
  const skuUid = ((await created.json()) as { uid: string }).uid;

  // The admin adds it to the pharmacy's assortment.
  const admin = await signedIn(browser, demo.users.admin, "/admin/pharmacy-stock");
  await admin.getByLabel("Pharmacy", { exact: true }).selectOption(pharmacy.uid);
  await admin.getByRole("button", { name: "Add SKUs" }).click();
  await admin.getByLabel("Find SKUs in the catalogue").fill(name);
  await admin.getByRole("button", { name: `Pick ${name}` }).click();
  await admin.getByLabel(`Pharmacy's id for ${name}`).fill(`E2E-${tag}`);
  await admin.getByLabel(`Price in EUR of ${name}`).fill("4.50");
  await admin.getByLabel(`Starting stock of ${name}`).fill("7");
  await shot(admin, "add-skus");
  await admin.getByRole("button", { name: "Add 1 SKU to the assortment" }).click();
  await expect(admin.getByText("1 SKU was added to the assortment")).toBeVisible();
  await admin.getByLabel("Search", { exact: true }).fill(name);
  await expect(admin.getByLabel(`Stock of ${name}`, { exact: true })).toHaveValue("7");

  // A file with a row in error: its preview says why, and it cannot be applied.
  await admin.getByRole("button", { name: "Import CSV" }).click();
  await admin.getByLabel("CSV file").setInputFiles(csvFile("stock.csv", `sku_uid,stock\n${skuUid},9\nno-such-sku,1\n`));
  const preview = admin.getByRole("table", { name: "Rows of stock.csv" });
  await expect(preview.getByRole("row").filter({ hasText: "No SKU of the catalogue has this sku_uid." })).toContainText("Error");
  await expect(admin.getByRole("button", { name: "Apply import" })).toBeDisabled();
  await shot(admin, "import-preview-error");

  // The fixed file applies, after a confirmation.
  await admin.getByLabel("CSV file").setInputFiles(csvFile("stock-fixed.csv", `sku_uid,stock\n${skuUid},9\n`));
  const fixed = admin.getByRole("table", { name: "Rows of stock-fixed.csv" });
  await expect(fixed.getByRole("row").filter({ hasText: name })).toContainText("Stock 7 → 9");
  await admin.getByRole("button", { name: "Apply import" }).click();
  await admin.getByRole("alertdialog", { name: "Import 1 change?" }).getByRole("button", { name: "Confirm import" }).click();
  await expect(admin.getByText("Imported: 0 SKUs added, 1 updated, 0 unchanged.")).toBeVisible();
  await expect(admin.getByLabel(`Stock of ${name}`, { exact: true })).toHaveValue("9");

  // The export holds it, in the import's columns.
  await admin.getByRole("button", { name: "Export CSV" }).click();
  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^assortment-.+-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "").split("\n");
  expect(exported[0]).toBe("sku_uid,pzn,display_name,external_id,price_cents,stock");
  expect(exported).toContain(`${skuUid},,${name},E2E-${tag},450,9`);

  // The pharmacist of the pharmacy imports a stock change (a semicolon file) and sees it.
  const pharmacist = await signedIn(browser, demo.users.pharmacist, "/pharmacy/stock");
  await pharmacist.getByRole("button", { name: "Import CSV" }).click();
  await pharmacist.getByLabel("CSV file").setInputFiles(csvFile("count.csv", `sku_uid;stock\n${skuUid};12\n`));
  await expect(pharmacist.getByRole("table", { name: "Rows of count.csv" }).getByRole("row").filter({ hasText: name })).toContainText("Stock 9 → 12");
  await shot(pharmacist, "pharmacist-import-preview");
  await pharmacist.getByRole("button", { name: "Apply import" }).click();
  await pharmacist.getByRole("alertdialog").getByRole("button", { name: "Confirm import" }).click();
  await expect(pharmacist.getByText("Imported: 0 SKUs added, 1 updated, 0 unchanged.")).toBeVisible();
  await pharmacist.getByLabel("Search").fill(name);
  await expect(pharmacist.getByLabel(`Stock of ${name}`, { exact: true })).toHaveValue("12");

  // The admin removes the SKU from the assortment again.
  await admin.reload();
  await admin.getByLabel("Search", { exact: true }).fill(name);
  await admin.getByRole("button", { name: `Remove ${name} from the assortment` }).click();
  await admin.getByRole("alertdialog").getByRole("button", { name: "Remove SKU" }).click();
  await expect(admin.getByText("No SKU matches your search")).toBeVisible();
});
