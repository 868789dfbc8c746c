import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["server/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts", "i18n/**/*.test.ts", "components/**/*.test.ts"],
    // The migrated schema once per run (tests/template.ts), copied per test file (tests/setup.ts).
    globalSetup: ["tests/template.ts"],
    setupFiles: ["tests/watchdog.ts", "tests/setup.ts"],
    // Each test file gets its own database (tests/setup.ts); two workers for the two cores.
    pool: "forks",
    maxWorkers: 2,
    // Files share their worker's loaded modules (imports once per worker, not per file: 366 s → 209 s
    // on PGlite here); each still gets its own database and environment from tests/setup.ts.
    isolate: false,
    // No test or hook is bounded by wall-clock time (0: no limit): on a busy 2-core machine a sound
    // test can take many times its usual time. A hung file is ended by the watchdog (tests/watchdog.ts,
    // TEST_FILE_TIME_LIMIT_S, 600 s per file), which names the file and the test.
    testTimeout: 0,
    hookTimeout: 0,
  },
});
