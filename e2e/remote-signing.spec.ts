/**
 * Qualified signatures outside the sandbox, through the portals, against the stand-in trust service
 * this spec starts (tests/csc-stand-in.ts, answering as the CSC API v2 says): an admin connects the
 * organisation's trust service in Settings; the doctor links their own credential (a stranger's
 * certificate under the same user id is offered with the reason it cannot be linked); a request is
 * signed with the one-time password the stand-in issued — a wrong one signs nothing — and the
 * pharmacy opens the order and its prescription, whose signature pdfsig finds valid in the doctor's
 * name. Runs its own production server (the build from the Playwright web server): the stand-in
 * listens on 127.0.0.1, which only a server with private targets allowed may reach, and the seeded
 * organisation leaves the sandbox between two starts (e2e/leave-sandbox.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startCscStandIn, type CscStandIn } from "../tests/csc-stand-in";
import { pdfsig } from "../tests/pdfsig";
import { orderWithAnamnesis, prescriptionCanvas, signInAs, type DemoFile } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { SCREENSHOTS, screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 98;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-remote-signing-${port}`);
const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "remote-signing");
const EPA = "/v1/external_pharmacy_api";

async function shot(page: Page, name: string) {
  if (SCREENSHOTS) await screenshot(page, path.join(shots, `${name}.png`));
}

/** Stops the server and waits until its process has gone (the embedded database is then free). */
async function stopOwnServer(server: OwnServer): Promise<void> {
  const gone = new Promise<void>((resolve) => (server.process.exitCode !== null ? resolve() : server.process.once("exit", () => resolve())));
  signalOwnServer(server, "SIGTERM");
  await gone;
}

async function pharmacyOrderOf(request: APIRequestContext, d: DemoFile, externalId: string) {
  const response = await request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: externalId })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  expect(response.ok()).toBe(true);
  return ((await response.json()).data as { uid: string; name: string }[])[0];
}

