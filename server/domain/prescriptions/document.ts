/**
 * What a prescription document says (render-pdf.tsx draws it), built from stored data only: one
 * query with `prescriptionDocumentSelect`, and at signing the signer's identity and the signing
 * time. The elements are those of AMVV § 2 (1): the prescriber (name, profession, practice address
 * with a telephone number), the date of issue (for an electronic prescription: the date of its
 * qualified electronic signature), the patient's name and date of birth, each medicine with its
 * strength, form and quantity, the dosage instructions, the validity and the signature.
 * docs/decisions/prescriptions.md#the-prescription-document.
 */
import type { Prisma } from "@/server/db/generated/client";
import { DEFAULT_PRESCRIPTION_LANGUAGE, DOCUMENT_WORDS, isPrescriptionLanguage, type PrescriptionLanguage } from "./document-words";

/** The prescriber's details a document names (Doctor, set in the admin tool). */
export const prescriberSelect = {
  id: true,
  displayName: true,
  email: true,
  professionalTitle: true,
  practiceName: true,
  practiceStreet: true,
  practicePostalCode: true,
  practiceCity: true,
  practiceCountry: true,
  phone: true,
  prescriptionEmail: true,
  identificationType: true,
  identificationValue: true,
} as const satisfies Prisma.DoctorSelect;
export type Prescriber = Prisma.DoctorGetPayload<{ select: typeof prescriberSelect }>;

/** Everything a document shows, in one query (the render task, signing, the doctor's preview). */
export const prescriptionDocumentSelect = {
  id: true,
  createdAt: true,
  organisation: { select: { prescriptionLanguage: true } },
  doctor: { select: prescriberSelect },
  patient: { select: { displayName: true, firstName: true, lastName: true, dateOfBirth: true } },
  // The patient's postal address is the one they ordered with (the invoice address: intake defaults it to the delivery address).
  order: { select: { invoiceAddress: true } },
  lines: {
    select: {
      id: true,
      quantity: true,
      dosage: true,
      sku: { select: { displayName: true, prescriptionName: true, pzn: true, dosage: true, unit: true, pcs: true, weight: true } },
    },
  },
} as const satisfies Prisma.PrescriptionSelect;
export type PrescriptionDocumentRow = Prisma.PrescriptionGetPayload<{ select: typeof prescriptionDocumentSelect }>;
type Line = PrescriptionDocumentRow["lines"][number];

/** Where the document's dates are read: the organisation has no time zone of its own (the service is German). */
export const DOCUMENT_TIME_ZONE = "Europe/Berlin";

/** How the document is signed, or that it is not yet. */
export type SignatureStatement =
  | { kind: "unsigned" }
  /** A qualified electronic signature: the certificate's subject and trust service, known before signing. */
  | { kind: "qes"; subject: string; issuer: string; signedAt: Date }
  /** Signed without a QES (a provider of the organisation allows it): the deciding doctor released it. */
  | { kind: "nonQes"; signedAt: Date };

export type DocumentItem = {
  position: number;
  /** The medicine as prescribed: the SKU's prescription name, else its name. */
  name: string;
  /** Strength, form and pack size from the SKU (dosage, unit, pcs or weight), where known. */
  details: string | null;
  pzn: string | null;
  quantity: number;
  /** The dosage instructions the doctor confirmed for this line. */
  dosageInstructions: string | null;
};

export type PrescriptionDocumentProps = {
  language: PrescriptionLanguage;
  uid: string;
  prescriber: {
    name: string;
    title: string | null;
    practiceName: string | null;
    addressLines: string[];
    phone: string | null;
    email: string | null;
    /** e.g. "LANR 123456789". */
    identification: string | null;
  } | null;
  patient: { name: string; dateOfBirth: string | null; addressLines: string[] };
  /** Formatted in the document's language; null until signed (the issue date is the signature's). */
  issuedOn: string | null;
  validUntil: string | null;
  items: DocumentItem[];
  /** The statement as worded, and whether the document is signed. */
  signature: { signed: boolean; text: string };
  /** The PDF's metadata dates: the prescription's creation, or the signing time (equal data, equal bytes). */
  createdAt: Date;
};

