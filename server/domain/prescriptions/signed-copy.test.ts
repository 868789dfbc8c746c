import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConflictError } from "@/server/domain/errors";
import { LocalPrescriptionStorage, setPrescriptionStorage } from "@/server/storage/prescription-files";
import { storeSignedPdf } from "./signed-copy";

beforeEach(async () => {
  setPrescriptionStorage(new LocalPrescriptionStorage(await fs.mkdtemp(path.join(os.tmpdir(), "rx-signed-"))));
});
afterEach(() => setPrescriptionStorage(null));

describe("storeSignedPdf", () => {
  it("stores a signed copy once; the same bytes again are fine, other bytes are a conflict", async () => {
    const signed = Buffer.from("%PDF-1.7 signed");
    const stored = await storeSignedPdf("p-1", signed);
    expect(stored.key).toBe("signed/p-1.pdf");
    expect(await storeSignedPdf("p-1", Buffer.from(signed))).toEqual(stored);
    await expect(storeSignedPdf("p-1", Buffer.from("%PDF-1.7 forged"))).rejects.toBeInstanceOf(ConflictError);
  });
});
