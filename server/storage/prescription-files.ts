import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";
import { log } from "@/server/log";

/**
 * Where prescription PDFs live: `rendered/<uid>.pdf` (replaced by each render), `rendered/<uid>.at-signing.pdf`
 * (the document as rendered for signing, with its signature statement) and `signed/<uid>.pdf`
 * (written once; the copy a pharmacy receives). Callers keep the sha256 of a signed copy in the
 * database and read it back with readVerified.
 */
export interface PrescriptionStorage {
  put(key: string, data: Buffer): Promise<{ key: string; sha256: string }>;
  /** Writes once: the same bytes again are fine, different bytes for an existing key are refused. */
  putImmutable(key: string, data: Buffer): Promise<{ key: string; sha256: string }>;
  get(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
}

export const renderedKey = (prescriptionUid: string): string => `rendered/${prescriptionUid}.pdf`;
export const atSigningKey = (prescriptionUid: string): string => `rendered/${prescriptionUid}.at-signing.pdf`;
export const signedKey = (prescriptionUid: string): string => `signed/${prescriptionUid}.pdf`;

/** An immutable key already holds other bytes. */
export class StoredFileConflictError extends Error {
  constructor(readonly key: string) {
    super("A different file is already stored under this key and cannot be replaced.");
  }
}

export class StoredFileMissingError extends Error {
  constructor(readonly key: string) {
    super(`No stored file under ${key}.`);
  }
}

/** A stored file whose bytes no longer match the checksum recorded when it was written. */
export class StoredFileTamperedError extends Error {
  constructor(readonly key: string) {
    super(`The stored file ${key} does not match its recorded checksum; refusing to use it.`);
  }
}

const sha256Hex = (data: Buffer): string => createHash("sha256").update(data).digest("hex");

// One to four segments of letters, digits, '.', '_', '-', each starting with a letter or digit: no
// '..', no absolute paths, no backslashes, nothing hidden (temporary files start with '.').
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,199}){0,3}$/;

/**
 * Files under one directory (created 0700: prescriptions are health data). Writes go to a
 * temporary file that is synced and then renamed (put) or hard-linked (putImmutable, which fails
 * atomically when the key exists), so a reader sees a whole file or none, and a crash leaves at
 * most a stray temporary file. Immutable files are made read-only (0444) before they appear, and
 * put() refuses to replace a read-only file.
 */
export class LocalPrescriptionStorage implements PrescriptionStorage {
  constructor(readonly root: string) {}

  async put(key: string, data: Buffer): Promise<{ key: string; sha256: string }> {
    const file = this.pathOf(key);
    if (await isReadOnly(file)) throw new StoredFileConflictError(key);
    const temp = await this.writeTemp(file, data, 0o600);
    try {
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(path.dirname(file));
    return { key, sha256: sha256Hex(data) };
  }

  async putImmutable(key: string, data: Buffer): Promise<{ key: string; sha256: string }> {
    const file = this.pathOf(key);
    const sha256 = sha256Hex(data);
    const temp = await this.writeTemp(file, data, 0o444);
    try {
      await fs.link(temp, file);
      await syncDirectory(path.dirname(file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (sha256Hex(await fs.readFile(file)) !== sha256) throw new StoredFileConflictError(key);
    } finally {
      await fs.rm(temp, { force: true });
    }
    return { key, sha256 };
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new StoredFileMissingError(key);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fs.stat(this.pathOf(key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  private pathOf(key: string): string {
    if (typeof key !== "string" || !KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return file;
  }

  private async writeTemp(file: string, data: Buffer, mode: number): Promise<string> {
    await fs.mkdir(this.root, { recursive: true, mode: 0o700 });
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
    const handle = await fs.open(temp, "wx", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
      await handle.chmod(mode);
    } catch (error) {
      await handle.close();
      await fs.rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    return temp;
  }
}

async function isReadOnly(file: string): Promise<boolean> {
  try {
    return ((await fs.stat(file)).mode & 0o222) === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Makes a rename or link durable (best effort: not every file system can sync a directory). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r").catch(() => null);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

let override: PrescriptionStorage | null = null;

/** The storage in use: the override if one is set, else the directory DATA_DIR/prescriptions (read each call). */
export function prescriptionStorage(): PrescriptionStorage {
  return override ?? new LocalPrescriptionStorage(path.resolve(config().DATA_DIR, "prescriptions"));
}

/** Replaces the storage (tests, or another backend); null restores the default. */
export function setPrescriptionStorage(storage: PrescriptionStorage | null): void {
  override = storage;
}

/** Reads a stored file and checks it against the checksum recorded when it was written. */
export async function readVerified(key: string, sha256: string): Promise<Buffer> {
  const data = await prescriptionStorage().get(key);
  if (sha256Hex(data) !== sha256.toLowerCase()) {
    log.error("stored prescription file does not match its checksum", { key });
    throw new StoredFileTamperedError(key);
  }
  return data;
}
