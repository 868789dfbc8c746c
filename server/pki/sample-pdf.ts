import { randomBytes } from "node:crypto";
import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/**
 * A one-page demo prescription (unsigned), for `npm run sign-pdf -- --sample`, tests and the
 * benchmark. paddingBytes adds incompressible images of about that total size (as a scan attached
 * to a real prescription would), in the page's resources.
 */
export async function samplePrescriptionPdf(options: { paddingBytes?: number; patient?: string } = {}): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.setTitle("Prescription (sandbox sample)");
  document.setCreationDate(new Date(0));
  document.setModificationDate(new Date(0));
  const page = document.addPage([420, 595]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const lines = [
    "Privatrezept / Prescription (sandbox sample, not valid for dispensing)",
    `Patient: ${options.patient ?? "Erika Mustermann, 12.08.1964"}`,
    "Finasteride 1 mg, 28 tablets (PZN 09703312)",
    "1 x daily",
    "Dr. Sandbox Signer, Berlin",
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 30, y: 540 - i * 22, size: i === 0 ? 10 : 12, font }));

  // Grey-scale images of random pixels, 1024 pixels wide (1 byte each), attached to the page's resources.
  let remaining = Math.ceil((options.paddingBytes ?? 0) / 1024) * 1024;
  for (let index = 0; remaining > 0; index++) {
    const size = Math.min(remaining, 512 * 1024);
    const image = document.context.stream(randomBytes(size), {
      Type: "XObject",
      Subtype: "Image",
      Width: 1024,
      Height: size / 1024,
      ColorSpace: "DeviceGray",
      BitsPerComponent: 8,
    });
    page.node.setXObject(PDFName.of(`Scan${index}`), document.context.register(image));
    remaining -= size;
  }
  return Buffer.from(await document.save({ useObjectStreams: false }));
}
