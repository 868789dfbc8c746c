import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, SCREENSHOTS } from "./screenshots";
import { orderWithAnamnesis, otcItem, placeOrder, readDemoFile, signInAs, type DemoFile } from "./demo";
import { layoutProblems, recordViolations, seriousAccessibilityViolations, settled, WIDTHS } from "./page-checks";

/**
 * Every page of both portals (and the pages around them), opened as the role it is for: at 390,
 * 768 and 1440 px (opened once, resized) nothing scrolls the page sideways and no action lies off-screen; axe finds
 * nothing serious or critical; nothing breaks the page's content security policy (a violation,
 * as the browser reports it, fails the test — the policies themselves: e2e/security-headers.spec.ts). With SCREENSHOTS=1 (`npm run screenshots`) the main tasks' pages
 * are also saved at 390 and 1440 px under docs/screenshots/pages/.
 */

type Role = "admin" | "doctor" | "pharmacist" | null;
type PageCase = { path: string; main?: boolean };

const EPA = "/v1/external_pharmacy_api";

/** Detail pages are reached through the first link of their list, as a user would. */
async function firstLink(page: Page, listPath: string, prefix: string): Promise<string> {
  await page.goto(listPath);
  await settled(page);
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute("href");
  expect(href, `a link to ${prefix}… on ${listPath}`).toBeTruthy();
  return new URL(href!, "http://x").pathname;
}

/** Data every detail page needs: an order waiting for a doctor, and a held order with an issue thread. */
async function seed(page: Page, d: DemoFile) {
  const tag = Date.now().toString(36);
  const { prescriptionUid } = await orderWithAnamnesis(page.request, d, `Seite-${tag}`, `every-page-${tag}`);
  const held = await placeOrder(page.request, d, { externalId: `every-page-held-${tag}`, lastName: `Halt-${tag}`, pharmacyUid: d.pharmacies[0]!.uid, items: [otcItem(d)] });
  const list = await page.request.get(`${EPA}/pharmacy_orders/?${new URLSearchParams({ search: `every-page-held-${tag}` })}`, { headers: { "X-API-Key": d.keys.pharmacy } });
  const pharmacyOrderUid = ((await list.json()) as { data: { uid: string }[] }).data[0]!.uid;
  const hold = await page.request.patch(`${EPA}/pharmacy_orders/${pharmacyOrderUid}/status`, {
    headers: { "X-API-Key": d.keys.pharmacy },
    data: { status: "on-hold", comment: "Please confirm the dosage." },
  });
  expect(hold.status(), await hold.text()).toBe(200);
  return { prescriptionUid, orderUid: held.uid, pharmacyOrderUid };
}

async function pagesOf(page: Page, role: Role, seeded: Awaited<ReturnType<typeof seed>>): Promise<PageCase[]> {
  if (role === "pharmacist")
    return [
      { path: "/pharmacy", main: true },
      { path: "/pharmacy/orders", main: true },
      { path: `/pharmacy/orders/${seeded.pharmacyOrderUid}`, main: true },
      { path: "/pharmacy/wallet-pass", main: true },
      { path: "/pharmacy/stock", main: true },
      { path: "/pharmacy/payouts" },
      { path: "/pharmacy/api-access/webhooks" },
      { path: "/pharmacy/api-access/delivery-logs" },
      { path: "/pharmacy/settings/api-keys" },
      { path: "/pharmacy/settings/shipping-methods" },
    ];
  if (role === "doctor")
    return [
      { path: "/admin/doctor", main: true },
      { path: `/admin/doctor/requests/${seeded.prescriptionUid}`, main: true },
      { path: "/admin/doctor/sign-centre", main: true },
      { path: "/admin/doctor/waiting-room" },
      { path: "/admin/doctor/appointments", main: true },
      { path: "/admin/doctor/statistics" },
      { path: "/admin/doctor/signature" },
    ];
  if (role === "admin")
    return [
      { path: "/admin", main: true },
      { path: "/admin/orders", main: true },
      { path: `/admin/orders/${seeded.orderUid}`, main: true },
      { path: "/admin/patients", main: true },
      { path: await firstLink(page, `/admin/orders/${seeded.orderUid}`, "/admin/patients/"), main: true },
      { path: "/admin/prescriptions" },
      { path: "/admin/appointments", main: true },
      { path: `/admin/prescriptions/${seeded.prescriptionUid}` },
      { path: "/admin/payouts" },
      { path: "/admin/issues", main: true },
      { path: await firstLink(page, "/admin/issues", "/admin/issues/"), main: true },
      { path: "/admin/catalogue" },
      { path: await firstLink(page, "/admin/catalogue", "/admin/catalogue/products/") },
      { path: "/admin/pharmacies" },
      { path: await firstLink(page, "/admin/pharmacies", "/admin/pharmacies/") },
      { path: "/admin/pharmacy-stock" },
      { path: "/admin/shops" },
      { path: "/admin/users" },
      { path: await firstLink(page, "/admin/users", "/admin/doctors/") },
      { path: "/admin/doctors" },
      { path: "/admin/questionnaires" },
      { path: await firstLink(page, "/admin/questionnaires", "/admin/questionnaires/") },
      { path: "/admin/telemedicine-providers" },
      { path: "/admin/api-keys" },
      { path: "/admin/webhooks" },
      { path: "/admin/webhooks/logs" },
      { path: "/admin/email" },
      { path: "/admin/audit-log" },
      { path: "/admin/settings" },
    ];
  return [{ path: "/", main: true }, { path: "/signin", main: true }, { path: "/invitation/not-a-token" }, { path: "/reset-password/not-a-token" }];
}

const LANDING = { admin: "/admin", doctor: "/admin/doctor", pharmacist: "/pharmacy" } as const;
const screenshotDir = path.resolve(import.meta.dirname, "..", "docs", "screenshots", "pages");

test.describe.configure({ timeout: 600_000 });

for (const role of ["pharmacist", "doctor", "admin", null] as const) {
  test(`every page ${role ? `of the ${role}` : "outside the portals"} fits 390, 768 and 1440 px, passes axe and keeps to its CSP`, async ({ page, context }) => {
    const violations = await recordViolations(context);
    const d = readDemoFile();
    const seeded = await seed(page, d);
    if (role) await signInAs(page, d.users[role], LANDING[role]);
    const problems: string[] = [];
    for (const { path: pagePath, main } of await pagesOf(page, role, seeded)) {
      // Opened once, then resized: the portals respond to width with CSS alone (no script reads
      // the width), so a page resized to a width lays out as one opened at it.
      await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
      await page.goto(pagePath);
      await settled(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        for (const problem of await layoutProblems(page)) problems.push(`${pagePath} at ${width}px: ${problem}`);
        if (width === 1440) for (const violation of await seriousAccessibilityViolations(page)) problems.push(`${pagePath}: ${violation}`);
        if (SCREENSHOTS && main && width !== 768) {
          const name = `${(role ?? "public")}${pagePath.replace(/\/[0-9a-f-]{36}/g, "/detail").replaceAll("/", "-")}-${width}.png`;
          await screenshot(page, path.join(screenshotDir, name));
        }
      }
    }
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  });
}
