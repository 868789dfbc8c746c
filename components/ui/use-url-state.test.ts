import { describe, expect, it } from "vitest";
import { nextQuery, type ReplaceChain } from "./use-url-state";

/** Applies changes in order, the router rendering the given queries in between (null: no render). */
function run(steps: ({ set: Record<string, string | undefined> } | { render: string })[], initial = "") {
  let chain: ReplaceChain | null = null;
  let rendered = initial;
  const asked: string[] = [];
  for (const step of steps) {
    if ("render" in step) rendered = step.render;
    else {
      const next = nextQuery(chain, rendered, step.set);
      chain = next.chain;
      asked.push(next.query);
    }
  }
  return asked;
}

describe("a list's query string under quick changes", () => {
  it("builds each change on the last one asked for while none has rendered", () => {
    expect(run([{ set: { status: "on-hold" } }, { set: { from: "2020-01-01" } }])).toEqual(["status=on-hold", "status=on-hold&from=2020-01-01"]);
  });

  it("keeps a later change when an earlier replace renders in between (tab, date, then a debounced search)", () => {
    const asked = run([
      { set: { status: "on-hold" } },
      { set: { from: "2020-01-01" } },
      { render: "status=on-hold" },
      { set: { q: "Muster", page: undefined } },
    ]);
    expect(asked.at(-1)).toBe("status=on-hold&from=2020-01-01&q=Muster");
  });

  it("builds on the rendered query once everything asked for has rendered", () => {
    const asked = run([{ set: { status: "on-hold" } }, { render: "status=on-hold" }, { set: { q: "x" } }]);
    expect(asked.at(-1)).toBe("status=on-hold&q=x");
  });

  it("builds on a query that came from elsewhere (back, a link), dropping what was asked before it", () => {
    const asked = run([{ set: { status: "on-hold" } }, { render: "status=completed&page=3" }, { set: { q: "x" } }], "status=open");
    expect(asked.at(-1)).toBe("status=completed&page=3&q=x");
  });

  it("removes a key set to undefined or empty, and passes the latest query to a function of it", () => {
    let chain: ReplaceChain | null = null;
    const first = nextQuery(chain, "a=1&b=2", { a: undefined, b: "" });
    expect(first.query).toBe("");
    chain = first.chain;
    const second = nextQuery(chain, "a=1&b=2", (latest) => ({ c: String(latest.size) }));
    expect(second.query).toBe("c=0");
  });
});
