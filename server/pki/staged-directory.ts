import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * Creates a folder of key material whole or not at all: `write` fills a fresh private folder beside
 * it, which is then moved into place, so a reader never sees half of it. When another process
 * created it at the same moment, theirs is used.
 */
export async function createStagedDirectory(
  dir: string,
  write: (staging: string) => Promise<void>,
  isComplete: (dir: string) => boolean,
): Promise<void> {
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(/*turbopackIgnore: true*/ parent, `.${path.basename(dir)}-`));
  try {
    chmodSync(staging, 0o700);
    await write(staging);
    moveIntoPlace(staging, dir, isComplete);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (isComplete(dir)) return;
    throw error;
  }
}

/**
 * A rename onto a folder that has files fails (ENOTEMPTY), so the first process to finish wins and
 * a complete set is never replaced: another process may have handed it out already (removing it
 * first, as this did, gave two processes two different signers). Only an incomplete set is removed.
 */
function moveIntoPlace(staging: string, dir: string, isComplete: (dir: string) => boolean): void {
  try {
    renameSync(staging, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    if (isComplete(dir)) {
      rmSync(staging, { recursive: true, force: true });
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  }
}
