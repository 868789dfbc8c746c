import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { orderWithAnamnesis, readDemoFile, signInAs } from "./demo";
import { screenshot } from "./screenshots";

/**
 * The Doctors section (issue 35): an admin edits a doctor's practice address and minutes to respond,
 * assigns a questionnaire, and requeues the doctor's pending requests to a colleague, whose queue
 * then shows them (the colleague signs in to the doctors' workspace). Two new doctors of their own,
 * so the sandbox doctor other specs sign with is left as it is. Screenshots of the list and the
 * detail at 390 and 1280 px with `npm run screenshots`.
 */
const shots = path.resolve(import.meta.dirname, "..", "test-results", "admin");
const tag = () => Math.random().toString(36).slice(2, 8);
const PASSWORD = "a long enough password";

test.use({ viewport: { width: 1280, height: 900 } });

/** Invites a doctor (a new Doctor with a user) from the users list; answers the invitation link. */
async function inviteDoctor(page: Page, name: string, email: string): Promise<string> {
  await page.goto("/admin/users");
  const add = page.getByRole("region", { name: "Add a user" });
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel("Name", { exact: true }).fill(name);
  await add.getByLabel("Role").selectOption("DOCTOR");
  await add.getByLabel("Doctor", { exact: true }).selectOption("new");
  await add.getByLabel("Doctor's name").fill(name);
  await add.getByLabel("Doctor's e-mail").fill(email);
  await add.getByRole("button", { name: "Invite user" }).click();
  const link = page.getByLabel("Invitation link");
  await expect(link).toHaveAttribute("readonly", "");
  return new URL(await link.inputValue()).pathname;
}

/** The invited doctor sets their password in a browser of their own. */
async function acceptInvitation(browser: Browser, invitationPath: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invitationPath);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Your password is set.")).toBeVisible();
  await context.close();
}

