import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests against the production build in Debian's Chromium (never `playwright install`).
 * The server gets its own port and DATA_DIR (wiped per run by scripts/e2e/serve.ts); DATABASE_URL
 * is passed through, so the same tests run on embedded PGlite and on PostgreSQL.
 */
/**
 * Debian's headless shell (package chromium-headless-shell, the "old" headless mode Playwright's own
 * headless runs use) when it is installed: the same engine, its processes using about 40% less CPU
 * than the full browser's headless mode on this suite. E2E_CHROMIUM names another (e.g. /usr/bin/chromium to watch
 * a test with --headed).
 */
const chromium = process.env.E2E_CHROMIUM ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  // Its own per pass when two passes run at once (scripts/ci/test.ts).
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Hang guards, not speed bounds: on a busy 2-core machine a sound page can take many times its usual time.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // A failed test keeps its trace: every action with the page's DOM before and after. Without the
    // screencast, which cost about a fifth of the browser suite's CPU here.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromium,
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: {
    command: "npx tsx scripts/e2e/serve.ts",
    url: `${baseURL}/`,
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR ?? ".data/e2e",
      PUBLIC_BASE_URL: baseURL,
      // Emptied so the app derives it from PUBLIC_BASE_URL (server/auth/portal-session.ts), as on a plain install.
      NEXTAUTH_URL: "",
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
    reuseExistingServer: false,
    // `next build` runs inside the web server command.
    timeout: 10 * 60_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
