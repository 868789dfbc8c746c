import { expect, it } from "vitest";
import { openDriver } from "./driver";

it("fails the queries still queued when the embedded database closes, instead of spinning for ever", async () => {
  const driver = openDriver("memory:");
  if (driver.kind !== "pglite") throw new Error("expected the embedded database");
  await driver.exec("SELECT 1");
  // Queued behind one another on PGlite's lock, then close() while they wait: plain PGlite hands the
  // waiting ones to the stopped backend and blocks this process at 100 % CPU (the test watchdog ends it).
  const results = await Promise.allSettled([driver.query("SELECT 1 AS n", []), driver.query("SELECT 2 AS n", []), driver.query("SELECT 3 AS n", []), driver.close()]);
  expect(results.map((r) => r.status)).toContain("rejected");
  for (const result of results.slice(0, 3)) {
    if (result.status === "rejected") expect(String(result.reason)).toMatch(/closed/);
  }
  expect(results[3].status).toBe("fulfilled");
  await expect(driver.query("SELECT 4", [])).rejects.toThrow();
});