async function shotAt(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, path.join(shots, `${name}-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an admin edits a doctor, assigns a questionnaire and requeues their pending requests to a colleague, whose queue shows them", async ({ page, browser }) => {
  const d = readDemoFile();
  const t = tag();
  const from = { name: `Dr. Abgabe ${t}`, email: `abgabe-${t}@demo.example` };
  const to = { name: `Dr. Übernahme ${t}`, email: `uebernahme-${t}@demo.example` };
  await signInAs(page, d.users.admin, "/admin");
  await inviteDoctor(page, from.name, from.email);
  const colleagueInvitation = await inviteDoctor(page, to.name, to.email);
  await acceptInvitation(browser, colleagueInvitation);

  // The Doctors section lists both; the first opens from its name.
  await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Doctors" }).click();
  await expect(page).toHaveURL(/\/admin\/doctors$/);
  await expect(page.getByRole("heading", { name: "Doctors", level: 1 })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: from.name });
  await expect(row).toContainText(from.email);
  await expect(row).toContainText("Active");
  await row.getByRole("link", { name: from.name }).click();
  await expect(page).toHaveURL(/\/admin\/doctors\/[^/]+$/);
  const fromUid = page.url().split("/").at(-1)!;
  await expect(page.getByRole("heading", { name: from.name, level: 2 })).toBeVisible();

  // Two requests assigned to the doctor (order intake's doctor_uid).
  const lastNames = [`Requeue${t}a`, `Requeue${t}b`];
  const requests = [];
  for (const lastName of lastNames) {
    requests.push(await orderWithAnamnesis(page.request, d, lastName, `e2e-requeue-${lastName.toLowerCase()}`, { doctor_uid: fromUid }));
  }
  await page.reload();

  // Practice address (the prescriber details) and minutes to respond (the settings).
  const prescriber = page.getByRole("form", { name: "Prescriber details" });
  await prescriber.getByLabel("Professional title").fill("Fachärztin für Dermatologie");
  await prescriber.getByLabel("Street and number").fill("Schlossstraße 7");
  await prescriber.getByLabel("Postal code").fill("12163");
  await prescriber.getByLabel("City").fill("Berlin");
  await prescriber.getByLabel("Country").fill("DE");
  await prescriber.getByLabel("Telephone").fill("+49 30 7654321");
  await prescriber.getByRole("button", { name: "Save prescriber details" }).click();
  await expect(page.getByText("Saved. Prescriptions signed from now on show these details.")).toBeVisible();

  const settings = page.getByRole("form", { name: "Doctor settings" });
  await settings.getByLabel("Minutes to respond").fill("0");
  await settings.getByRole("button", { name: "Save doctor settings" }).click();
  await expect(settings.getByText("Enter a whole number of minutes from 1 to 525600, or leave it empty.")).toBeVisible();
  await settings.getByLabel("Minutes to respond").fill("45");
  await settings.getByLabel("Can see all prescriptions").uncheck();
  await settings.getByRole("group", { name: "Assigned questionnaires" }).getByRole("checkbox").first().check();
  await settings.getByRole("button", { name: "Save doctor settings" }).click();
  await expect(page.getByText("Saved.", { exact: true })).toBeVisible();

  // Requeue to the colleague: asked once, then both requests move.
  const requeue = page.getByRole("region", { name: "Requeue pending prescriptions" });
  await expect(requeue).toContainText("Assigned to this doctor: 2 waiting, 0 on hold, 0 approved and not signed yet.");
  await shotAt(page, "admin-doctor-detail");
  await requeue.getByLabel("Move them to").selectOption({ label: to.name });
  await requeue.getByRole("button", { name: "Requeue pending prescriptions" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Requeue the pending prescriptions of ${from.name} to ${to.name}?` });
  await expect(confirm).toContainText(`2 requests move to ${to.name}'s queue. Approved ones stay.`);
  await confirm.getByRole("button", { name: "Confirm requeue" }).click();
  await expect(requeue.getByText("2 requests requeued.")).toBeVisible();
  await expect(requeue).toContainText("Assigned to this doctor: 0 waiting, 0 on hold, 0 approved and not signed yet.");

  // After a reload the settings are kept.
  await page.reload();
  await expect(settings.getByLabel("Minutes to respond")).toHaveValue("45");
  await expect(settings.getByLabel("Can see all prescriptions")).not.toBeChecked();
  await expect(settings.getByRole("group", { name: "Assigned questionnaires" }).getByRole("checkbox").first()).toBeChecked();
  await expect(prescriber.getByLabel("Street and number")).toHaveValue("Schlossstraße 7");

  // The list: the colleague has the two pending requests now.
  await page.goto("/admin/doctors");
  // Columns: name, e-mail, minutes to respond, can sign, sees all, pending requests, state.
  await expect(page.getByRole("row").filter({ hasText: to.name }).getByRole("cell").nth(5)).toHaveText(/(^|\D)2$/);
  await expect(page.getByRole("row").filter({ hasText: from.name })).toContainText("45 minutes");
  await shotAt(page, "admin-doctors");

  // The audit log has each change.
  await page.goto("/admin/audit-log");
  await expect(page.getByRole("link", { name: `Doctor "${from.name}": minutes to respond, can see all prescriptions, assigned questionnaires changed` })).toBeVisible();
  await expect(page.getByRole("link", { name: `2 pending prescription(s) of "${from.name}" requeued to "${to.name}"` })).toBeVisible();

  // The colleague signs in to the doctors' workspace: both requests are in their queue.
  const theirs = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const colleague = await theirs.newPage();
  await signInAs(colleague, { email: to.email, password: PASSWORD }, "/admin/doctor", { fresh: true });
  await expect(colleague.getByRole("heading", { name: "Prescription requests" })).toBeVisible();
  for (const [i, r] of requests.entries()) {
    await expect(colleague.locator(`a[href="/admin/doctor/requests/${r.prescriptionUid}"]`)).toHaveText(`Erika ${lastNames[i]}`);
  }
  await theirs.close();
});
