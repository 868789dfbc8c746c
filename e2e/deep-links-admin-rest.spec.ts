/**
 * The admin tool's home, people and settings pages and the doctors' workspace (issue 22, second
 * pass): the lists' filters live in the URL — the audit log's (kind, who, dates, text, entity uid)
 * and the doctor's statistics range — so a deep link opens them, and a reload and the back button
 * keep them; and the same pages speak German (screenshots at 390 and 1440 px in both languages, with
 * `npm run screenshots`, go to test-results/admin-rest).
 */
import { expect, test } from "@playwright/test";
import { hydrated, readDemoFile, signInAs } from "./demo";
import { settled } from "./page-checks";
import { screenshot, SCREENSHOTS } from "./screenshots";

const demo = () => readDemoFile();
const shot = (name: string) => `test-results/admin-rest/${name}.png`;

test("the audit log's filters are in the URL: a deep link, a reload and back keep them", async ({ page }) => {
  await signInAs(page, demo().users.admin, "/admin/audit-log");
  const filters = page.getByRole("form", { name: "Filters" });

  await filters.getByLabel("Kind").selectOption({ label: "API keys" });
  await expect(page).toHaveURL(/\/admin\/audit-log\?kind=api_key$/);
  await filters.getByLabel("Text").fill("created");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/admin\/audit-log\?kind=api_key&text=created$/);
  await filters.getByLabel("From date").fill("2020-01-01");
  await expect(page).toHaveURL(/\/admin\/audit-log\?kind=api_key&text=created&from=2020-01-01$/);

  const kept = async () => {
    await expect(filters.getByLabel("Kind")).toHaveValue("api_key");
    await expect(filters.getByLabel("Text")).toHaveValue("created");
    await expect(filters.getByLabel("From date")).toHaveValue("2020-01-01");
    // Every row shown is of the kind chosen.
    const kinds = page.getByRole("table", { name: "Audit log" }).getByRole("row").filter({ hasNot: page.getByRole("columnheader") });
    for (const row of await kinds.all()) await expect(row).toContainText("API keys");
  };
  await settled(page);
  await kept();

  await page.reload();
  await settled(page);
  await kept();

  await page.getByRole("navigation", { name: "Admin tool" }).getByRole("link", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/audit-log\?kind=api_key&text=created&from=2020-01-01$/);
  await settled(page);
  await kept();

  // A deep link opens with its filters; clearing one takes it out of the URL.
  await page.goto("/admin/audit-log?actor=SYSTEM&entity=no-such-entity");
  await settled(page);
  await expect(filters.getByLabel("Who")).toHaveValue("SYSTEM");
  await expect(filters.getByLabel("Entity uid")).toHaveValue("no-such-entity");
  await expect(page.getByText("No entries match these filters")).toBeVisible();
  await filters.getByLabel("Entity uid").fill("");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/admin\/audit-log\?actor=SYSTEM$/);
});

test("the doctor's statistics range is in the URL: a reload and back keep it", async ({ page }) => {
  await signInAs(page, demo().users.doctor, "/admin/doctor");
  await page.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "My statistics" }).click();
  await expect(page).toHaveURL(/\/admin\/doctor\/statistics$/);
  await hydrated(page);
  await page.getByLabel("From", { exact: true }).fill("2024-01-01");
  await expect(page).toHaveURL(/\?from=2024-01-01&to=/);
  await page.getByLabel("To", { exact: true }).fill("2024-12-31");
  await expect(page).toHaveURL(/\/admin\/doctor\/statistics\?from=2024-01-01&to=2024-12-31$/);
  await page.reload();
  await settled(page);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2024-01-01");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("2024-12-31");
  await page.getByRole("navigation", { name: "Doctors' workspace" }).getByRole("link", { name: "Requests" }).click();
  await expect(page).toHaveURL(/\/admin\/doctor$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/doctor\/statistics\?from=2024-01-01&to=2024-12-31$/);
  await hydrated(page);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2024-01-01");
});

/** The area's pages in German, each with its German heading; screenshots at 390 and 1440 px in both languages. */
const ADMIN_PAGES: [string, string, string][] = [
  ["/admin", "", ""],
  ["/admin/users", "Users", "Benutzer"],
  ["/admin/settings", "Settings", "Einstellungen"],
  ["/admin/api-keys", "API keys", "API-Schlüssel"],
  ["/admin/telemedicine-providers", "Telemedicine providers", "Telemedizin-Anbieter"],
  ["/admin/questionnaires", "Questionnaires", "Fragebögen"],
  ["/admin/audit-log", "Audit log", "Änderungsprotokoll"],
];
const DOCTOR_PAGES: [string, string, string][] = [
  ["/admin/doctor", "Prescription requests", "Rezeptanfragen"],
  ["/admin/doctor/sign-centre", "Sign centre", "Signaturmappe"],
  ["/admin/doctor/waiting-room", "Waiting room", "Wartezimmer"],
  ["/admin/doctor/statistics", "My statistics", "Meine Statistik"],
  ["/admin/doctor/signature", "My signature", "Meine Signatur"],
];

for (const [role, pages, landing, portal] of [
  ["admin", ADMIN_PAGES, "/admin", "Verwaltung"],
  ["doctor", DOCTOR_PAGES, "/admin/doctor", "Arztbereich"],
] as const) {
  test(`the ${role}'s pages speak German and English`, async ({ page, context, baseURL }) => {
    // Two dozen page loads: a wider hang guard than one page's.
    await signInAs(page, demo().users[role], landing);
    for (const locale of ["en", "de"] as const) {
      await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL! }]);
      for (const [path, english, german] of pages) {
        // Every page's fit at 390, 768 and 1440 px is e2e/every-page.spec.ts; here only the words.
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(path);
        await settled(page);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        if (english) await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "de" ? german : english);
        if (locale === "de") {
          await expect(page.getByRole("link", { name: "Zum Hauptinhalt springen" })).toHaveCount(1);
          await expect(page.getByRole("navigation", { name: portal })).toBeVisible();
        }
        if (SCREENSHOTS) {
          await screenshot(page, shot(`${role}${path.replaceAll("/", "-")}-${locale}-1440`));
          await page.setViewportSize({ width: 390, height: 900 });
          await screenshot(page, shot(`${role}${path.replaceAll("/", "-")}-${locale}-390`));
        }
      }
    }
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
  });
}
