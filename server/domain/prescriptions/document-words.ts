/**
 * The words of the prescription document (render-pdf.tsx), German and English: the organisation's
 * setting Organisation.prescriptionLanguage chooses one ("de" by default). Kept beside the document
 * rather than in messages/*.json: nothing else shows them, and both languages are checked here by
 * the type (a key missing in one is a compile error).
 */
export const PRESCRIPTION_LANGUAGES = ["de", "en"] as const;
export type PrescriptionLanguage = (typeof PRESCRIPTION_LANGUAGES)[number];
export const DEFAULT_PRESCRIPTION_LANGUAGE: PrescriptionLanguage = "de";

export const isPrescriptionLanguage = (value: string): value is PrescriptionLanguage => (PRESCRIPTION_LANGUAGES as readonly string[]).includes(value);

type Words = {
  title: string;
  uid: string;
  prescriber: string;
  patient: string;
  phone: string;
  email: string;
  bornOn: string;
  issuedOn: string;
  validUntil: string;
  /** Before signing: the issue date is the signature's (AMVV § 2 (1) 2). */
  issuedOnSigning: string;
  validForThreeMonths: string;
  items: string;
  position: string;
  medicine: string;
  pzn: string;
  quantity: string;
  dosage: string;
  noDosage: string;
  pieces: (count: string) => string;
  grams: (amount: string) => string;
  signature: string;
  qesSigned: (subject: string, at: string, issuer: string) => string;
  nonQesSigned: (name: string, at: string) => string;
  notSigned: string;
  notSignedHint: string;
  scanHint: string;
  page: (page: number, pages: number) => string;
  none: string;
};

export const DOCUMENT_WORDS: Record<PrescriptionLanguage, Words> = {
  de: {
    title: "Privatrezept",
    uid: "Rezept-ID",
    prescriber: "Verschreibende ärztliche Person",
    patient: "Patientin / Patient",
    phone: "Tel.",
    email: "E-Mail",
    bornOn: "geb.",
    issuedOn: "Ausgestellt am",
    validUntil: "Gültig bis",
    issuedOnSigning: "mit der Signatur",
    validForThreeMonths: "3 Monate ab Ausstellung",
    items: "Verordnung",
    position: "Nr.",
    medicine: "Arzneimittel (Stärke, Darreichungsform, Packung)",
    pzn: "PZN",
    quantity: "Menge",
    dosage: "Dosierung",
    noDosage: "keine Angabe",
    pieces: (count) => `${count} Stück`,
    grams: (amount) => `${amount} g`,
    signature: "Signatur",
    qesSigned: (subject, at, issuer) => `Qualifiziert elektronisch signiert von ${subject} am ${at} · Vertrauensdiensteanbieter: ${issuer}`,
    nonQesSigned: (name, at) => `Ohne qualifizierte elektronische Signatur freigegeben von ${name} am ${at}`,
    notSigned: "Noch nicht signiert – nicht zur Abgabe",
    notSignedHint: "Dieses Dokument ist ein Entwurf. Eine Apotheke darf erst nach der qualifizierten elektronischen Signatur abgeben.",
    scanHint: "Rezept-ID zum Scannen",
    page: (page, pages) => `Seite ${page} von ${pages}`,
    none: "—",
  },
  en: {
    title: "Private prescription",
    uid: "Prescription ID",
    prescriber: "Prescriber",
    patient: "Patient",
    phone: "Tel.",
    email: "E-mail",
    bornOn: "born",
    issuedOn: "Issued on",
    validUntil: "Valid until",
    issuedOnSigning: "on signing",
    validForThreeMonths: "3 months from issue",
    items: "Prescribed",
    position: "No.",
    medicine: "Medicine (strength, form, pack)",
    pzn: "PZN",
    quantity: "Qty",
    dosage: "Dosage",
    noDosage: "not given",
    pieces: (count) => `${count} pieces`,
    grams: (amount) => `${amount} g`,
    signature: "Signature",
    qesSigned: (subject, at, issuer) => `Qualified electronic signature by ${subject} on ${at} · Trust service provider: ${issuer}`,
    nonQesSigned: (name, at) => `Approved without a qualified electronic signature by ${name} on ${at}`,
    notSigned: "Not yet signed – not valid for dispensing",
    notSignedHint: "This document is a draft. A pharmacy may dispense only once it carries the qualified electronic signature.",
    scanHint: "Prescription ID to scan",
    page: (page, pages) => `Page ${page} of ${pages}`,
    none: "—",
  },
};
