import { readFileSync, rmSync, writeFileSync } from "node:fs";

/**
 * One process at a time on an embedded database directory. PGlite keeps no lock of its own, and a
 * second process opening the directory (a CLI such as `npm run org` or `npm run seed` while the
 * server runs, a second server on the same DATA_DIR) would write the same files and corrupt them.
 * The lock is a file beside the directory holding the owner's pid: a live other process refuses
 * the open; a dead one (a crash, SIGKILL) left a stale lock, which is taken over. Returns the release.
 */
export function lockEmbeddedDirectory(dir: string): () => void {
  const file = `${dir}.lock`;
  const mine = String(process.pid);
  for (;;) {
    try {
      writeFileSync(file, mine, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(readFileSync(file, "utf8").trim());
    if (owner === process.pid) break;
    if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
      throw new Error(`The embedded database ${dir} is open in process ${owner}: stop that process first (only one process may open it), or use PostgreSQL (DATABASE_URL).`);
    }
    // Stale: its owner is gone. Removed and tried again, so that of two processes taking it over only one wins.
    rmSync(file, { force: true });
  }
  return () => {
    try {
      if (readFileSync(file, "utf8").trim() === mine) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
