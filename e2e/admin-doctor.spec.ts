import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS_TO_DOCS } from "./screenshots";
import { orderWithAnamnesis, prescriptionCanvas, readDemoFile, signInAs } from "./demo";

/**
 * The doctors' workspace as the sandbox doctor uses it: a request from an order with an anamnesis
 * (the answers through a Public API treatment checkout, the order through the Management API) is
 * signed on /admin/doctor and its pharmacy order appears in the pharmacy portal; another is
 * declined with a reason; the waiting room and the statistics. Screenshots go to
 * test-results/admin with `npm run screenshots` (e2e/screenshots.ts).
 */
const demo = () => readDemoFile();
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const docShots = path.resolve(import.meta.dirname, "..", "docs", "screenshots");
const tag = () => Math.random().toString(36).slice(2, 8);
const EPA = "/v1/external_pharmacy_api";

test.use({ viewport: { width: 1280, height: 900 } });

async function shot(page: Page, name: string) {
  const dir = SCREENSHOTS_TO_DOCS ? docShots : shots;
  await screenshot(page, path.join(dir, `${name}.png`));
}

/** An order waiting for a doctor with the sandbox anamnesis (e2e/demo.ts). */
const orderWithAnamnesisFor = (request: APIRequestContext, lastName: string) =>
  orderWithAnamnesis(request, demo(), lastName, `e2e-doctor-${lastName.toLowerCase()}`);

/** The pharmacy order of a shop order at the demo pharmacy, over REST; undefined until it exists. */
async function pharmacyOrderOf(request: APIRequestContext, externalId: string) {
  const response = await request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": demo().keys.pharmacy } });
  expect(response.ok()).toBe(true);
  return ((await response.json()).data as { uid: string; name: string }[])[0];
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
}

