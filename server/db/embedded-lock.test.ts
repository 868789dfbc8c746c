import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { lockEmbeddedDirectory } from "./embedded-lock";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function databaseDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-lock-"));
  dirs.push(dir);
  return path.join(dir, "pglite");
}

it("refuses a directory another live process has open, naming that process", async () => {
  const dir = databaseDir();
  // A real other process, alive while the open is tried.
  const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  try {
    writeFileSync(`${dir}.lock`, String(other.pid));
    expect(() => lockEmbeddedDirectory(dir)).toThrow(new RegExp(`open in process ${other.pid}: stop that process first`));
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(other.pid));
  } finally {
    other.kill("SIGKILL");
  }
});

it("takes over the stale lock of a process that died, and releases it", async () => {
  const dir = databaseDir();
  const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => dead.once("exit", resolve));
  writeFileSync(`${dir}.lock`, String(dead.pid));
  const release = lockEmbeddedDirectory(dir);
  expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  release();
  expect(existsSync(`${dir}.lock`)).toBe(false);
});

it("lets the owning process open it again (one module copy each in Next.js), and a release leaves another owner's lock alone", () => {
  const dir = databaseDir();
  const release = lockEmbeddedDirectory(dir);
  expect(() => lockEmbeddedDirectory(dir)).not.toThrow();
  writeFileSync(`${dir}.lock`, "1");
  release();
  expect(readFileSync(`${dir}.lock`, "utf8")).toBe("1");
});
