import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString, type PDFObject } from "pdf-lib";

/**
 * Reading a PDF's signatures for QES validation: the file's structure (header, trailer, parse),
 * every signature field of the AcroForm with a signature value, and the check that a signature's
 * /ByteRange covers the whole file except exactly its own /Contents hex string.
 */

export type QesFailureCode =
  | "corrupt_pdf"
  | "unsigned"
  | "byte_range"
  | "digest_mismatch"
  | "bad_signature"
  | "untrusted"
  | "not_qualified"
  | "not_valid_at_signing_time"
  | "unsupported";

/** A validation outcome other than "valid", carried as an exception inside the validator. */
export class QesFailure extends Error {
  constructor(
    readonly code: QesFailureCode,
    message: string,
  ) {
    super(message);
  }
}

export type PdfSignature = {
  /** The field's /T (partial name), for messages. */
  fieldName: string | null;
  /** [0, a, b, c]: the signed bytes are [0, a) and [b, b + c). */
  byteRange: [number, number, number, number];
  /** The CMS bytes: /Contents decoded from hex (with its zero padding). */
  contents: Buffer<ArrayBuffer>;
  subFilter: string | null;
};

const SUPPORTED_SUBFILTERS = new Set(["adbe.pkcs7.detached", "ETSI.CAdES.detached"]);
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const TAIL = 1024;

/** Header, %%EOF and startxref: a file that is not a PDF or was cut short fails here, before parsing. */
function checkFileStructure(pdf: Buffer): void {
  if (pdf.length < 64 || pdf.subarray(0, TAIL).indexOf("%PDF-") < 0) {
    throw new QesFailure("corrupt_pdf", "The file is not a PDF: it does not start with a %PDF- header.");
  }
  const tailStart = Math.max(0, pdf.length - TAIL);
  const tail = pdf.subarray(tailStart);
  const eof = tail.lastIndexOf("%%EOF");
  if (eof < 0) throw new QesFailure("corrupt_pdf", "The PDF is incomplete: it does not end with %%EOF (the file may have been truncated).");
  const startxref = tail.lastIndexOf("startxref", eof);
  const offsetText = startxref < 0 ? null : /^\s*(\d{1,15})\s/.exec(tail.subarray(startxref + 9, eof).toString("latin1"));
  if (!offsetText) throw new QesFailure("corrupt_pdf", "The PDF is incomplete: its trailer has no startxref offset.");
  const offset = Number(offsetText[1]);
  if (offset >= tailStart + startxref) {
    throw new QesFailure("corrupt_pdf", "The PDF is damaged: its cross-reference offset points past the trailer.");
  }
  let at = offset;
  while (at < pdf.length && WHITESPACE.has(pdf[at])) at++;
  const head = pdf.subarray(at, at + 32).toString("latin1");
  if (!head.startsWith("xref") && !/^\d+\s+\d+\s+obj\b/.test(head)) {
    throw new QesFailure("corrupt_pdf", "The PDF is damaged: its cross-reference offset does not point at a cross-reference section.");
  }
}

async function parse(pdf: Buffer): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(pdf, {
      ignoreEncryption: true,
      parseSpeed: ParseSpeeds.Fastest,
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0].slice(0, 200) : "unknown error";
    throw new QesFailure("corrupt_pdf", `The PDF could not be parsed: ${detail}`);
  }
}

