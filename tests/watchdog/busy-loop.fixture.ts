import { it } from "vitest";

// Run only by tests/watchdog/watchdog.test.ts: a test that blocks its event loop for ever.
it("spins without yielding", () => {
  for (;;);
});
