import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import base from "../../vitest.config";
import { watchdogSetupFile } from "./vitest.config";

/** Runs vitest on the watchdog's fixtures with a limit of `limitSeconds` per file. */
function runFixtures(limitSeconds: number): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", "tests/watchdog/vitest.config.ts"], {
      env: { ...process.env, TEST_FILE_TIME_LIMIT_S: String(limitSeconds), VITE_CONFIG_NATIVE_IGNORE_WARNING: "true", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that giving up also ends vitest's test processes.
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    // Without a working watchdog the busy loop would spin on after this test gave up.
    const giveUp = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 300_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(giveUp);
      resolve({ code, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

it("is the first setup file of every test file", () => {
  expect(base.test?.setupFiles?.[0]).toBe(watchdogSetupFile);
});

it("kills a test file whose test blocks the event loop, and fails the run naming the file and the test", async () => {
  const run = await runFixtures(3);
  expect(run.code).not.toBe(0);
  expect(run.output).toContain(
    '[test watchdog] tests/watchdog/busy-loop.fixture.ts ran past its limit of 3 s in test "spins without yielding"',
  );
  expect(run.output).toContain("Worker exited unexpectedly");
  // The other fixture file still runs and passes: one hung file fails the run, not the rest.
  expect(run.output).toMatch(/✓ tests\/watchdog\/quick\.fixture\.ts/);
});
