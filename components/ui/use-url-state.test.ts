import { describe, expect, it } from "vitest";
import { nextQuery } from "./use-url-state";

describe("a list's query string", () => {
  it("sets, replaces and removes keys, keeping the others", () => {
    expect(nextQuery("?status=on-hold&from=2020-01-01", { q: "Muster", page: undefined })).toBe("status=on-hold&from=2020-01-01&q=Muster");
    expect(nextQuery("status=on-hold&page=3", { status: "completed", page: "" })).toBe("status=completed");
    expect(nextQuery("", {})).toBe("");
  });

  it("gives a function of the updates the current query", () => {
    expect(nextQuery("a=1&b=2", (latest) => ({ b: String(Number(latest.get("a")) + 5) }))).toBe("a=1&b=6");
  });
});