const clean = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** The medicine as prescribed: the SKU's prescription name, else its name. */
export const medicineName = (sku: { displayName: string; prescriptionName: string | null }): string => clean(sku.prescriptionName) ?? sku.displayName;

/**
 * Lines in the document's order (the medicine's name, its PZN, then the line): the order the items
 * are numbered in, on the document, in the refusal that names what is missing, and in the doctors'
 * workspace.
 */
export function inDocumentOrder<L extends { id: string; sku: { displayName: string; prescriptionName: string | null; pzn: string | null } }>(lines: readonly L[]): L[] {
  return [...lines].sort(
    (a, b) => medicineName(a.sku).localeCompare(medicineName(b.sku)) || (a.sku.pzn ?? "").localeCompare(b.sku.pzn ?? "") || a.id.localeCompare(b.id),
  );
}

/** The document's language: the organisation's setting, German unless it says English. */
export const documentLanguageOf = (organisation: { prescriptionLanguage: string } | null | undefined): PrescriptionLanguage =>
  organisation && isPrescriptionLanguage(organisation.prescriptionLanguage) ? organisation.prescriptionLanguage : DEFAULT_PRESCRIPTION_LANGUAGE;

const LOCALES: Record<PrescriptionLanguage, string> = { de: "de-DE", en: "en-GB" };

