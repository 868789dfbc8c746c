import { expect, test, type Page } from "@playwright/test";
import { readDemoFile } from "./demo";

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function sessionOf(page: Page): Promise<Record<string, unknown>> {
  const response = await page.request.get("/api/auth/session");
  expect(response.ok()).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

test("an admin signs in and sees the admin tool", async ({ page }) => {
  const { admin } = readDemoFile().users;
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin$/);
  await signIn(page, admin.email.toUpperCase(), admin.password);

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("banner").getByText("Admin tool", { exact: true })).toBeVisible();
  await expect(page.getByText(admin.email)).toBeVisible();
  // The organisation's name heads the page and sits under the user's name in the header.
  const organisation = (await page.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
  expect(organisation).not.toBe("");
  await expect(page.getByTestId("signed-in-user")).toContainText(organisation);
  const session = await sessionOf(page);
  expect(session.user).toMatchObject({ email: admin.email, role: "ADMIN" });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await sessionOf(page)).toEqual({});
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin$/);
});

test("a pharmacist signs in and sees the pharmacy portal of their pharmacy", async ({ page }) => {
  const demo = readDemoFile();
  const { pharmacist } = demo.users;
  const pharmacy = demo.pharmacies[0]!;
  await page.goto("/signin");
  await signIn(page, pharmacist.email, pharmacist.password);

  // Without a callbackUrl, sign-in lands in the user's own portal.
  await expect(page).toHaveURL(/\/pharmacy$/);
  await expect(page.getByRole("banner").getByText("Pharmacy portal", { exact: true })).toBeVisible();
  await expect(page.getByText(pharmacist.email)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pharmacy.display_name);
  await expect(page.getByTestId("signed-in-user")).toContainText(pharmacy.display_name);
  await expect(page.getByText(/^Pharmacy portal of \S/)).toBeVisible();
  const session = await sessionOf(page);
  expect(session.user).toMatchObject({ email: pharmacist.email, role: "PHARMACIST", pharmacyId: pharmacy.uid });
});

test("a wrong password shows an error and creates no session", async ({ page }) => {
  const { admin } = readDemoFile().users;
  await page.goto("/signin?callbackUrl=%2Fadmin");
  await signIn(page, admin.email, `${admin.password}-wrong`);

  await expect(page.locator("form").getByRole("alert")).toHaveText("The email or password is not correct.");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin$/);
  expect(await sessionOf(page)).toEqual({});
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin$/);
});

test("an unknown email is refused like a wrong password", async ({ page }) => {
  await page.goto("/signin");
  await signIn(page, "nobody@demo.example", "whatever-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText("The email or password is not correct.");
  expect(await sessionOf(page)).toEqual({});
});

test("a pharmacist cannot open the admin tool, and an admin is sent away from the pharmacy portal", async ({ browser }) => {
  const { admin, pharmacist } = readDemoFile().users;

  const pharmacistContext = await browser.newContext();
  const pharmacistPage = await pharmacistContext.newPage();
  await pharmacistPage.goto("/signin");
  await signIn(pharmacistPage, pharmacist.email, pharmacist.password);
  await expect(pharmacistPage).toHaveURL(/\/pharmacy$/);
  await pharmacistPage.goto("/admin");
  await expect(pharmacistPage).toHaveURL(/\/pharmacy$/);
  await expect(pharmacistPage.getByText("Admin tool", { exact: true })).toHaveCount(0);
  await pharmacistContext.close();

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto("/signin");
  await signIn(adminPage, admin.email, admin.password);
  await expect(adminPage).toHaveURL(/\/admin$/);
  await adminPage.goto("/pharmacy");
  await expect(adminPage).toHaveURL(/\/admin$/);
  await adminContext.close();
});

test("sign-in ignores a callbackUrl that points off-site", async ({ page }) => {
  const { admin } = readDemoFile().users;
  await page.goto("/signin?callbackUrl=https%3A%2F%2Fevil.example%2F");
  await signIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/admin$/);
});

test("signing out ends the session everywhere: a copy of its cookie in another browser is refused", async ({ browser }) => {
  const { pharmacist } = readDemoFile().users;
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto("/signin");
  await signIn(page, pharmacist.email, pharmacist.password);
  await expect(page).toHaveURL(/\/pharmacy$/);

  // The session cookie, copied into a second browser (as a stolen or left-behind cookie would be).
  const copied = (await first.cookies()).filter((c) => c.name.endsWith("next-auth.session-token"));
  expect(copied).toHaveLength(1);
  const second = await browser.newContext();
  await second.addCookies(copied);
  const other = await second.newPage();
  await other.goto("/pharmacy");
  await expect(other).toHaveURL(/\/pharmacy$/);
  expect((await other.request.get("/api/trpc/pharmacy.pharmacies.list")).status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);

  expect((await other.request.get("/api/trpc/pharmacy.pharmacies.list")).status()).toBe(401);
  await other.goto("/pharmacy");
  await expect(other).toHaveURL(/\/signin\?callbackUrl=%2Fpharmacy$/);
  expect(await sessionOf(other)).toEqual({});
  await first.close();
  await second.close();
});