test("a doctor links their credential at the trust service and signs with its one-time password; the pharmacy opens the signed prescription", async ({ browser }) => {
  test.setTimeout(600_000);
  rmSync(dataDir, { recursive: true, force: true });
  const standIn: CscStandIn = await startCscStandIn({ name: "Stand-in QTSP" });
  let server: OwnServer | null = null;
  try {
    const env = await ownServerEnv({ port, dataDir, databaseSuffix: "remote_signing", extra: { QES_TRUST_ANCHORS: standIn.caPem } });
    server = await startOwnServer(env);
    const d = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as DemoFile;
    await stopOwnServer(server);
    const left = spawnSync(process.execPath, ["--import", "tsx", "e2e/leave-sandbox.ts", d.organisation_uid], { cwd: root, env, encoding: "utf8" });
    expect(left.status, left.stderr).toBe(0);
    server = await startOwnServer(env);

    const own = await standIn.addCredential({ userId: "anna.weber", commonName: "Dr. Anna Weber" });
    await standIn.addCredential({ userId: "anna.weber", commonName: "Erika Muster" });

    // The admin connects the trust service.
    const adminContext = await browser.newContext({ baseURL: base });
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, d.users.admin, "/admin/settings", { fresh: true });
    const section = adminPage.getByRole("region", { name: "Trust service" });
    await expect(section.getByText("Not connected: outside the sandbox, prescriptions cannot be signed.")).toBeVisible();
    const form = section.getByRole("form", { name: "Trust service connection" });
    await form.getByLabel("Name", { exact: true }).fill("Stand-in QTSP");
    await form.getByLabel("CSC API base URL").fill(standIn.baseUrl);
    await form.getByLabel("Client id").fill(standIn.clientId);
    await form.getByRole("button", { name: "Save connection" }).click();
    await expect(form.getByText("Enter the client secret.")).toBeVisible();
    await form.getByLabel("Client secret").fill(standIn.clientSecret);
    await form.getByRole("button", { name: "Save connection" }).click();
    await expect(section.getByText(`Connected to Stand-in QTSP at ${standIn.baseUrl} with client ${standIn.clientId} and secret …${standIn.clientSecret.slice(-4)}`, { exact: false })).toBeVisible();
    await expect(form.getByLabel("Client secret")).toHaveValue("");
    await section.getByRole("button", { name: "Test connection" }).click();
    await expect(section.getByText("Connection works: The trust service issued an access token (valid for 60 min).")).toBeVisible();
    await shot(adminPage, "settings-trust-service");
    await adminContext.close();

    // The doctor links their own credential.
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signInAs(page, d.users.doctor, "/admin/doctor/signature", { fresh: true });
    await expect(page.getByRole("heading", { name: "My signature" })).toBeVisible();
    await expect(page.getByText("You have not linked a credential at Stand-in QTSP yet")).toBeVisible();
    await page.getByLabel("Your user id at Stand-in QTSP").fill("anna.weber");
    await page.getByRole("button", { name: "Find my credentials" }).click();
    const choices = page.getByRole("list", { name: "Credentials at Stand-in QTSP" });
    await expect(choices.getByText("The certificate is in the name of Erika Muster, not of Dr. Anna Weber: only your own credential can sign your prescriptions.")).toBeVisible();
    await expect(choices.getByRole("button", { name: "Link credential Erika Muster" })).toHaveCount(0);
    await shot(page, "doctor-signature-choices");
    await choices.getByRole("button", { name: "Link credential Dr. Anna Weber" }).click();
    await expect(page.getByText("Linked. Your prescriptions are now signed with this credential.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Your signing credential" })).toContainText("Certificate of Dr. Anna Weber, issued by Stand-in QTSP");
    await shot(page, "doctor-signature-linked");

    // A request signed with the stand-in's one-time password; a wrong one first signs nothing.
    const lastName = `Remote${Math.random().toString(36).slice(2, 8)}`;
    const { externalId, prescriptionUid } = await orderWithAnamnesis(page.request, d, lastName, `e2e-remote-${lastName.toLowerCase()}`);
    await page.goto(`/admin/doctor/requests/${prescriptionUid}`);
    // The dosage instructions, offered from the product, are confirmed first: signing needs them saved.
    const dosage = page.getByRole("form", { name: "Dosage instructions" });
    await dosage.getByRole("button", { name: "Save dosage instructions" }).click();
    await expect(page.getByText("Dosage instructions saved.")).toBeVisible();
    await page.getByRole("button", { name: "Sign prescription" }).click();
    const dialog = page.getByRole("alertdialog", { name: `Sign the prescription for Erika ${lastName}?` });
    await expect(dialog.getByText("Signed with your credential at Stand-in QTSP: the certificate of Dr. Anna Weber.")).toBeVisible();
    const otp = standIn.issueOtp(own);
    await dialog.getByLabel("One-time password").fill(otp === "000000" ? "111111" : "000000");
    await dialog.getByRole("button", { name: "Sign with QES" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(/^The trust service refused the one-time password\. Nothing was signed/);
    await expect(dialog.getByLabel("One-time password")).toHaveValue("");
    await shot(page, "doctor-sign-wrong-otp");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await expect(page.getByRole("button", { name: "Sign prescription" })).toBeVisible();
    expect(await pharmacyOrderOf(page.request, d, externalId)).toBeUndefined();

    await page.getByRole("button", { name: "Sign prescription" }).click();
    await dialog.getByLabel("One-time password").fill(standIn.issueOtp(own));
    await dialog.getByRole("button", { name: "Sign with QES" }).click();
    await expect(page.getByText("Signed. The order goes to the pharmacy.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign prescription" })).toHaveCount(0);

    // The pharmacy gets the order, with the prescription the doctor signed.
    await expect.poll(async () => (await pharmacyOrderOf(page.request, d, externalId))?.uid, { timeout: 30_000 }).toBeTruthy();
    const po = (await pharmacyOrderOf(page.request, d, externalId))!;
    const detail = await page.request.get(`${EPA}/pharmacy_orders/${po.uid}/`, { headers: { "X-API-Key": d.keys.pharmacy } });
    const file = ((await detail.json()) as { prescription_file: { content_base64: string } | null }).prescription_file;
    const verdict = pdfsig(Buffer.from(file!.content_base64, "base64"), standIn.caPem);
    expect(verdict, verdict.output).toMatchObject({ signerCommonName: "Dr. Anna Weber", signatureValid: true, certificateTrusted: true });
    await context.close();

    const pharmacyContext = await browser.newContext({ baseURL: base });
    const pharmacyPage = await pharmacyContext.newPage();
    await signInAs(pharmacyPage, d.users.pharmacist, "/pharmacy/orders", { fresh: true });
    await pharmacyPage.getByLabel("Search").fill(lastName);
    await pharmacyPage.getByRole("link", { name: po.name }).click();
    await expect(pharmacyPage).toHaveURL(new RegExp(`/pharmacy/orders/${po.uid}$`));
    await expect(await prescriptionCanvas(pharmacyPage)).toBeVisible();
    await pharmacyContext.close();
  } finally {
    signalOwnServer(server, "SIGTERM");
    await standIn.close();
  }
});
