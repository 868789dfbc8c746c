import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it, onTestFinished } from "vitest";

const run = promisify(execFile);

/** `npm run sign-pdf -- …args` as npm runs it: in the project root, INIT_CWD where it was typed. */
async function signPdf(args: string[], env: Record<string, string>) {
  const { stdout } = await run(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/sign-pdf.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
  });
  return stdout;
}

it("writes to $DATA_DIR/signed/ unless told otherwise, says where, and takes relative paths from where npm was started", async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-sign-pdf-"));
  const workDir = mkdtempSync(path.join(os.tmpdir(), "rx-sign-pdf-cwd-"));
  onTestFinished(() => {
    for (const dir of [dataDir, workDir]) rmSync(dir, { recursive: true, force: true });
  });
  const sample = path.join(dataDir, "signed", "sample-prescription-signed.pdf");
  expect(await signPdf(["--sample"], { DATA_DIR: dataDir })).toContain(`→ ${sample} (`);
  expect(readFileSync(sample).subarray(0, 5).toString()).toBe("%PDF-");

  expect(await signPdf([path.relative(workDir, sample), "mine.pdf"], { DATA_DIR: dataDir, INIT_CWD: workDir })).toContain(
    `→ ${path.join(workDir, "mine.pdf")} (`,
  );
  expect(existsSync(path.join(workDir, "mine.pdf"))).toBe(true);
  expect(existsSync(path.resolve("mine.pdf"))).toBe(false);
});
