import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { P12Signer } from "@signpdf/signer-p12";
import { SignPdf } from "@signpdf/signpdf";
import { PDFDocument } from "pdf-lib";

export type SignPdfOptions = {
  /** The CMS signingTime attribute (and the signature dictionary's /M); default now. */
  signingTime?: Date;
  reason?: string;
  location?: string;
  /** Bytes reserved for the CMS structure in /Contents (default 8192; the hex string is twice that). */
  signatureLength?: number;
};

/**
 * Signs a PDF with the key and certificates of a PKCS#12 bundle: a signature field and widget on the
 * first page (@signpdf/placeholder-pdf-lib), then a detached CMS signature (adbe.pkcs7.detached,
 * SHA-256) with the signingTime, contentType and messageDigest signed attributes and every
 * certificate of the bundle (@signpdf/signer-p12), so a validator can build the chain to its trust
 * anchor. The placeholder is added by re-saving the document with pdf-lib (not as an incremental
 * update), so a signature the PDF already carried no longer covers the file.
 */
export async function signPdfWithP12(pdf: Buffer, p12: Buffer, password: string, options: SignPdfOptions = {}): Promise<Buffer> {
  const signingTime = options.signingTime ?? new Date();
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  if (document.getPageCount() === 0) document.addPage();
  pdflibAddPlaceholder({
    pdfDoc: document,
    reason: options.reason ?? "Prescription",
    contactInfo: "",
    name: "",
    location: options.location ?? "",
    signingTime,
    ...(options.signatureLength ? { signatureLength: options.signatureLength } : {}),
  });
  const prepared = Buffer.from(await document.save({ useObjectStreams: false, updateFieldAppearances: false }));
  const signer = new P12Signer(p12, { passphrase: password });
  return new SignPdf().sign(prepared, signer, signingTime);
}
