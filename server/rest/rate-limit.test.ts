import { describe, expect, it } from "vitest";
import { FixedWindowCounter } from "./rate-limit";

describe("the rate limit's counter", () => {
  it("lets `perSecond` requests of a subject through in its one-second window, then refuses until the window ends", () => {
    const counter = new FixedWindowCounter();
    const at = 1_000_000;
    for (let i = 0; i < 3; i++) expect(counter.consume(["addr:a"], 3, at + i * 100)).toBe(true);
    expect(counter.consume(["addr:a"], 3, at + 900)).toBe(false);
    expect(counter.consume(["addr:b"], 3, at + 900)).toBe(true); // another subject has its own window
    expect(counter.consume(["addr:a"], 3, at + 1_000)).toBe(true); // a new window
  });

  it("refuses a request when any of its subjects is over, and counts it for every subject", () => {
    const counter = new FixedWindowCounter();
    const at = 2_000_000;
    expect(counter.consume(["key:k", "addr:a"], 1, at)).toBe(true);
    expect(counter.consume(["key:k", "addr:b"], 1, at + 10)).toBe(false); // the key is over
    expect(counter.consume(["addr:b"], 1, at + 20)).toBe(false); // addr:b was counted by the refused request
  });
});
