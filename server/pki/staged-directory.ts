import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * Creates a folder of key material whole or not at all: `write` fills a fresh private folder beside
 * it, which is then moved into place, so a reader never sees half of it. When another process
 * created it at the same moment (`isComplete` of the target holds after a failure), theirs is used.
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
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true }); // an incomplete set
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (isComplete(dir)) return;
    throw error;
  }
}
