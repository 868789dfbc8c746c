import { defineConfig } from "vitest/config";
import base from "../../vitest.config";

export const watchdogSetupFile = "tests/watchdog.ts";

/**
 * The project's test configuration for the watchdog's fixtures only (tests/watchdog/watchdog.test.ts):
 * the watchdog without the per-file database, whose start-up would eat into the fixtures' short limit.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, globalSetup: [], setupFiles: [watchdogSetupFile], include: ["tests/watchdog/*.fixture.ts"] },
});
