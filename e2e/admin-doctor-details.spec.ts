import path from "node:path";
import { expect, test } from "@playwright/test";
import { readDemoFile, signInAs } from "./demo";
import { screenshot } from "./screenshots";

/**
 * The admin team fills a doctor's prescriber details (what each of their prescriptions names):
 * reached from the users list, refused field by field, saved, and kept. A new doctor of its own, so
 * the sandbox doctor other specs sign with is left as it is. Screenshot with `npm run screenshots`.
 */
test.use({ viewport: { width: 1280, height: 900 } });

test("an admin sets a doctor's prescriber details from the users list", async ({ page }) => {
  const d = readDemoFile();
  const tag = Math.random().toString(36).slice(2, 8);
  const name = `Dr. Formular ${tag}`;
  await signInAs(page, d.users.admin, "/admin/users");

  // A doctor with a user, added as the admin tool adds one (an invitation).
  const add = page.getByRole("region", { name: "Add a user" });
  await add.getByLabel("E-mail").fill(`formular-${tag}@demo.example`);
  await add.getByLabel("Name", { exact: true }).fill(name);
  await add.getByLabel("Role").selectOption("DOCTOR");
  await add.getByLabel("Doctor", { exact: true }).selectOption("new");
  await add.getByLabel("Doctor's name").fill(name);
  await add.getByRole("button", { name: "Invite user" }).click();
  const link = page.getByRole("link", { name, exact: true });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/admin\/doctors\/[^/]+$/);
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();

  const form = page.getByRole("form", { name: "Prescriber details" });
  await form.getByLabel("Professional title").fill("Facharzt für Innere Medizin");
  await form.getByLabel("Practice name").fill("Praxis Formular");
  await form.getByLabel("Street and number").fill("Unter den Linden 1");
  await form.getByLabel("Postal code").fill("10117");
  await form.getByLabel("City").fill("Berlin");
  await form.getByLabel("Country").fill("DE");
  await form.getByLabel("Telephone").fill("abc");
  await form.getByLabel("Kind of identification").fill("LANR");
  await form.getByLabel("Identification number").fill("12345");
  await form.getByRole("button", { name: "Save prescriber details" }).click();
  await expect(form.getByText("Enter a telephone number: digits, spaces and + ( ) / - only, at least 6 digits.")).toBeVisible();
  await expect(form.getByText("A LANR has exactly 9 digits.")).toBeVisible();
  await expect(form.getByLabel("Telephone")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Telephone").fill("+49 30 2345678");
  await form.getByLabel("Identification number").fill("123456789");
  await form.getByRole("button", { name: "Save prescriber details" }).click();
  await expect(page.getByText("Saved. Prescriptions signed from now on show these details.")).toBeVisible();
  await screenshot(page, path.resolve(import.meta.dirname, "..", "test-results", "admin", "admin-doctor-prescriber-details.png"));

  await page.reload();
  await expect(form.getByLabel("Professional title")).toHaveValue("Facharzt für Innere Medizin");
  await expect(form.getByLabel("Telephone")).toHaveValue("+49 30 2345678");
  await expect(form.getByLabel("Identification number")).toHaveValue("123456789");
  // The audit log has the change, linked back to the doctor.
  await page.goto("/admin/audit-log");
  await expect(page.getByRole("link", { name: new RegExp(`^Doctor "${name}": professional title`) })).toBeVisible();
});
