/**
 * The text a PDF made by @react-pdf/renderer with the built-in fonts shows: its content streams are
 * inflated and the hex strings of the TJ/Tj operators decoded (Windows-1252) and concatenated in
 * drawing order, without separators (the renderer may draw one word in several pieces). Enough to
 * check what a rendered prescription says; not a PDF parser. pdfLayoutText and pdfPageGray ask
 * poppler (pdftotext, pdftoppm) instead: the text and the picture a viewer shows.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

// Windows-1252 at 0x80–0x9F (Node's TextDecoder decodes "windows-1252" as Latin-1); "\0" is unused.
const CP1252_HIGH = "€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0\0‘’“”•–—˜™š›œ\0žŸ";
const cp1252 = (bytes: Buffer) => [...bytes].map((b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join("");

export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  let text = "";
  for (const [, body] of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      // Sync flush: when the compressed data ends in a CR byte, the pattern above takes that byte as the
      // line break before "endstream"; the truncated checksum must not lose the text (a flaky test otherwise).
      content = zlib.inflateSync(Buffer.from(body, "latin1"), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("latin1");
    } catch {
      content = body;
    }
    for (const [op] of content.matchAll(/\[[^\]]*\]\s*TJ|<[0-9a-fA-F]*>\s*Tj/g)) {
      for (const [, hex] of op.matchAll(/<([0-9a-fA-F]*)>/g)) text += cp1252(Buffer.from(hex, "hex"));
    }
  }
  return text;
}

export function pdfPageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length ?? 0;
}

/**
 * The text poppler's pdftotext reads from a PDF (`-layout`: columns kept side by side), with every
 * run of white space as one space: what a pharmacist's viewer shows, in reading order per line.
 * Needs poppler-utils (CI installs it).
 */
export function pdfLayoutText(pdf: Buffer): string {
  return withPdfFile(pdf, (file) => execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" })).replace(/\s+/g, " ");
}

/** A page of the PDF as poppler draws it in grey (pdftoppm -gray, PGM): width, height and one byte per pixel (0 black … 255 white). */
export function pdfPageGray(pdf: Buffer, page: number, dpi: number): { width: number; height: number; pixels: Buffer } {
  const pgm = withPdfFile(pdf, (file) => execFileSync("pdftoppm", ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), file], { maxBuffer: 256 * 1024 * 1024 }));
  // P5 header: "P5\n<width> <height>\n<max>\n", then the pixels.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error("pdftoppm did not write a PGM image");
  return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
}

function withPdfFile<T>(pdf: Buffer, read: (file: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-pdf-"));
  const file = path.join(dir, "document.pdf");
  try {
    writeFileSync(file, pdf);
    return read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
