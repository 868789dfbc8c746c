import { ConflictError } from "@/server/domain/errors";
import { prescriptionStorage, signedKey } from "./storage";

export type SignedCopy = { key: string; sha256: string };

export const noRenderedPdf = () =>
  new ConflictError(
    "The prescription has no rendered PDF: request POST /v1/management/prescriptions/{uid}/render and sign once rendered is true.",
  );

/**
 * Copies the rendered PDF of a prescription to signed storage (write-once) and returns its key and
 * SHA-256. Called inside the signing transaction, before commit: the copy is immutable and the same
 * bytes under the same key, so a transaction that rolls back and is retried copies nothing new.
 * No rendered PDF (no key, or the file is missing) is a conflict.
 */
export async function copyRenderedToSigned(prescription: { id: string; renderedFileKey: string | null }): Promise<SignedCopy> {
  if (!prescription.renderedFileKey) throw noRenderedPdf();
  const storage = prescriptionStorage();
  if (!(await storage.exists(prescription.renderedFileKey))) throw noRenderedPdf();
  const pdf = await storage.get(prescription.renderedFileKey);
  const stored = await storage.putImmutable(signedKey(prescription.id), pdf);
  return { key: stored.key, sha256: stored.sha256 };
}
