/**
 * E-mail through the admin tool: an admin invites a user while a mail server is configured; the
 * invitation arrives at the SMTP server (a stand-in started by this spec, tests/smtp-server.ts), its
 * link sets the password, and the E-mail page shows the message as sent. Runs its own production
 * server (the build from the Playwright web server) with SMTP_URL pointing at the stand-in, so the
 * shared e2e server and the other specs stay without a mailer.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startSmtpServer } from "../tests/smtp-server";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 70;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-mail-${port}`);
const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "admin-mail");

test("an admin invites a user: the invitation arrives by e-mail, its link works, the E-mail page shows it sent; a refused one is sent again", async ({ browser }) => {
  rmSync(dataDir, { recursive: true, force: true });
  const smtp = await startSmtpServer();
  let server: OwnServer | null = null;
  try {
    const env = await ownServerEnv({ port, dataDir, databaseSuffix: "mail", extra: { SMTP_URL: smtp.url, MAIL_FROM: "Rx Sandbox <no-reply@rx.example>" } });
    server = await startOwnServer(env);
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8"));
    const email = `mailed-${Date.now()}@example.com`;
    const password = "a long enough password";

    const admin = await browser.newContext({ baseURL: base });
    const page = await admin.newPage();
    await signInAs(page, demo.users.admin, "/admin/users", { fresh: true });
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Name", { exact: true }).fill("Mia Mailed");
    await page.getByLabel("Role").selectOption({ label: "Admin" });
    await page.getByRole("button", { name: "Invite user" }).click();
    await expect(page.getByText(`${email} is invited: the link to choose a password is on its way to them by e-mail (see E-mail).`)).toBeVisible();
    // The admin never sees the link: it went to the user.
    await expect(page.getByLabel("Invitation link")).toHaveCount(0);

    await expect.poll(() => smtp.received.filter((m) => m.to.includes(email)).length).toBe(1);
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail.subject).toMatch(/^Ihre Einladung zu /);
    const link = /https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    // The invited user, in a browser of their own, opens the link from the e-mail.
    const theirs = await browser.newContext({ baseURL: base });
    const them = await theirs.newPage();
    await them.goto(new URL(link!).pathname);
    await them.getByLabel("New password").fill(password);
    await them.getByLabel("Confirm password").fill(password);
    await them.getByRole("button", { name: "Set password" }).click();
    await expect(them.getByText("Your password is set.")).toBeVisible();
    await theirs.close();

    await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "E-mail" }).click();
    await expect(page).toHaveURL(/\/admin\/email$/);
    await expect(page.getByRole("heading", { level: 1, name: "E-mail" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row).toContainText("Invitation");
    await expect(row).toContainText("Sent");
    await expect(row).toContainText("1 attempt");
    await screenshot(page, path.join(shots, "admin-email.png"));

    // A second invitation the mail server refuses for good: failed with its reason, then sent again.
    const bounced = `bounced-${Date.now()}@example.com`;
    smtp.answers.push({ code: 550, message: "5.1.1 Mailbox unavailable" });
    await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Users" }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await page.getByLabel("E-mail").fill(bounced);
    await page.getByLabel("Name", { exact: true }).fill("Bo Unced");
    await page.getByLabel("Role").selectOption({ label: "Admin" });
    await page.getByRole("button", { name: "Invite user" }).click();
    await expect(page.getByText(`${bounced} is invited`)).toBeVisible();
    await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "E-mail" }).click();
    await expect(page).toHaveURL(/\/admin\/email$/);
    const failed = page.getByRole("row").filter({ hasText: bounced });
    await expect(failed).toContainText("Failed");
    await expect(failed).toContainText("550 5.1.1 Mailbox unavailable");
    await screenshot(page, path.join(shots, "admin-email-failed.png"));
    await failed.getByRole("button", { name: `Send the e-mail to ${bounced} again` }).click();
    await page.getByRole("alertdialog", { name: `Send the e-mail to ${bounced} again?` }).getByRole("button", { name: "Confirm send again" }).click();
    await expect(page.getByText(`The e-mail to ${bounced} is on its way again.`)).toBeVisible();
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(bounced)).length).toBe(1);
    await expect(failed).toContainText("Sent");
    await expect(failed).toContainText("2 attempts");

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, path.join(shots, "admin-email-390.png"));
    await page.setViewportSize({ width: 1280, height: 900 });

    // Filtered to failed ones, it is not listed.
    await page.getByLabel("Status").selectOption({ label: "Failed" });
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByText("No e-mails with this status")).toBeVisible();

    // Meeting e-mails: off by default, switched on for the patient in Settings.
    await page.goto("/admin/settings#meeting-emails");
    const meetingEmails = page.getByRole("form", { name: "Meeting e-mails" });
    const patient = meetingEmails.getByRole("checkbox", { name: /The patient/ });
    await expect(patient).not.toBeChecked();
    await patient.check();
    await meetingEmails.getByRole("button", { name: "Save meeting e-mails" }).click();
    await expect(meetingEmails.getByText("Meeting e-mails saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("form", { name: "Meeting e-mails" }).getByRole("checkbox", { name: /The patient/ })).toBeChecked();
    await screenshot(page, path.join(shots, "admin-settings-meeting-emails.png"));
    await admin.close();
  } finally {
    signalOwnServer(server, "SIGTERM");
    const running = server?.process;
    if (running && running.exitCode === null && running.signalCode === null) await new Promise((r) => running.once("exit", r));
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
