/**
 * Split payouts through a payment provider: an admin connects the organisation's Mollie account in
 * Settings against a Mollie stand-in started by this spec (tests/mollie-stand-in.ts), tests the
 * connection and sets a pharmacy's Mollie organization id; an order paid with a Mollie payment is
 * completed, and its payout shows the route id Mollie answered on /admin/payouts. Runs its own
 * production server (the build from the Playwright web server): the stand-in listens on 127.0.0.1,
 * which only a server with private targets allowed may reach, and the shared server stays without
 * a provider.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startMollieStandIn } from "../tests/mollie-stand-in";
import { otcItem, placeOrder, signInAs, type DemoFile } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";
import { SCREENSHOTS, screenshot } from "./screenshots";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 95;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-mollie-${port}`);
const shots = path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "screenshots", "admin-payment-provider");
const API_KEY = "test_StandInE2eKey0123456789abcd";
const PAYMENT = "tr_E2ePayment1";

/** The page at a phone's and a desktop's width (screenshots on only), back at the spec's width after. */
async function shotsAtWidths(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  const before = page.viewportSize();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, path.join(shots, `${name}-${width}.png`));
  }
  if (before) await page.setViewportSize(before);
}

test("an admin connects Mollie and tests it; a completed order's payout shows its Mollie route id", async ({ browser }) => {
  rmSync(dataDir, { recursive: true, force: true });
  const mollie = await startMollieStandIn({ apiKey: API_KEY, payments: [PAYMENT] });
  let server: OwnServer | null = null;
  try {
    server = await startOwnServer(await ownServerEnv({ port, dataDir, databaseSuffix: "mollie", extra: { TASK_RETRY_BASE_MS: "500" } }));
    const d = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as DemoFile;
    const pharmacy = d.pharmacies[0]!;

    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signInAs(page, d.users.admin, "/admin/settings", { fresh: true });
    const section = page.getByRole("region", { name: "Payment provider" });
    await expect(section.getByText("Not connected.")).toBeVisible();
    await expect(section.getByRole("button", { name: "Test connection" })).toBeDisabled();

    const connection = section.getByRole("form", { name: "Mollie account" });
    await connection.getByLabel("API endpoint").fill(mollie.endpoint);
    await connection.getByLabel("API key").fill("not-a-key");
    await connection.getByRole("button", { name: "Save connection" }).click();
    await expect(connection.getByText("Enter a Mollie API key: live_ or test_ followed by its characters.")).toBeVisible();
    await connection.getByLabel("API key").fill(API_KEY);
    await connection.getByRole("button", { name: "Save connection" }).click();
    await expect(section.getByText(`Connected with API key test_…${API_KEY.slice(-4)} at ${mollie.endpoint}`)).toBeVisible();
    await expect(connection.getByLabel("API key")).toHaveValue("");

    await section.getByRole("button", { name: "Test connection" }).click();
    await expect(section.getByText(/^Connection works: Connected to Mollie profile "Stand-in pharmacy platform" \(pfl_StandIn01, test mode\)\.$/)).toBeVisible();
    expect(mollie.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    const organization = section.getByRole("form", { name: `Mollie organization id of ${pharmacy.display_name}` });
    await organization.getByLabel(`Mollie organization id of ${pharmacy.display_name}`).fill("org_E2ePharmacy");
    await organization.getByRole("button", { name: `Save the organization id for ${pharmacy.display_name}` }).click();
    await expect(organization.getByText("Saved.")).toBeVisible();
    await shotsAtWidths(page, "settings-payment-provider");

    /** An order paid with the Mollie payment, placed at `pharmacyUid` and completed there; its pharmacy order's uid. */
    const completedAt = async (pharmacyUid: string, externalId: string) => {
      const order = await placeOrder(context.request, d, {
        externalId: `${externalId}-${Date.now()}`,
        lastName: "Mollie",
        pharmacyUid,
        items: [otcItem(d)],
        fields: { additional_details: { mollie_payment_id: PAYMENT } },
      });
      const headers = { "X-API-Key": d.keys.pharmacy };
      const listed = await context.request.get(`/v1/external_pharmacy_api/pharmacy_orders/?${new URLSearchParams({ search: order.uid })}`, { headers });
      const pharmacyOrder = ((await listed.json()) as { data: { uid: string }[] }).data[0]!;
      const completed = await context.request.patch(`/v1/external_pharmacy_api/pharmacy_orders/${pharmacyOrder.uid}/complete_order`, { headers, data: {} });
      expect(completed.status(), await completed.text()).toBe(200);
      return pharmacyOrder.uid;
    };
    const pharmacyOrder = { uid: await completedAt(pharmacy.uid, "e2e-mollie") };

    await expect.poll(() => mollie.routes.length).toBeGreaterThan(0);
    const [post] = mollie.routePosts();
    expect(post.path).toBe(`/v2/payments/${PAYMENT}/routes`);
    expect(JSON.parse(post.body)).toMatchObject({ destination: { type: "organization", organizationId: "org_E2ePharmacy" } });

    await page.goto(`/admin/payouts?q=${pharmacyOrder.uid}`);
    const rows = page.getByRole("table", { name: "Payouts" }).getByRole("row").filter({ hasText: pharmacyOrder.uid });
    await expect(async () => {
      await page.reload();
      await expect(rows.filter({ hasText: mollie.routes[0]!.id })).toHaveCount(1, { timeout: 2_000 });
    }).toPass();
    await shotsAtWidths(page, "admin-payouts-routed");

    // Without an organization id the route fails at once, shown with the reason; once the id is
    // set, an admin's Retry routes it.
    const organizationForm = () => page.getByRole("form", { name: `Mollie organization id of ${pharmacy.display_name}` });
    const setOrganization = async (value: string) => {
      await page.goto("/admin/settings");
      await organizationForm().getByRole("textbox", { name: `Mollie organization id of ${pharmacy.display_name}` }).fill(value);
      await organizationForm().getByRole("button", { name: `Save the organization id for ${pharmacy.display_name}` }).click();
      await expect(organizationForm().getByText("Saved.")).toBeVisible();
    };
    await setOrganization("");
    const failing = await completedAt(pharmacy.uid, "e2e-mollie-retry");
    await page.goto(`/admin/payouts?q=${failing}`);
    const failed = page.getByRole("table", { name: "Payouts" }).getByRole("row").filter({ hasText: failing }).first();
    await expect(async () => {
      await page.reload();
      await expect(failed).toContainText("Route failed: The receiving pharmacy has no Mollie organization id.", { timeout: 2_000 });
    }).toPass();
    await shotsAtWidths(page, "admin-payouts-failed");
    await setOrganization("org_E2eSecond");
    await page.goto(`/admin/payouts?q=${failing}`);
    await failed.getByRole("button", { name: /^Retry the route of / }).click();
    const dialog = page.getByRole("alertdialog", { name: "Retry the route at Mollie?" });
    await dialog.getByRole("button", { name: "Confirm retry" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => mollie.routes.filter((r) => r.destination.organizationId === "org_E2eSecond").length).toBe(1);
    await expect(async () => {
      await page.reload();
      await expect(failed).toContainText(mollie.routes.find((r) => r.destination.organizationId === "org_E2eSecond")!.id, { timeout: 2_000 });
    }).toPass();
    await context.close();
  } finally {
    signalOwnServer(server, "SIGTERM");
    await mollie.close();
  }
});