/** A calendar day: dd.mm.yyyy in German, "9 March 1984" in English. */
function formatDay(language: PrescriptionLanguage, year: number, month: number, day: number): string {
  const options: Intl.DateTimeFormatOptions =
    language === "de" ? { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" } : { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
  return new Intl.DateTimeFormat(LOCALES[language], options).format(new Date(Date.UTC(year, month - 1, day)));
}

/** The calendar day of a moment in the document's time zone. */
function dayIn(at: Date): { year: number; month: number; day: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: DOCUMENT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

/**
 * The last day a prescription issued on `issued` may be dispensed: AMVV § 2 (5) (a prescription that
 * states no validity is valid for three months), counted as BGB § 188 counts months: until the day
 * of the third month with the issue day's number, or that month's last day when it has none
 * (30 November → 28/29 February).
 */
export function validUntilDay(issued: { year: number; month: number; day: number }): { year: number; month: number; day: number } {
  const monthIndex = issued.month - 1 + 3;
  const year = issued.year + Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day: Math.min(issued.day, lastDay) };
}

/** A moment as the statement says it: "02.03.2026 um 14:05 MEZ" / "2 March 2026 at 14:05 CET". */
function formatMoment(language: PrescriptionLanguage, at: Date): string {
  const { year, month, day } = dayIn(at);
  const time = new Intl.DateTimeFormat(LOCALES[language], { timeZone: DOCUMENT_TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" }).format(at);
  return `${formatDay(language, year, month, day)} ${language === "de" ? "um" : "at"} ${time}`;
}

function countryNameIn(language: PrescriptionLanguage, code: string | null): string | null {
  if (!code) return null;
  try {
    return new Intl.DisplayNames([LOCALES[language]], { type: "region", fallback: "code" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const joined = (separator: string, ...parts: (string | null | undefined)[]): string | null => clean(parts.map(clean).filter(Boolean).join(separator));

function prescriberOf(doctor: Prescriber, language: PrescriptionLanguage): NonNullable<PrescriptionDocumentProps["prescriber"]> {
  return {
    name: doctor.displayName.trim(),
    title: clean(doctor.professionalTitle),
    practiceName: clean(doctor.practiceName),
    addressLines: [clean(doctor.practiceStreet), joined(" ", doctor.practicePostalCode, doctor.practiceCity), countryNameIn(language, clean(doctor.practiceCountry))].filter(
      (line): line is string => line !== null,
    ),
    phone: clean(doctor.phone),
    email: clean(doctor.prescriptionEmail) ?? clean(doctor.email),
    identification: clean(doctor.identificationValue) ? joined(" ", doctor.identificationType, doctor.identificationValue) : null,
  };
}

const text = (value: unknown): string | null => (typeof value === "string" ? clean(value) : null);

/** The order's address (the spec's Address: street, house_number, zip_code, city, country, additional_address) as lines. */
function addressLinesOf(address: unknown, language: PrescriptionLanguage): string[] {
  if (!address || typeof address !== "object") return [];
  const a = address as Record<string, unknown>;
  return [joined(" ", text(a.street), text(a.house_number)), text(a.additional_address), joined(" ", text(a.zip_code), text(a.city)), countryNameIn(language, text(a.country))].filter(
    (line): line is string => line !== null,
  );
}

/** First and last name, else the display name. */
export const patientNameOf = (p: { displayName: string; firstName: string | null; lastName: string | null }): string =>
  joined(" ", p.firstName, p.lastName) ?? p.displayName.trim();

const number = (language: PrescriptionLanguage, value: number) => new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 3 }).format(value);

/** "1 mg", "50 mg/ml", "5 %", "1000 IE": a SKU's dosage that states a strength (others are instructions, e.g. "1 daily"). */
export const isStrength = (value: string): boolean => /\d\s*(mg|g|µg|μg|mcg|ng|ml|l|%|i\.?\s?e\.?|iu|mmol|mval)\b/i.test(value) || /\d\s*%/.test(value);

/**
 * Strength (the SKU's dosage, when it states one), form (its unit, e.g. "Filmtabletten"; "pcs"
 * means pieces) and pack size (pcs, else weight in grams).
 */
function itemDetails(sku: Line["sku"], language: PrescriptionLanguage): string | null {
  const words = DOCUMENT_WORDS[language];
  const strength = clean(sku.dosage);
  const unit = clean(sku.unit);
  const form = unit && !/^(pcs|pc|pieces?|stk?\.?|stück)$/i.test(unit) ? unit : null;
  const pack = sku.pcs ? words.pieces(number(language, sku.pcs)) : sku.weight ? words.grams(number(language, sku.weight)) : null;
  return joined(", ", strength && isStrength(strength) ? strength : null, form, pack);
}

/**
 * The document's props from the stored prescription. `prescriber` names the deciding doctor when
 * it is not (yet) the assigned one (signing, the doctor's preview); `signature` says how it is
 * signed (default: not yet). Signed, the issue date is the signing date.
 */
export function prescriptionDocumentProps(
  row: PrescriptionDocumentRow,
  options: { prescriber?: Prescriber | null; signature?: SignatureStatement } = {},
): PrescriptionDocumentProps {
  const language = documentLanguageOf(row.organisation);
  const words = DOCUMENT_WORDS[language];
  const doctor = options.prescriber === undefined ? row.doctor : options.prescriber;
  const signature = options.signature ?? { kind: "unsigned" };
  const signedAt = signature.kind === "unsigned" ? null : signature.signedAt;
  const issued = signedAt ? dayIn(signedAt) : null;
  const validUntil = issued ? validUntilDay(issued) : null;
  const dob = row.patient.dateOfBirth; // a @db.Date column arrives as midnight UTC
  return {
    language,
    uid: row.id,
    prescriber: doctor ? prescriberOf(doctor, language) : null,
    patient: {
      name: patientNameOf(row.patient) || words.none,
      dateOfBirth: dob ? formatDay(language, dob.getUTCFullYear(), dob.getUTCMonth() + 1, dob.getUTCDate()) : null,
      addressLines: addressLinesOf(row.order?.invoiceAddress, language),
    },
    issuedOn: issued ? formatDay(language, issued.year, issued.month, issued.day) : null,
    validUntil: validUntil ? formatDay(language, validUntil.year, validUntil.month, validUntil.day) : null,
    items: inDocumentOrder(row.lines).map((line, index) => ({
      position: index + 1,
      name: medicineName(line.sku),
      details: itemDetails(line.sku, language),
      pzn: clean(line.sku.pzn),
      quantity: line.quantity,
      dosageInstructions: clean(line.dosage),
    })),
    signature:
      signature.kind === "qes"
        ? { signed: true, text: words.qesSigned(signature.subject, formatMoment(language, signature.signedAt), signature.issuer) }
        : signature.kind === "nonQes"
          ? { signed: true, text: words.nonQesSigned(doctor?.displayName.trim() || words.none, formatMoment(language, signature.signedAt)) }
          : { signed: false, text: words.notSigned },
    createdAt: signedAt ?? row.createdAt,
  };
}
