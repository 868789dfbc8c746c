/**
 * Appointments from the portals to the webhooks: an admin schedules, in the admin tool, an
 * appointment of the sandbox doctor whose reminder is due seconds later ("a reminder two minutes
 * ahead": it starts in 2 min 20 s, the reminder is 2 minutes before), and appointment_reminder_due
 * reaches the organisation's Management subscription; the doctor reschedules it in the doctors'
 * workspace, and the subscription receives patient_doctor_meeting_updated cancelled (the old
 * meeting) and rebooked (the new one); the admin cancels the new one, asked once and for a reason.
 *
 * Webhooks go to 127.0.0.1, which the shared e2e server refuses (SSRF guard), and the reminder job
 * must tick every second rather than every minute (APPOINTMENT_REMINDER_TICK_MS), so this spec runs
 * its own production server (the build of the Playwright web server) on its own data. The browser
 * works in Europe/Berlin: the form's times are wall-clock times there, UTC on the wire.
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 80;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-appointments-${port}`);
const shots = path.join(root, "test-results", "appointments");
const ZONE = "Europe/Berlin";

type Demo = {
  keys: { management: string };
  shop: { uid: string };
  doctor_uid: string;
  users: { admin: { email: string; password: string }; doctor: { email: string; password: string } };
};
type Delivery = { event_type: string; data: Record<string, unknown> };

let server: OwnServer | null = null;
let receiver: Server;
let demo: Demo;
const received: Delivery[] = [];

test.describe.configure({ mode: "serial" });
test.use({ baseURL: base, timezoneId: ZONE, viewport: { width: 1280, height: 900 } });

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.headers["x-webhook-test"] !== "true") received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Delivery);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  // The reminder job looks every second: the reminder arrives within a second of being due, not within a minute.
  server = await startOwnServer(await ownServerEnv({ port, dataDir, databaseSuffix: "appointments", extra: { APPOINTMENT_REMINDER_TICK_MS: "1000" } }));
  demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as Demo;
});

test.afterAll(async () => {
  signalOwnServer(server, "SIGTERM");
  receiver?.closeAllConnections();
  receiver?.close();
});

/** Unix seconds as the wall clock of ZONE, the way a datetime-local input takes it ("2026-03-03T10:03:20"). */
function wallClock(seconds: number): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(seconds * 1000));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}`;
}

const deliveries = (type: string) => received.filter((d) => d.event_type === type);
const meetingChanges = () => deliveries("patient_doctor_meeting_updated").map((d) => `${d.data.change}:${d.data.meeting_uid}`);

async function shot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, path.join(shots, `${name}-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a reminder two minutes ahead reaches the Management subscription; a reschedule sends cancelled and rebooked; a cancellation asks for its reason", async ({ browser }) => {
  const headers = { "X-API-Key": demo.keys.management, "Content-Type": "application/json" };
  for (const type of ["appointment_reminder_due", "patient_doctor_meeting_updated"]) {
    const subscribed = await fetch(`${base}/v1/management/notification-subscriptions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ notification_type: type, target: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${type}` }),
    });
    expect(subscribed.status).toBe(201);
  }
  // A patient of this spec's own, as an integrator registers one.
  const tag = Date.now().toString(36);
  const registered = await fetch(`${base}/v1/management/patients`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      shop_uid: demo.shop.uid,
      shop_customer_id: `appointments-${tag}`,
      email: `termin-${tag}@example.com`,
      fields: [
        { field: "first_name", value: "Tessa", source: "shop" },
        { field: "last_name", value: `Termin-${tag}`, source: "shop" },
      ],
    }),
  });
  expect(registered.status).toBe(201);
  const patientName = `Tessa Termin-${tag}`;

  // The admin tool: schedule it, starting in 2 min 20 s, the reminder 2 minutes before.
  const adminPage = await (await browser.newContext({ baseURL: base, timezoneId: ZONE, viewport: { width: 1280, height: 900 } })).newPage();
  await signInAs(adminPage, demo.users.admin, "/admin/appointments", { fresh: true });
  await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Appointments");
  await adminPage.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Appointments" }).click();
  await adminPage.getByRole("button", { name: "Schedule appointment" }).click();
  await adminPage.getByLabel("Find patient").fill(`termin-${tag}`);
  await expect(adminPage.getByLabel("Patient", { exact: true }).getByRole("option", { name: new RegExp(patientName) })).toHaveCount(1);
  await adminPage.getByLabel("Patient", { exact: true }).selectOption({ label: `${patientName} (termin-${tag}@example.com)` });
  await adminPage.getByLabel("Doctor", { exact: true }).selectOption(demo.doctor_uid);
  await adminPage.getByRole("button", { name: "Add reminder" }).click();
  await adminPage.getByLabel("Reminder 1: to whom").selectOption("patient");
  await adminPage.getByLabel("Reminder 1: minutes before the start").fill("2");
  await adminPage.getByLabel("Duration (minutes)").fill("30");
  const startsAt = Math.floor(Date.now() / 1000) + 140;
  await adminPage.getByLabel("Start", { exact: true }).fill(wallClock(startsAt));
  await shot(adminPage, "admin-schedule-form");
  await adminPage.getByRole("form", { name: "Schedule appointment" }).getByRole("button", { name: "Schedule appointment" }).click();
  await expect(adminPage.getByRole("status").filter({ hasText: `Appointment scheduled for ${patientName}.` })).toBeVisible();
  // The day it is on (the next one, just before midnight), as a link to it names it.
  await adminPage.goto(`/admin/appointments?day=${wallClock(startsAt).slice(0, 10)}`);
  const row = adminPage.getByRole("row").filter({ hasText: patientName });
  await expect(row).toContainText("Confirmed");
  await expect(row).toContainText("Patient · 2 min before");
  await expect(row).toContainText("Dr. Anna Weber");

  // Due 20 s after booking; the job ticks every second and the delivery follows at once.
  await expect.poll(() => deliveries("appointment_reminder_due").length, { timeout: 60_000 }).toBe(1);
  const reminder = deliveries("appointment_reminder_due")[0]!.data;
  expect(reminder).toMatchObject({ recipient_role: "patient", rebook_allowed: false, cancel_allowed: false, starts_at: startsAt });
  const booked = reminder.appointment_uid as string;
  await expect.poll(meetingChanges).toEqual([`confirmed:${booked}`]);
  await adminPage.reload();
  await expect(row).toContainText(/Patient · 2 min before · sent \d\d:\d\d/);
  await shot(adminPage, "admin-appointments");

  // The doctors' workspace: the doctor's own week, and the move, with a reason.
  const doctorPage = await (await browser.newContext({ baseURL: base, timezoneId: ZONE, viewport: { width: 1280, height: 900 } })).newPage();
  await signInAs(doctorPage, demo.users.doctor, "/admin/doctor", { fresh: true });
  await doctorPage.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "My appointments" }).click();
  await expect(doctorPage.getByRole("heading", { level: 1 })).toHaveText("My appointments");
  await doctorPage.getByRole("button", { name: "Week" }).click();
  await expect(doctorPage).toHaveURL(/view=week/);
  await doctorPage.goto(`/admin/doctor/appointments?view=week&day=${wallClock(startsAt).slice(0, 10)}`);
  const doctorRow = doctorPage.getByRole("row").filter({ hasText: patientName });
  await doctorRow.getByRole("button", { name: "Reschedule" }).click();
  const later = startsAt + 3600 - (startsAt % 60);
  const move = doctorPage.getByRole("form", { name: `Reschedule the appointment of ${patientName}` });
  await move.getByLabel("New start").fill(wallClock(later).slice(0, 16));
  await move.getByRole("button", { name: "Reschedule appointment" }).click();
  await expect(move.getByText("A reason is required to cancel or move an appointment.")).toBeVisible();
  await move.getByLabel("Reason").fill("The patient asked for a later time.");
  await shot(doctorPage, "doctor-reschedule");
  await move.getByRole("button", { name: "Reschedule appointment" }).click();
  await expect(doctorPage.getByRole("status").filter({ hasText: `The appointment of ${patientName} is moved to` })).toBeVisible();
  await expect(doctorPage.getByRole("row").filter({ hasText: "Moved to" })).toContainText("Cancelled");

  await expect.poll(() => meetingChanges().length).toBe(3);
  const rebooked = deliveries("patient_doctor_meeting_updated").find((d) => d.data.change === "rebooked")!.data;
  expect(meetingChanges()).toEqual(expect.arrayContaining([`cancelled:${booked}`, `rebooked:${rebooked.meeting_uid}`]));
  expect(rebooked).toMatchObject({ status: "confirmed" });
  expect(deliveries("patient_doctor_meeting_updated").find((d) => d.data.change === "cancelled")!.data).toMatchObject({ meeting_uid: booked, status: "cancelled" });

  // The admin cancels the new one: asked once, and not without a reason.
  await adminPage.goto(`/admin/appointments?day=${wallClock(later).slice(0, 10)}`);
  const current = adminPage.getByRole("row").filter({ hasText: "Moved from" });
  await current.getByRole("button", { name: "Cancel appointment" }).click();
  const dialog = adminPage.getByRole("alertdialog", { name: `Cancel the appointment of ${patientName}` });
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(dialog.getByText("A reason is required to cancel or move an appointment.")).toBeVisible();
  await dialog.getByLabel("Reason").fill("The doctor is ill.");
  await shot(adminPage, "admin-cancel-dialog");
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(dialog).toBeHidden();
  await expect(adminPage.getByRole("row").filter({ hasText: "Moved from" })).toContainText("Cancelled");
  await expect.poll(meetingChanges).toContain(`cancelled:${rebooked.meeting_uid}`);
  expect(deliveries("appointment_reminder_due")).toHaveLength(1);
});