/** Every signature field with a value (/FT /Sig, inherited from parent fields, and a /V dictionary). */
function signatureDictionaries(document: PDFDocument): { fieldName: string | null; dictionary: PDFDict }[] {
  const { context } = document;
  const lookup = (object: PDFObject | undefined) => (object === undefined ? undefined : context.lookup(object));
  if (!(document.catalog instanceof PDFDict)) throw new QesFailure("corrupt_pdf", "The PDF is damaged: it has no document catalog.");
  const acroForm = lookup(document.catalog.get(PDFName.of("AcroForm")));
  if (!(acroForm instanceof PDFDict)) return [];
  const fields = lookup(acroForm.get(PDFName.of("Fields")));
  if (!(fields instanceof PDFArray)) return [];

  const found: { fieldName: string | null; dictionary: PDFDict }[] = [];
  const seenFields = new Set<PDFDict>();
  const seenValues = new Set<PDFDict>();
  const walk = (kids: PDFArray, inheritedType: string | undefined, depth: number) => {
    if (depth > 32) throw new QesFailure("corrupt_pdf", "The PDF's form fields are nested too deeply.");
    for (let i = 0; i < kids.size(); i++) {
      const field = lookup(kids.get(i));
      if (!(field instanceof PDFDict) || seenFields.has(field)) continue;
      seenFields.add(field);
      const ownType = lookup(field.get(PDFName.of("FT")));
      const type = ownType instanceof PDFName ? ownType.decodeText() : inheritedType;
      const value = lookup(field.get(PDFName.of("V")));
      if (type === "Sig" && value instanceof PDFDict && !seenValues.has(value)) {
        seenValues.add(value);
        const name = lookup(field.get(PDFName.of("T")));
        found.push({ fieldName: name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : null, dictionary: value });
      }
      const children = lookup(field.get(PDFName.of("Kids")));
      if (children instanceof PDFArray) walk(children, type, depth + 1);
    }
  };
  walk(fields, undefined, 0);
  return found;
}

const isHexDigit = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/**
 * The signature's /ByteRange must be [0, a, b, length − b]: everything but the gap [a, b), and the
 * gap exactly the <…> hex string that follows this dictionary's /Contents key.
 */
function checkByteRange(pdf: Buffer, dictionary: PDFDict): { byteRange: PdfSignature["byteRange"]; contents: Buffer<ArrayBuffer> } {
  const range = dictionary.lookup(PDFName.of("ByteRange"));
  const numbers = range instanceof PDFArray && range.size() === 4 ? range.asArray().map((n) => dictionary.context.lookup(n)) : [];
  if (numbers.length !== 4 || !numbers.every((n) => n instanceof PDFNumber && Number.isSafeInteger(n.asNumber()) && n.asNumber() >= 0)) {
    throw new QesFailure("byte_range", "The signature's /ByteRange is missing or is not four non-negative integers.");
  }
  const [start, gapStart, gapEnd, tailLength] = numbers.map((n) => (n as PDFNumber).asNumber()) as PdfSignature["byteRange"];
  if (start !== 0 || gapStart < 1 || gapEnd <= gapStart) {
    throw new QesFailure("byte_range", `The signature's /ByteRange [${numbers.join(" ")}] does not start at the beginning of the file with one gap.`);
  }
  const covered = gapEnd + tailLength;
  if (covered < pdf.length) {
    throw new QesFailure(
      "byte_range",
      `The signature covers the first ${covered} bytes of a ${pdf.length}-byte file: ${pdf.length - covered} bytes were added after signing.`,
    );
  }
  if (covered > pdf.length) {
    throw new QesFailure("byte_range", `The signature covers ${covered} bytes but the file has only ${pdf.length}: the file was cut short or rewritten after signing.`);
  }

  // The gap is exactly one hex string: "<", hex digits, ">".
  let hexOnly = pdf[gapStart] === 0x3c && pdf[gapEnd - 1] === 0x3e && (gapEnd - gapStart) % 2 === 0;
  for (let i = gapStart + 1; hexOnly && i < gapEnd - 1; i++) hexOnly = isHexDigit(pdf[i]);
  // … and it is the value of this dictionary's /Contents.
  let keyEnd = gapStart;
  while (keyEnd > 0 && WHITESPACE.has(pdf[keyEnd - 1])) keyEnd--;
  const afterContentsKey = keyEnd >= 9 && pdf.subarray(keyEnd - 9, keyEnd).toString("latin1") === "/Contents";
  const contents = dictionary.lookup(PDFName.of("Contents"));
  const hex = hexOnly ? pdf.subarray(gapStart + 1, gapEnd - 1).toString("latin1") : "";
  if (!hexOnly || !afterContentsKey || !(contents instanceof PDFHexString) || contents.asString().toLowerCase() !== hex.toLowerCase()) {
    throw new QesFailure(
      "byte_range",
      "The signature's /ByteRange leaves bytes unsigned that are not the signature value itself (/Contents): part of the document is not covered by the signature.",
    );
  }
  return { byteRange: [start, gapStart, gapEnd, tailLength], contents: Buffer.from(hex, "hex") };
}

