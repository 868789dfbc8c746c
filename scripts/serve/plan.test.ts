import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildInputsHash, buildIsCurrent, buildStampFile, processPlan } from "./plan";

describe("how many HTTP processes the production entry runs", () => {
  it("runs one per core on PostgreSQL, under a primary that runs the background work", () => {
    expect(processPlan({ databaseUrl: "postgres://u@h/db", webConcurrency: undefined, cores: 6 })).toEqual({ cluster: true, workers: 6 });
  });

  it("runs WEB_CONCURRENCY processes when it is set, one included", () => {
    expect(processPlan({ databaseUrl: "postgresql://u@h/db", webConcurrency: 3, cores: 8 })).toEqual({ cluster: true, workers: 3 });
    expect(processPlan({ databaseUrl: "postgres://u@h/db", webConcurrency: 1, cores: 8 })).toEqual({ cluster: true, workers: 1 });
  });

  it("keeps the embedded database in one process, whatever WEB_CONCURRENCY says", () => {
    expect(processPlan({ databaseUrl: undefined, webConcurrency: 4, cores: 8 })).toEqual({ cluster: false, workers: 1 });
    expect(processPlan({ databaseUrl: "memory:", webConcurrency: undefined, cores: 8 })).toEqual({ cluster: false, workers: 1 });
  });
});

describe("whether the build is current", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function project() {
    root = mkdtempSync(path.join(os.tmpdir(), "rx-build-"));
    for (const [file, text] of Object.entries({
      "app/page.tsx": "export default 1",
      "server/rest/kit.ts": "export const a = 1",
      "server/rest/kit.test.ts": "test",
      "package-lock.json": "{}",
      "README.md": "# readme",
      "e2e/a.spec.ts": "spec",
      "node_modules/.package-lock.json": "{\"v\":1}",
      "node_modules/x/index.js": "x",
    })) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  }
  function built() {
    mkdirSync(path.join(root, ".next"), { recursive: true });
    writeFileSync(path.join(root, ".next", "BUILD_ID"), "b1");
    writeFileSync(buildStampFile(root), `${buildInputsHash(root, {})}\n`);
  }
  const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);

  it("is not current without a build or without the entry's record of its inputs", () => {
    project();
    expect(buildIsCurrent(root, buildInputsHash(root, {}))).toBe(false);
    mkdirSync(path.join(root, ".next"));
    writeFileSync(path.join(root, ".next", "BUILD_ID"), "b1");
    expect(buildIsCurrent(root, buildInputsHash(root, {}))).toBe(false);
  });

  it("is current until a source, the lockfile, the installed packages or a NEXT_PUBLIC_ variable changes", () => {
    project();
    built();
    const current = () => buildIsCurrent(root, buildInputsHash(root, {}));
    expect(current()).toBe(true);
    write("server/rest/kit.ts", "export const a = 2");
    expect(current()).toBe(false);
    write("server/rest/kit.ts", "export const a = 1"); // changed back: the same inputs
    expect(current()).toBe(true);
    write("package-lock.json", '{"x":1}');
    expect(current()).toBe(false);
    built();
    write("node_modules/.package-lock.json", '{"v":2}');
    expect(current()).toBe(false);
    built();
    write("server/new-module.ts", "export {}");
    expect(current()).toBe(false);
    built();
    expect(buildIsCurrent(root, buildInputsHash(root, { NEXT_PUBLIC_X: "1" }))).toBe(false);
  });

  it("ignores what the build never reads: tests, docs, e2e specs, package sources", () => {
    project();
    built();
    write("server/rest/kit.test.ts", "changed");
    write("README.md", "changed");
    write("e2e/a.spec.ts", "changed");
    write("node_modules/x/index.js", "changed");
    write("tsconfig.tsbuildinfo", "rewritten by every tsc run");
    expect(buildIsCurrent(root, buildInputsHash(root, {}))).toBe(true);
  });

  it("does not trust a build made after its record (a plain `next build`)", () => {
    project();
    built();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, ".next", "BUILD_ID"), later, later);
    expect(buildIsCurrent(root, buildInputsHash(root, {}))).toBe(false);
  });
});
