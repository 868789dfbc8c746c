/**
 * No test is bounded by wall-clock time (issue 33, docs/decisions/operations.md#a-fresh-clone-on-a-busy-machine):
 * Vitest's limits are off and a hung file is ended by the watchdog; no test file sets a limit of
 * its own (a number after a test's or hook's function, or `{ timeout }` options), and no browser
 * spec lowers Playwright's hang guards.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import ts from "typescript";
import vitestConfig from "../vitest.config";

const root = path.resolve(import.meta.dirname, "..");

function* files(dir: string, pattern: RegExp): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== "generated") yield* files(relative, pattern);
    else if (pattern.test(entry.name)) yield relative;
  }
}

const TEST_CALLS = new Set(["it", "test", "beforeAll", "afterAll", "beforeEach", "afterEach"]);

/** The calls of `source` that give a test or hook a time limit: a number after its function, or `{ timeout }` options. */
export function timeLimitCalls(source: string): string[] {
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      // it(…), it.each(…)(…), describe.skipIf(…) are not needed: the callee's first name decides.
      let callee: ts.Expression = node.expression;
      while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) callee = ts.isCallExpression(callee) ? callee.expression : callee.expression;
      const fnIndex = node.arguments.findIndex((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (ts.isIdentifier(callee) && TEST_CALLS.has(callee.text) && fnIndex >= 0) {
        const limit = node.arguments.slice(fnIndex + 1).find(
          (a) => ts.isNumericLiteral(a) || (ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name?.getText(file) === "timeout")),
        );
        if (limit) found.push(`line ${file.getLineAndCharacterOfPosition(limit.getStart(file)).line + 1}: ${limit.getText(file)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("test time limits", () => {
  it("are off in Vitest's configuration", () => {
    expect(vitestConfig.test).toMatchObject({ testTimeout: 0, hookTimeout: 0 });
  });

  it("finds a limit where there is one (the check itself)", () => {
    const limited = "it('x', async () => {\n}, 60_000);\nbeforeAll(() => open(), 120_000);\nit.skipIf(a)('y', () => {}, { timeout: 30_000 });";
    expect(timeLimitCalls(limited)).toEqual(["line 2: 60_000", "line 3: 120_000", "line 4: { timeout: 30_000 }"]);
    expect(timeLimitCalls("it('z', async () => {\n  await until(check, 60_000);\n  setTimeout(() => done(), 200);\n});")).toEqual([]);
  });

  it("are set by no test file", () => {
    const found: string[] = [];
    for (const dir of ["server", "scripts", "tests", "i18n", "components"]) {
      for (const file of files(dir, /\.test\.ts$/)) {
        for (const call of timeLimitCalls(readFileSync(path.join(root, file), "utf8"))) found.push(`${file} ${call}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("are not lowered by a browser spec", () => {
    const found: string[] = [];
    for (const file of files("e2e", /\.spec\.ts$/)) {
      for (const m of readFileSync(path.join(root, file), "utf8").matchAll(/test\.setTimeout\(([0-9_]+)\)|describe\.configure\(\{ timeout: ([0-9_]+) \}\)/g)) {
        if (Number((m[1] ?? m[2]).replaceAll("_", "")) < 180_000) found.push(`${file}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