test("a doctor signs a request from an anamnesis order and the pharmacy order appears at the pharmacy", async ({ page }) => {
  const d = demo();
  const lastName = `Signed${tag()}`;
  const { externalId, prescriptionUid } = await orderWithAnamnesisFor(page.request, lastName);

  await signInAs(page, d.users.doctor, "/admin/doctor", { fresh: true }); // signs out below
  await expect(page.getByRole("heading", { name: "Prescription requests" })).toBeVisible();
  const link = page.locator(`a[href="/admin/doctor/requests/${prescriptionUid}"]`);
  await expect(link).toHaveText(`Erika ${lastName}`);
  await shot(page, "admin-doctor-queue");
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/admin/doctor/requests/${prescriptionUid}$`));

  // The patient, the item, and the anamnesis answers: each question with its answer, as text (read-only).
  await expect(page.getByText(`Erika ${lastName}`).first()).toBeVisible();
  // The item as prescribed, its dosage instructions offered from the product: signing needs them saved.
  const dosage = page.getByRole("form", { name: "Dosage instructions" });
  await expect(dosage.getByText("1. Finasterid 1 mg Filmtabletten")).toBeVisible();
  await expect(page.getByTestId("cannot-sign")).toHaveText("Cannot sign: item 1 (Finasterid 1 mg Filmtabletten) has no dosage instructions.");
  await expect(dosage.getByLabel("Dosage instructions for Finasterid 1 mg Filmtabletten")).toHaveValue("1 Tablette täglich");
  await dosage.getByLabel("Dosage instructions for Finasterid 1 mg Filmtabletten").fill("1 Tablette täglich morgens");
  await dosage.getByRole("button", { name: "Save dosage instructions" }).click();
  await expect(page.getByText("Dosage instructions saved.")).toBeVisible();
  await expect(page.getByTestId("cannot-sign")).toHaveCount(0);
  const answers = page.getByTestId("anamnesis-answers");
  const answerTo = (question: string) => answers.getByRole("term").filter({ hasText: question }).locator("xpath=following-sibling::dd[1]");
  await expect(answerTo("Do you have any known allergies?")).toHaveText("no");
  await expect(answerTo("Do any of these apply to you?")).toHaveText("none");
  await expect(answerTo("Which medicines do you take regularly?")).toHaveText("Vitamin D3 1000 IE");
  await expect(answerTo("I confirm that my answers are complete and true.")).toHaveText("Yes");
  await expect(answerTo("Which allergies?")).toHaveCount(0);
  await expect(answers.locator("input, textarea")).toHaveCount(0);
  await expect(await prescriptionCanvas(page)).toBeVisible();
  await shot(page, "admin-doctor-request");

  // Signing shows what is signed first (nothing is missing here), and signs on confirmation.
  await page.getByRole("button", { name: "Sign prescription" }).click();
  const summary = page.getByRole("alertdialog", { name: `Sign the prescription for Erika ${lastName}?` });
  await expect(summary.getByRole("list", { name: "Items to sign" })).toContainText("Finasteride 1 mg");
  await expect(summary.getByRole("list", { name: "Missing from this request" })).toHaveCount(0);
  await summary.getByRole("button", { name: "Sign with QES" }).click();
  await expect(page.getByText("Signed. The order goes to the pharmacy.")).toBeVisible();
  await expect(page.getByText("Signed (QES)").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign prescription" })).toHaveCount(0);

  // The send task opens the pharmacy order at the demo pharmacy.
  await expect.poll(async () => (await pharmacyOrderOf(page.request, externalId))?.uid).toBeTruthy();
  const po = (await pharmacyOrderOf(page.request, externalId))!;

  await signOut(page);
  await signInAs(page, d.users.pharmacist, "/pharmacy/orders");
  await page.getByLabel("Search").fill(lastName);
  const poLink = page.getByRole("link", { name: po.name });
  await expect(poLink).toBeVisible();
  await poLink.click();
  await expect(page).toHaveURL(new RegExp(`/pharmacy/orders/${po.uid}$`));
  // The signed prescription is in the pharmacy's page.
  await expect(await prescriptionCanvas(page)).toBeVisible();
});

test("a doctor declines a request with a reason; the reason is required", async ({ page }) => {
  const d = demo();
  const lastName = `Declined${tag()}`;
  const { prescriptionUid } = await orderWithAnamnesisFor(page.request, lastName);
  await signInAs(page, d.users.doctor, "/admin/doctor");
  await page.locator(`a[href="/admin/doctor/requests/${prescriptionUid}"]`).click();

  await page.getByRole("button", { name: "Decline" }).click();
  const reason = page.getByRole("textbox", { name: "Reason" });
  await expect(reason).toBeVisible();
  await page.getByRole("button", { name: "Confirm decline" }).click();
  await expect(page.getByText("Give the reason for declining.")).toBeVisible();
  await reason.fill("Finasteride is contraindicated with the reported liver disease.");
  await page.getByRole("button", { name: "Confirm decline" }).click();
  await expect(page.getByText("Declined. The patient's order will not be dispensed.")).toBeVisible();
  await expect(page.getByText("“Finasteride is contraindicated with the reported liver disease.”")).toBeVisible();

  // It has left the queue.
  await page.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "Requests" }).click();
  await expect(page.getByRole("heading", { name: "Prescription requests" })).toBeVisible();
  await expect(page.locator(`a[href="/admin/doctor/requests/${prescriptionUid}"]`)).toHaveCount(0);
});

test("a request of an order on hold is not in the queue, and its page says why instead of offering a decision", async ({ page }) => {
  const d = demo();
  const lastName = `Held${tag()}`;
  const { prescriptionUid } = await orderWithAnamnesis(page.request, d, lastName, `e2e-doctor-${lastName.toLowerCase()}`, { on_hold: true });
  await signInAs(page, d.users.doctor, "/admin/doctor");
  await expect(page.getByRole("heading", { name: "Prescription requests" })).toBeVisible();
  await expect(page.locator(`a[href="/admin/doctor/requests/${prescriptionUid}"]`)).toHaveCount(0);

  await page.goto(`/admin/doctor/requests/${prescriptionUid}`);
  await expect(page.getByRole("status").filter({ hasText: "is on hold: the organisation paused it" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign prescription" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Decline" })).toHaveCount(0);
  await shot(page, "doctor-request-order-on-hold");
});

test("a doctor takes the next patient from the waiting room, completes the consultation and reads their statistics", async ({ page }) => {
  const d = demo();
  const lastName = `Waiting${tag()}`;
  const patient = await page.request.post("/v1/management/patients", {
    headers: { "X-API-Key": d.keys.management },
    data: { shop_uid: d.shop.uid, shop_customer_id: `e2e-wait-${lastName}`, email: `${lastName.toLowerCase()}@example.com` },
  });
  expect(patient.status(), await patient.text()).toBeLessThan(300);
  const patientUid = (await patient.json()).patient_profile_uid as string;
  const registered = await page.request.post("/v1/management/waiting-room/register", {
    headers: { "X-API-Key": d.keys.management },
    data: { shop_uid: d.shop.uid, patient_profile_uid: patientUid, visit_reason: "Repeat prescription" },
  });
  expect(registered.status(), await registered.text()).toBe(201);

  await signInAs(page, d.users.doctor, "/admin/doctor");
  // An admin page sends a doctor back to the workspace.
  await page.goto("/admin/api-keys");
  await expect(page).toHaveURL(/\/admin\/doctor$/);
  await page.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "Waiting room" }).click();
  await expect(page.getByRole("heading", { name: "Waiting room" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Repeat prescription" }).filter({ hasText: `${lastName.toLowerCase()}@example.com` })).toBeVisible();
  await shot(page, "admin-doctor-waiting-room");

  // Earlier waiting entries of other runs may come first: take patients until this one is with the doctor.
  for (let i = 0; i < 20; i++) {
    await page.getByRole("button", { name: "Take next patient" }).click();
    const complete = page.getByRole("button", { name: "Complete consultation" });
    await expect(complete).toBeVisible();
    const mine = await page.getByRole("region", { name: "Current patient" }).getByText("Repeat prescription").isVisible();
    if (mine) break;
    await complete.click();
    await expect(page.getByRole("button", { name: "Take next patient" })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Current patient" })).toContainText("Repeat prescription");
  await page.getByRole("button", { name: "Complete consultation" }).click();
  await expect(page.getByRole("button", { name: "Take next patient" })).toBeVisible();

  await page.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "My statistics" }).click();
  await expect(page.getByRole("heading", { name: "My statistics" })).toBeVisible();
  await expect(page.getByLabel("From")).toBeVisible();
  const completed = page.getByText("Consultations completed").locator("xpath=following-sibling::dd");
  await expect(completed).not.toHaveText("0");
  await shot(page, "admin-doctor-statistics");
});
