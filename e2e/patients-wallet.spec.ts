/**
 * Patients and wallet passes in the portals, with a patient and pass of this spec's own (made over
 * the Management API, as a shop would): an admin finds the patient by e-mail, sees the pass and the
 * patient's order, and revokes the pass (asked once); at the counter a pharmacist's check of the
 * scanned value (typed, then Enter, as a hand-held scanner does) says valid, then revoked.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { otcItem, placeOrder, readDemoFile, signInAs } from "./demo";
import { screenshot } from "./screenshots";

const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "patients-wallet");

/** A scan at the counter: the scanner types the value into the focused field and presses Enter. */
async function scan(page: Page, value: string) {
  const field = page.getByLabel("Barcode value");
  await expect(field).toBeFocused();
  await field.pressSequentially(value, { delay: 0 });
  await field.press("Enter");
}

test("an admin finds a patient by e-mail and revokes their pass; the pharmacist's check says valid, then revoked", async ({ page, browser }) => {
  const d = readDemoFile();
  const tag = Date.now().toString(36);
  const email = `wanda.${tag}@example.com`;
  const customerId = `wallet-${tag}`;
  const lastName = `Wallet-${tag}`;
  const headers = { "X-API-Key": d.keys.management };

  const patient = await page.request.post("/v1/management/patients", {
    headers,
    data: { shop_uid: d.shop.uid, shop_customer_id: customerId, email, fields: [{ field: "first_name", value: "Wanda" }, { field: "last_name", value: lastName }] },
  });
  expect(patient.status(), await patient.text()).toBe(201);
  const template = d.wallet_pass_templates.find((tpl) => !tpl.requires_prescription)!;
  const issued = await page.request.post("/v1/management/wallet-passes", {
    headers,
    data: { wallet_pass_template_uid: template.uid, shop_customer_id: customerId, shop_identifier: d.shop.identifier },
  });
  expect(issued.status(), await issued.text()).toBe(201);
  const pass = (await issued.json()) as { barcode_value: string };
  const order = await placeOrder(page.request, d, { externalId: `wallet-order-${tag}`, customerId, email, lastName, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });

  // The admin finds the patient by their address, written in another case.
  await signInAs(page, d.users.admin, "/admin");
  await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Patients" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Patients" })).toBeVisible();
  await page.getByLabel("E-mail address").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  const result = page.getByRole("table", { name: `Patients with the e-mail address ${email.toUpperCase()}` });
  await expect(result.getByRole("row")).toHaveCount(2);
  await screenshot(page, path.join(shots, "admin-patient-search.png"));
  await result.getByRole("link", { name: `Wanda ${lastName}` }).click();
  await expect(page.getByRole("heading", { level: 2, name: `Wanda ${lastName}` })).toBeVisible();

  const passes = page.getByRole("table", { name: "Wallet passes" });
  const passRow = passes.getByRole("row").filter({ hasText: customerId });
  await expect(passRow).toContainText("Demo member card");
  await expect(passRow).toContainText("Active");
  const orders = page.getByRole("table", { name: "Orders" });
  await expect(orders.getByRole("row")).toHaveCount(2);
  await expect(orders.locator(`a[href="/admin/orders/${order.uid}"]`)).toBeVisible();
  await screenshot(page, path.join(shots, "admin-patient.png"));

  // The pharmacist at the counter: the pass is valid.
  const counter = await browser.newContext();
  try {
    const pharmacist = await counter.newPage();
    await signInAs(pharmacist, d.users.pharmacist, "/pharmacy");
    await pharmacist.getByRole("navigation", { name: "Pharmacy portal" }).getByRole("link", { name: "Check wallet pass" }).click();
    await expect(pharmacist.getByRole("heading", { level: 1, name: "Check wallet pass" })).toBeVisible();
    await scan(pharmacist, pass.barcode_value);
    const answer = pharmacist.getByRole("region", { name: "Result" });
    await expect(answer.getByText("Valid", { exact: true })).toBeVisible();
    await expect(answer.locator('[data-status="active"]')).toHaveText("Active");
    // Ready for the next scan, and the value is not shown back.
    await expect(pharmacist.getByLabel("Barcode value")).toHaveValue("");
    await expect(pharmacist.getByText(pass.barcode_value)).toHaveCount(0);
    await screenshot(pharmacist, path.join(shots, "pharmacy-wallet-pass-valid.png"));

    // A value of no pass is not valid either.
    await scan(pharmacist, `rxp_not-a-pass-${tag}`);
    await expect(answer.getByText("Not valid", { exact: true })).toBeVisible();
    await expect(answer).toContainText("No pass of your organisation has this barcode.");

    // The admin revokes the pass: one click only asks (Cancel leaves it active), the confirmation revokes.
    const dialog = page.getByRole("alertdialog", { name: `Revoke the pass “Demo member card” of ${customerId}?` });
    await passRow.getByRole("button", { name: /^Revoke pass/ }).click();
    await expect(dialog).toContainText("cannot be restored");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(passRow).toContainText("Active");
    await passRow.getByRole("button", { name: /^Revoke pass/ }).click();
    await dialog.getByRole("button", { name: "Confirm revoke" }).click();
    await expect(page.getByText(`The pass “Demo member card” of ${customerId} is revoked.`)).toBeVisible();
    await expect(passRow).toContainText("Revoked");
    await expect(passRow.getByRole("button", { name: /^Revoke pass/ })).toHaveCount(0);

    // The same scan at the counter now: revoked.
    await scan(pharmacist, pass.barcode_value);
    await expect(answer.getByText("Not valid", { exact: true })).toBeVisible();
    await expect(answer.locator('[data-status="revoked"]')).toHaveText("Revoked");
    await screenshot(pharmacist, path.join(shots, "pharmacy-wallet-pass-revoked.png"));
  } finally {
    await counter.close();
  }
});
