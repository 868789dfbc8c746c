import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, it, vi } from "vitest";
import { consumeEach, withinRateLimit } from "./rate-limit";

describe("the rate limit's count of one request", () => {
  it("lets `perSecond` requests of a subject through in its one-second window, then refuses until the window ends", async () => {
    const limiter = new RateLimiterMemory({ points: 3, duration: 1 });
    for (let i = 0; i < 3; i++) expect(await consumeEach(limiter, ["addr:a"])).toBe(true);
    expect(await consumeEach(limiter, ["addr:a"])).toBe(false);
    expect(await consumeEach(limiter, ["addr:b"])).toBe(true); // another subject has its own window
  });

  it("refuses a request when any of its subjects is over, and counts it for every subject", async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 1 });
    expect(await consumeEach(limiter, ["key:k", "addr:a"])).toBe(true);
    expect(await consumeEach(limiter, ["key:k", "addr:b"])).toBe(false); // the key is over
    expect(await consumeEach(limiter, ["addr:b"])).toBe(false); // addr:b was counted by the refused request
  });

  it("lets a subject through again once its one-second window has ended (the clock faked: no race with a slow machine)", async () => {
    // Date and the window's expiry timer: the memory limiter's whole clock.
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      expect(await withinRateLimit(["test:window"], 2)).toBe(true);
      expect(await withinRateLimit(["test:window"], 2)).toBe(true);
      vi.advanceTimersByTime(999);
      expect(await withinRateLimit(["test:window"], 2)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await withinRateLimit(["test:window"], 2)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
