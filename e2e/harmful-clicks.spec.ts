/**
 * Nothing harmful in one click (issue 22): a completed, shipped order is not reopened by one click
 * in the pharmacy portal, and a doctor does not apply a qualified signature by one click. Each
 * tries the one click, cancels the confirmation (nothing changes, read back over REST or on the
 * page), then confirms (the change happens). Screenshots go to test-results/screenshots (`npm run screenshots`).
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { screenshot } from "./screenshots";
import { otcItem, placeOrder, readDemoFile, signInAs } from "./demo";

const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);
const EPA = "/v1/external_pharmacy_api";
const shot = (name: string) => `test-results/screenshots/${name}.png`;

/** An order with `item` at pharmacies[0]; the created order's body. */
async function createOrder(request: APIRequestContext, lastName: string, item: Record<string, unknown>) {
  const d = demo();
  const externalId = `e2e-clicks-${lastName.toLowerCase()}`;
  return { externalId, body: await placeOrder(request, d, { externalId, lastName, pharmacyUid: d.pharmacies[0]!.uid, items: [item] }) };
}

async function pharmacyOrder(request: APIRequestContext, externalId: string) {
  const response = await request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": demo().keys.pharmacy } });
  expect(response.ok()).toBe(true);
  const [entry] = (await response.json()).data as { uid: string; name: string }[];
  expect(entry).toBeDefined();
  return entry!;
}

async function statusOf(request: APIRequestContext, uid: string): Promise<string> {
  const response = await request.get(`${EPA}/pharmacy_orders/${uid}`, { headers: { "X-API-Key": demo().keys.pharmacy } });
  expect(response.ok()).toBe(true);
  return (await response.json()).status;
}

test("a completed order shows completed, and leaving completed asks first: Cancel (or Escape) changes nothing, confirming does", async ({ page }) => {
  const d = demo();
  const lastName = `Shipped${tag()}`;
  await signInAs(page, d.users.pharmacist, "/pharmacy/orders");
  const { externalId } = await createOrder(page.request, lastName, otcItem(d));
  const po = await pharmacyOrder(page.request, externalId);
  const completed = await page.request.patch(`${EPA}/pharmacy_orders/${po.uid}/complete_order`, {
    headers: { "X-API-Key": d.keys.pharmacy },
    data: { tracking_links: [{ tracking_link: "https://tracking.example/clicks", carrier: "DHL" }] },
  });
  expect(completed.ok(), await completed.text()).toBe(true);

  await page.goto(`/pharmacy/orders/${po.uid}`);
  await expect(page.getByRole("heading", { name: po.name })).toBeVisible();
  const status = page.getByLabel("Status", { exact: true });
  const update = page.getByRole("button", { name: "Update status" });
  // The select shows what the order is, and nothing is to be sent yet.
  await expect(status).toHaveValue("completed");
  await expect(update).toBeDisabled();

  await status.selectOption("waiting for pharmacy");
  await update.click();
  const dialog = page.getByRole("alertdialog", { name: `Reopen completed order ${po.name}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("The shipment stays recorded");
  await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
  await screenshot(page, shot("pharmacy-order-reopen-confirmation"));

  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(update).toBeFocused();
  expect(await statusOf(page.request, po.uid)).toBe("completed");

  // Escape cancels too.
  await update.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await statusOf(page.request, po.uid)).toBe("completed");

  await update.click();
  await dialog.getByRole("button", { name: "Move to Waiting for pharmacy" }).click();
  await expect(page.getByText("Status changed to Waiting for pharmacy.")).toBeVisible();
  await expect(page.getByText("Completed → Waiting for pharmacy")).toBeVisible();
  expect(await statusOf(page.request, po.uid)).toBe("waiting for pharmacy");
});

test("cancelling an order from the status card names that it is final, and happens only when confirmed", async ({ page }) => {
  const d = demo();
  const lastName = `Cancel${tag()}`;
  await signInAs(page, d.users.pharmacist, "/pharmacy/orders");
  const { externalId } = await createOrder(page.request, lastName, otcItem(d));
  const po = await pharmacyOrder(page.request, externalId);
  await page.goto(`/pharmacy/orders/${po.uid}`);
  await page.getByLabel("Status", { exact: true }).selectOption("cancelled");
  await page.getByRole("button", { name: "Update status" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Cancel order ${po.name}?` });
  await expect(dialog).toContainText("A cancelled order is final");
  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  expect(await statusOf(page.request, po.uid)).toBe("waiting for pharmacy");

  await page.getByRole("button", { name: "Update status" }).click();
  await dialog.getByRole("button", { name: "Cancel the order" }).click();
  await expect(page.getByText("Status changed to cancelled.")).toBeVisible();
  expect(await statusOf(page.request, po.uid)).toBe("cancelled");
});

test("a doctor's Sign prescription shows a summary naming what is missing; nothing is signed until confirmed, nor when incomplete", async ({ page }) => {
  const d = demo();
  const rx = d.catalogue.rx[0]!;
  const lastName = `Unsigned${tag()}`;
  // An Rx item without anamnesis and a customer without date of birth: the shop asks a doctor to issue one.
  const { body } = await createOrder(page.request, lastName, {
    sku_reference: rx.sku_reference,
    quantity: 2,
    total_paid: { amount: 5780, currency: "EUR" },
    _skip_validation: true,
  });
  expect(body.status).toBe("waiting for doctor");
  const prescriptionUid = (body.prescriptions as { uid: string }[])[0]!.uid;

  await signInAs(page, d.users.doctor, "/admin/doctor");
  await page.goto(`/admin/doctor/requests/${prescriptionUid}`);
  await expect(page.getByText("No anamnesis", { exact: true })).toBeVisible();
  const sign = page.getByRole("button", { name: "Sign prescription" });
  await sign.click();

  const dialog = page.getByRole("alertdialog", { name: `Sign the prescription for Erika ${lastName}?` });
  await expect(dialog).toBeVisible();
  const missing = dialog.getByRole("list", { name: "Missing from this request" });
  await expect(missing).toContainText("No anamnesis");
  await expect(missing).toContainText("No date of birth");
  await expect(dialog.getByRole("list", { name: "Items to sign" })).toContainText(/2 × .+ \(PZN \d+\)/);
  await screenshot(page, shot("doctor-sign-confirmation"));

  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole("button", { name: "Sign prescription" })).toBeEnabled();
  await expect(page.getByText(/^Signed/)).toHaveCount(0);

  // Confirmed, signing is refused: the prescription lacks what a pharmacy dispenses on, and the dialog says what.
  await page.getByRole("button", { name: "Sign prescription" }).click();
  await dialog.getByRole("button", { name: "Sign with QES" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Cannot sign: the patient has no date of birth, item 1 (Finasterid 1 mg Filmtabletten) has no dosage instructions.");
  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByTestId("cannot-sign")).toHaveText("Cannot sign: the patient has no date of birth, item 1 (Finasterid 1 mg Filmtabletten) has no dosage instructions.");
  await expect(page.getByRole("button", { name: "Sign prescription" })).toBeEnabled();
  await expect(page.getByText(/^Signed/)).toHaveCount(0);
});
