import { errorText } from "@/i18n/error-text";
import { ConflictError } from "@/server/domain/errors";
import { prescriptionStorage, signedKey, StoredFileConflictError } from "@/server/storage/prescription-files";

export type SignedCopy = { key: string; sha256: string };

const noRenderedPdf = () => new ConflictError(errorText("prescriptions.noRenderedPdf"));

/**
 * Copies the rendered PDF of a prescription to signed storage (write-once) and returns its key and
 * SHA-256. Called inside the signing transaction, before commit: the copy is immutable and the same
 * bytes under the same key, so a transaction that rolls back and is retried copies nothing new.
 * No rendered PDF (no key, or the file is missing) is a conflict.
 */
export async function copyRenderedToSigned(prescription: { id: string; renderedFileKey: string | null }): Promise<SignedCopy> {
  return storeSignedPdf(prescription.id, await renderedPdfOf(prescription));
}

/** The rendered PDF of a prescription; none (no key, or the file is missing) is a conflict. */
export async function renderedPdfOf(prescription: { renderedFileKey: string | null }): Promise<Buffer> {
  if (!prescription.renderedFileKey) throw noRenderedPdf();
  const storage = prescriptionStorage();
  if (!(await storage.exists(prescription.renderedFileKey))) throw noRenderedPdf();
  return storage.get(prescription.renderedFileKey);
}

/**
 * Stores the signed PDF of a prescription, write-once. Other bytes already stored for it are a
 * conflict: a signed copy is never replaced.
 */
export async function storeSignedPdf(prescriptionId: string, pdf: Buffer): Promise<SignedCopy> {
  try {
    return await prescriptionStorage().putImmutable(signedKey(prescriptionId), pdf);
  } catch (error) {
    if (error instanceof StoredFileConflictError) throw new ConflictError(error.message);
    throw error;
  }
}