/**
 * Parses the PDF and returns its signatures, each with a checked byte range; throws QesFailure
 * (corrupt_pdf, unsigned, byte_range, unsupported) with a message naming the signature when the
 * file has several.
 */
export async function readPdfSignatures(pdf: Buffer): Promise<PdfSignature[]> {
  checkFileStructure(pdf);
  const document = await parse(pdf);
  try {
    return signaturesOf(pdf, document);
  } catch (error) {
    if (error instanceof QesFailure) throw error;
    // pdf-lib met objects of unexpected types (a damaged form or signature dictionary).
    throw new QesFailure("corrupt_pdf", "The PDF is damaged: its form or signature dictionaries could not be read.");
  }
}

function signaturesOf(pdf: Buffer, document: PDFDocument): PdfSignature[] {
  const dictionaries = signatureDictionaries(document);
  if (dictionaries.length === 0) throw new QesFailure("unsigned", "The PDF has no signature: it contains no signed signature field.");
  return dictionaries.map(({ fieldName, dictionary }, index) =>
    withSignatureContext(index, dictionaries.length, fieldName, () => {
      const subFilterName = dictionary.lookup(PDFName.of("SubFilter"));
      const subFilter = subFilterName instanceof PDFName ? subFilterName.decodeText() : null;
      const type = dictionary.lookup(PDFName.of("Type"));
      if ((type instanceof PDFName && type.decodeText() === "DocTimeStamp") || subFilter === "ETSI.RFC3161") {
        throw new QesFailure("unsupported", "Document timestamps (ETSI.RFC3161) are not supported; send the PDF as its signer signed it.");
      }
      if (subFilter !== null && !SUPPORTED_SUBFILTERS.has(subFilter)) {
        throw new QesFailure("unsupported", `The signature format ${subFilter} is not supported (only adbe.pkcs7.detached and ETSI.CAdES.detached).`);
      }
      const placeholder = dictionary.lookup(PDFName.of("Contents"));
      const { byteRange, contents } = (() => {
        try {
          return checkByteRange(pdf, dictionary);
        } catch (error) {
          // A signature dictionary whose /Contents is still the zero placeholder of a signing tool.
          if (placeholder instanceof PDFHexString && /^[\0\s0]*$/.test(placeholder.asString())) {
            throw new QesFailure("unsigned", "The PDF has an empty signature: it was prepared for signing but never signed.");
          }
          throw error;
        }
      })();
      if (contents.every((b) => b === 0)) {
        throw new QesFailure("unsigned", "The PDF has an empty signature: it was prepared for signing but never signed.");
      }
      return { fieldName, byteRange, contents, subFilter };
    }),
  );
}

/** Runs a check of one signature; a failure's message names the signature when there are several. */
function withSignatureContext<T>(index: number, count: number, fieldName: string | null, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw count > 1 && error instanceof QesFailure ? inContext(error, index, count, fieldName) : error;
  }
}

export function inContext(error: QesFailure, index: number, count: number, fieldName: string | null): QesFailure {
  const label = `Signature ${index + 1} of ${count}${fieldName ? ` (field "${fieldName}")` : ""}`;
  return new QesFailure(error.code, `${label}: ${error.message}`);
}
