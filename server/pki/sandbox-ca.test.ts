/**
 * The sandbox QES files are made once, whole, however many processes ask at the same moment (the
 * HTTP workers of one DATA_DIR; once, the test workers of two runs on one machine): each process's
 * signer password opens the PKCS#12 that stays, and its CA is the one that stays. Before the fix a
 * later process replaced a set another had just made and returned (issue 33: "cannot be opened
 * with QES_SIGNER_P12_PASSWORD").
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(path.join(os.tmpdir(), "rx-sandbox-qes-race-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function start(dataDir: string, goFile: string) {
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const done = new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, ["--import", "tsx", "tests/sandbox-qes-process.ts", dataDir, goFile], { cwd: REPO }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim().split("\n").at(-1)!),
    );
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && ready());
  });
  return { isReady, done };
}

describe("the sandbox QES files under concurrent first use", () => {
  it("gives every process a signer whose password opens the PKCS#12 that stays", async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = path.join(scratch, `round-${round}`);
      const goFile = path.join(scratch, `go-${round}`);
      const processes = Array.from({ length: 4 }, () => start(dataDir, goFile));
      await Promise.all(processes.map((p) => p.isReady));
      writeFileSync(goFile, "");
      const results = (await Promise.all(processes.map((p) => p.done))).map((line) => JSON.parse(line) as { opened: string; sameCa: boolean });
      expect(results).toEqual(Array.from({ length: 4 }, () => ({ opened: "opens", sameCa: true })));
    }
  });
});
