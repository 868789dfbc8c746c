import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LocalPrescriptionStorage,
  prescriptionStorage,
  readVerified,
  renderedKey,
  setPrescriptionStorage,
  signedKey,
  StoredFileConflictError,
  StoredFileMissingError,
  StoredFileTamperedError,
} from "./prescription-files";

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const pdf = (text: string) => Buffer.from(`%PDF-1.7\n${text}\n%%EOF\n`);

let root: string;
let storage: LocalPrescriptionStorage;

beforeEach(async () => {
  root = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "rx-storage-")), "prescriptions");
  storage = new LocalPrescriptionStorage(root);
});
afterEach(async () => {
  setPrescriptionStorage(null);
  await fs.rm(path.dirname(root), { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe("prescription storage", () => {
  it("stores, reads and replaces rendered files, with their SHA-256, in a private directory", async () => {
    expect(renderedKey("p-1")).toBe("rendered/p-1.pdf");
    expect(signedKey("p-1")).toBe("signed/p-1.pdf");
    expect(await storage.exists(renderedKey("p-1"))).toBe(false);

    const first = pdf("one");
    expect(await storage.put(renderedKey("p-1"), first)).toEqual({ key: "rendered/p-1.pdf", sha256: sha(first) });
    expect(await storage.exists(renderedKey("p-1"))).toBe(true);
    expect(await storage.get(renderedKey("p-1"))).toEqual(first);

    const second = pdf("two");
    await storage.put(renderedKey("p-1"), second);
    expect(await storage.get(renderedKey("p-1"))).toEqual(second);

    expect((await fs.stat(root)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(root, "rendered"))).mode & 0o777).toBe(0o700);
    expect(await filesUnder(root)).toEqual(["rendered/p-1.pdf"]); // no temporary files left
    await expect(storage.get(renderedKey("p-2"))).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it("writes signed files once, read-only: the same bytes again are fine, different bytes are refused", async () => {
    const signed = pdf("signed");
    expect(await storage.putImmutable(signedKey("p-1"), signed)).toEqual({ key: "signed/p-1.pdf", sha256: sha(signed) });
    expect((await fs.stat(path.join(root, "signed/p-1.pdf"))).mode & 0o777).toBe(0o444);

    expect(await storage.putImmutable(signedKey("p-1"), Buffer.from(signed))).toEqual({ key: "signed/p-1.pdf", sha256: sha(signed) });
    const refused = storage.putImmutable(signedKey("p-1"), pdf("forged"));
    await expect(refused).rejects.toBeInstanceOf(StoredFileConflictError);
    // put() cannot replace it either.
    await expect(storage.put(signedKey("p-1"), pdf("forged"))).rejects.toBeInstanceOf(StoredFileConflictError);
    expect(await storage.get(signedKey("p-1"))).toEqual(signed);
    expect(await filesUnder(root)).toEqual(["signed/p-1.pdf"]);
  });

  it("lets exactly one of concurrent immutable writes of different bytes win", async () => {
    const versions = Array.from({ length: 8 }, (_, i) => pdf(`version ${i}`));
    const results = await Promise.allSettled(versions.map((v) => storage.putImmutable(signedKey("race"), v)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const winner = versions[results.findIndex((r) => r.status === "fulfilled")];
    expect(await storage.get(signedKey("race"))).toEqual(winner);
    expect(await filesUnder(root)).toEqual(["signed/race.pdf"]);
  });

  it("refuses keys that could leave its directory or hide files", async () => {
    const outside = path.join(path.dirname(root), "escaped.pdf");
    const bad = [
      "../escaped.pdf",
      "rendered/../../escaped.pdf",
      "/etc/passwd",
      outside,
      "rendered/.hidden.pdf",
      "rendered//x.pdf",
      "rendered\\..\\x.pdf",
      "rendered/x.pdf\0",
      "",
      "./rendered/x.pdf",
      "a/b/c/d/e.pdf",
    ];
    for (const key of bad) {
      await expect(storage.put(key, pdf("x")), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.putImmutable(key, pdf("x")), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.exists(key), key).rejects.toThrow(/Invalid storage key/);
    }
    await expect(fs.stat(outside)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reads a signed file only when it still matches its checksum", async () => {
    setPrescriptionStorage(storage);
    const signed = pdf("verified");
    const { sha256 } = await prescriptionStorage().putImmutable(signedKey("p-9"), signed);
    expect(await readVerified(signedKey("p-9"), sha256)).toEqual(signed);
    expect(await readVerified(signedKey("p-9"), sha256.toUpperCase())).toEqual(signed);

    const file = path.join(root, "signed/p-9.pdf");
    await fs.chmod(file, 0o644);
    await fs.writeFile(file, pdf("tampered"));
    await expect(readVerified(signedKey("p-9"), sha256)).rejects.toBeInstanceOf(StoredFileTamperedError);
    await expect(readVerified(signedKey("p-9"), sha256)).rejects.toThrow(/does not match its recorded checksum/);
  });

  it("defaults to DATA_DIR/prescriptions", async () => {
    const key = renderedKey(`default-${Date.now()}`);
    await prescriptionStorage().put(key, pdf("default"));
    expect(await fs.readFile(path.resolve(process.env.DATA_DIR!, "prescriptions", key))).toEqual(pdf("default"));
  });
});
