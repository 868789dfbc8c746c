import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Page } from "@playwright/test";

/** The widths every portal page must work at: a phone, a tablet at the counter, a desktop. */
export const WIDTHS = [390, 768, 1440] as const;

/**
 * What does not fit at the current viewport width: the page scrolls sideways, or a control
 * (button, link, field) lies outside the viewport without being inside a region that scrolls on
 * its own (a table scrolling inside its card may hide cells; the page may not hide actions).
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const root = document.documentElement;
    if (root.scrollWidth > width) problems.push(`the page scrolls sideways: ${root.scrollWidth}px wide at ${width}px`);
    const scrollsOnItsOwn = (element: Element): boolean => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === "auto" || overflow === "scroll") return true;
      }
      return false;
    };
    for (const control of document.querySelectorAll("main button, main a[href], main input, main select, main textarea, header button, header a[href]")) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (getComputedStyle(control).visibility === "hidden") continue;
      if ((box.right > width + 1 || box.left < -1) && !scrollsOnItsOwn(control)) {
        const name = control.getAttribute("aria-label") ?? (control as HTMLElement).innerText?.trim() ?? control.tagName;
        problems.push(`${control.tagName.toLowerCase()} "${name.slice(0, 40)}" is outside the viewport (${Math.round(box.left)}–${Math.round(box.right)} of ${width})`);
      }
    }
    return problems;
  });
}

/** The serious and critical findings of axe (WCAG 2.1 A and AA rules) on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
}

/** Waits until a portal page has hydrated and its data has arrived (no loading placeholder left). */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.waitForLoadState("networkidle");
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Records every CSP violation of the context's pages (the event, and Chromium's console message), and every word missing from a page's catalogue. */
export async function recordViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("__cspViolation", ({ page }, text: string) => violations.push(`${page.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { __cspViolation(text: string): void }).__cspViolation(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  context.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|evaluate|apply|connect|create|frame)/i.test(message.text())) {
      violations.push(`${message.page()?.url()}: console: ${message.text()}`);
    }
    // next-intl's words a client component asked for that its page's catalogue lacks (i18n/client-messages.ts).
    if (/MISSING_MESSAGE|INSUFFICIENT_PATH/.test(message.text())) violations.push(`${message.page()?.url()}: missing words: ${message.text()}`);
  });
  return violations;
}
