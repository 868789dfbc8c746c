/**
 * Approve, then sign many at once (issue 35 item 2), outside the sandbox against the stand-in trust
 * service (tests/csc-stand-in.ts), as e2e/remote-signing.spec.ts sets it up: a doctor approves five
 * requests (the dosage edited on one, the offered one confirmed on the others), finds them in the
 * Sign centre (its counter in the navigation), and signs all five in one batch with the stand-in's
 * one-time password — ONE credentials/authorize for five signatures and ONE signHash; with a wrong
 * one first, none is signed. Runs its own production server (the build from the Playwright run).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startCscStandIn, type CscStandIn } from "../tests/csc-stand-in";
import { orderWithAnamnesis, signInAs, type DemoFile } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { SCREENSHOTS, screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 97;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-sign-centre-${port}`);
const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "sign-centre");

async function stopOwnServer(server: OwnServer): Promise<void> {
  const gone = new Promise<void>((resolve) => (server.process.exitCode !== null ? resolve() : server.process.once("exit", () => resolve())));
  signalOwnServer(server, "SIGTERM");
  await gone;
}

async function approve(page: Page, prescriptionUid: string, patient: string, dosage?: string) {
  await page.goto(`/admin/doctor/requests/${prescriptionUid}`);
  const form = page.getByRole("form", { name: "Dosage instructions" });
  if (dosage) await form.getByRole("textbox").first().fill(dosage);
  await form.getByRole("button", { name: "Save dosage instructions" }).click();
  await expect(page.getByText("Dosage instructions saved.")).toBeVisible();
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: `Approve the prescription for ${patient}?` });
  await dialog.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByText("Approved. Sign it in the Sign centre, on its own or with others.")).toBeVisible();
  // Approved, not signed: signing it alone stays possible here.
  await expect(page.getByRole("button", { name: "Sign prescription" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
}

test("a doctor approves five requests and signs all five in one batch in the Sign centre; a wrong one-time password signs none", async ({ browser }) => {
  test.setTimeout(600_000);
  rmSync(dataDir, { recursive: true, force: true });
  const standIn: CscStandIn = await startCscStandIn({ name: "Stand-in QTSP" });
  let server: OwnServer | null = null;
  try {
    const env = await ownServerEnv({ port, dataDir, databaseSuffix: "sign_centre", extra: { QES_TRUST_ANCHORS: standIn.caPem } });
    server = await startOwnServer(env);
    const d = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as DemoFile;
    await stopOwnServer(server);
    const left = spawnSync(process.execPath, ["--import", "tsx", "e2e/leave-sandbox.ts", d.organisation_uid], { cwd: root, env, encoding: "utf8" });
    expect(left.status, left.stderr).toBe(0);
    server = await startOwnServer(env);
    const own = await standIn.addCredential({ userId: "anna.weber", commonName: "Dr. Anna Weber" });

    // The admin connects the trust service.
    const adminContext = await browser.newContext({ baseURL: base });
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, d.users.admin, "/admin/settings", { fresh: true });
    const form = adminPage.getByRole("region", { name: "Trust service" }).getByRole("form", { name: "Trust service connection" });
    await form.getByLabel("Name", { exact: true }).fill("Stand-in QTSP");
    await form.getByLabel("CSC API base URL").fill(standIn.baseUrl);
    await form.getByLabel("Client id").fill(standIn.clientId);
    await form.getByLabel("Client secret").fill(standIn.clientSecret);
    await form.getByRole("button", { name: "Save connection" }).click();
    await expect(adminPage.getByText(`Connected to Stand-in QTSP at ${standIn.baseUrl}`, { exact: false })).toBeVisible();
    await adminContext.close();

    // The doctor links their credential.
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signInAs(page, d.users.doctor, "/admin/doctor/signature", { fresh: true });
    await page.getByLabel("Your user id at Stand-in QTSP").fill("anna.weber");
    await page.getByRole("button", { name: "Find my credentials" }).click();
    await page.getByRole("list", { name: "Credentials at Stand-in QTSP" }).getByRole("button", { name: "Link credential Dr. Anna Weber" }).click();
    await expect(page.getByText("Linked. Your prescriptions are now signed with this credential.")).toBeVisible();

    // Five requests, approved one by one: the dosage edited on the first, the offered one confirmed on the others.
    const tag = Math.random().toString(36).slice(2, 7);
    const requests: { uid: string; patient: string }[] = [];
    for (let i = 1; i <= 5; i++) {
      const lastName = `Batch${tag}${i}`;
      const { prescriptionUid } = await orderWithAnamnesis(page.request, d, lastName, `e2e-batch-${tag}-${i}`);
      requests.push({ uid: prescriptionUid, patient: `Erika ${lastName}` });
    }
    for (const [i, r] of requests.entries()) await approve(page, r.uid, r.patient, i === 0 ? "2 tablets in the evening for 5 days" : undefined);

    // The Sign centre, its counter in the navigation.
    const nav = page.getByRole("navigation", { name: "Doctors' workspace" });
    await expect(nav.getByRole("link", { name: /Sign centre/ })).toContainText("5");
    await nav.getByRole("link", { name: /Sign centre/ }).click();
    await expect(page.getByRole("heading", { name: "Sign centre" })).toBeVisible();
    const list = page.getByRole("region", { name: "Approved prescriptions" });
    await expect(list.getByRole("list", { name: `Items for ${requests[0].patient}` })).toContainText("2 tablets in the evening for 5 days");
    for (const r of requests) await expect(list.getByRole("link", { name: r.patient })).toBeVisible();
    await screenshot(page, path.join(shots, "sign-centre-list.png"));
    if (SCREENSHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, path.join(shots, "sign-centre-list-phone.png"));
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    const signAll = async (otp: string) => {
      await list.getByLabel("Select all signable (5)").check();
      await expect(list.getByText("5 of 5 chosen")).toBeVisible();
      await list.getByRole("button", { name: "Sign 5 prescriptions" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Sign 5 prescriptions?" });
      await expect(dialog.getByRole("list", { name: "Prescriptions to sign" }).getByRole("listitem")).toHaveCount(5);
      await dialog.getByLabel("One-time password").fill(otp);
      await dialog.getByRole("button", { name: "Sign with QES" }).click();
      await expect(dialog).toBeHidden();
    };
    const outcomes = page.getByRole("region", { name: "Outcome of the batch" });

    // A wrong one-time password: none is signed, each says why.
    const before = standIn.calls("credentials/authorize").length;
    const issued = standIn.issueOtp(own);
    await signAll(issued === "000000" ? "111111" : "000000");
    await expect(outcomes.getByText("0 of 5 signed.")).toBeVisible();
    await expect(outcomes.getByText("not signed", { exact: true })).toHaveCount(5);
    await expect(outcomes.getByText(/The trust service refused the one-time password/).first()).toBeVisible();
    await screenshot(page, path.join(shots, "sign-centre-wrong-otp.png"));
    await outcomes.getByRole("button", { name: "Dismiss" }).click();
    await expect(nav.getByRole("link", { name: /Sign centre/ })).toContainText("5");

    // The right one: all five in one batch, one authorisation for five signatures, one signHash.
    const signHashes = standIn.calls("signatures/signHash").length;
    await signAll(standIn.issueOtp(own));
    await expect(outcomes.getByText("5 of 5 signed.")).toBeVisible();
    await expect(outcomes.getByText("signed", { exact: true })).toHaveCount(5);
    const asked = standIn.calls("credentials/authorize").slice(before);
    expect(asked.map((c) => (c.body as { numSignatures: number }).numSignatures)).toEqual([5, 5]);
    expect(standIn.calls("signatures/signHash").length - signHashes).toBe(1);
    await screenshot(page, path.join(shots, "sign-centre-signed.png"));
    await expect(page.getByText("No approved prescription waits for your signature")).toBeVisible();
    await expect(nav.getByRole("link", { name: /Sign centre/ })).not.toContainText("5");

    // Each request page shows its signature.
    await page.goto(`/admin/doctor/requests/${requests[0].uid}`);
    await expect(page.getByRole("heading", { name: "Signed prescription" })).toBeVisible();
    await context.close();
  } finally {
    signalOwnServer(server, "SIGTERM");
    await standIn.close();
  }
});
