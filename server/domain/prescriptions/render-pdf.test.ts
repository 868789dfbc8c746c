/**
 * The prescription document as a pharmacist receives it: rendered from stored data, signed with the
 * sandbox signer, read back with poppler (pdftotext -layout for the words, pdftoppm for the QR
 * code's picture), in German (the default) and in English for an organisation that chose it.
 */
import QRCode from "qrcode";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/domain/actor";
import { prescriptionStorage, readVerified, renderedKey } from "@/server/storage/prescription-files";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { withShopSkus } from "@/tests/orders";
import { pdfLayoutText, pdfPageCount, pdfPageGray, pdfText } from "@/tests/pdf-text";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { createPrescription } from "@/tests/prescriptions";
import { createPortalUser } from "@/tests/webhook-logs";
import { approveAndSignPrescription } from "./decisions";
import { prescriptionDocumentProps, validUntilDay, type PrescriptionDocumentRow } from "./document";
import { changePrescriptionLanguage } from "./prescription-language";
import { QR_CODE_LAYOUT, renderPrescriptionDocument, renderPrescriptionPdf, toWinAnsi } from "./render-pdf";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let doctor: { id: string };
let adminUserId: string;
const actor: Actor = { type: "SYSTEM" };

beforeAll(async () => {
  t = await createTenant();
  // The sandbox organisation: its doctors sign with the sandbox signer (a certificate in their own name).
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
  await t.db.sku.update({
    where: { id: t.rxSku.id },
    data: { prescriptionName: "Finasterid 1 mg Filmtabletten", dosage: "1 mg", unit: "Filmtabletten", pcs: 28 },
  });
  doctor = await t.db.doctor.create({
    data: {
      ...PRESCRIBER,
      organisationId: t.organisation.id,
      displayName: "Dr. Anna Weber",
      email: "weber@example.com",
      professionalTitle: "Fachärztin für Allgemeinmedizin",
      practiceName: "Hausarztpraxis am Markt",
      prescriptionEmail: "rezepte@praxis-weber.example",
    },
  });
  adminUserId = (await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id })).id;
});

/** A request placed through order intake, approved and signed by the doctor; the signed PDF and when it was signed. */
async function signedDocument() {
  const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: `doc-${Math.random().toString(36).slice(2, 8)}` });
  await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { dosage: "1 Tablette täglich morgens" } });
  expect((await approveAndSignPrescription(t.organisation.id, prescriptionId, { actor, doctorId: doctor.id })).status).toBe("signed");
  const row = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
  return { prescriptionId, signedAt: row.signedAt!, pdf: await readVerified(row.signedFileKey!, row.signedFileSha256!) };
}

// The expectations' own reading of Berlin time (the document's zone), independent of document.ts.
const berlin = (at: Date, options: Intl.DateTimeFormatOptions, locale = "de-DE") => new Intl.DateTimeFormat(locale, { timeZone: "Europe/Berlin", ...options }).format(at);
const berlinDay = (at: Date) => berlin(at, { day: "2-digit", month: "2-digit", year: "numeric" });
const berlinTime = (at: Date) => berlin(at, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
/** Three calendar months after the Berlin day of `at` (the month's last day when it has no such day), dd.mm.yyyy. */
function threeMonthsAfter(at: Date): string {
  const [day, month, year] = berlinDay(at).split(".").map(Number);
  const target = new Date(Date.UTC(year, month - 1 + 3, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return `${String(Math.min(day, last)).padStart(2, "0")}.${String(target.getUTCMonth() + 1).padStart(2, "0")}.${target.getUTCFullYear()}`;
}

describe("the signed document (German, the default)", () => {
  it("names every element a pharmacist dispenses on, and the signature that was made", async () => {
    const { prescriptionId, signedAt, pdf } = await signedDocument();
    const text = pdfLayoutText(pdf);
    const zone = berlin(signedAt, { timeZoneName: "short" }).split(" ").at(-1); // MEZ or MESZ
    for (const expected of [
      "Privatrezept",
      `Rezept-ID: ${prescriptionId}`,
      // The prescriber: name, profession, practice address with telephone, e-mail, identification.
      "Dr. Anna Weber",
      "Fachärztin für Allgemeinmedizin",
      "Hausarztpraxis am Markt",
      "Marktstraße 1",
      "10115 Berlin",
      "Tel. +49 30 1234567",
      "E-Mail rezepte@praxis-weber.example",
      "LANR 123456789",
      // The patient: name, date of birth (dd.mm.yyyy), the address they ordered with.
      "Erika Mustermann",
      "geb. 09.03.1984",
      "Hauptstraße 5",
      "Deutschland",
      // Date of issue (the signing date) and validity (three months).
      `Ausgestellt am ${berlinDay(signedAt)}`,
      `Gültig bis ${threeMonthsAfter(signedAt)}`,
      // The item: the medicine as prescribed, strength, form and pack, PZN, quantity, dosage instructions.
      "Finasterid 1 mg Filmtabletten 33333333 2",
      "1 mg, Filmtabletten, 28 Stück",
      "Dosierung: 1 Tablette täglich morgens",
      // The signature statement: the certificate's subject, the signing time, the trust service.
      `Qualifiziert elektronisch signiert von Dr. Anna Weber am ${berlinDay(signedAt)} um ${berlinTime(signedAt)} ${zone} · Vertrauensdiensteanbieter: Rx Sandbox (not a trust service provider)`,
      "Rezept-ID zum Scannen",
      "Seite 1 von 1",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("Noch nicht signiert");
    expect(text).not.toContain("Dr. Sandbox Signer"); // not the configured signer: the doctor's own sandbox certificate
    expect(pdf.toString("latin1")).toContain("/adbe.pkcs7.detached");
  });

  it("shows the UID as a QR code: the picture on the page is the QR symbol of the UID, module by module", async () => {
    const { prescriptionId, pdf } = await signedDocument();
    const expected = QRCode.create(prescriptionId, { errorCorrectionLevel: QR_CODE_LAYOUT.errorCorrectionLevel }).modules;
    const quiet = QR_CODE_LAYOUT.quietZone;
    const total = expected.size + 2 * quiet;
    expect(expected.size).toBe(29); // a UUID in byte mode, error correction M: version 3

    const image = pdfPageGray(pdf, 1, 216);
    const scale = image.width / 595.28; // pixels per point (A4 is 595.28 pt wide)
    const left = (595.28 - QR_CODE_LAYOUT.right - QR_CODE_LAYOUT.size) * scale;
    const top = QR_CODE_LAYOUT.top * scale;
    const moduleSize = (QR_CODE_LAYOUT.size * scale) / total;
    expect(moduleSize).toBeGreaterThan(5);
    const darkAt = (row: number, col: number) => {
      const x = Math.round(left + (col + 0.5) * moduleSize);
      const y = Math.round(top + (row + 0.5) * moduleSize);
      return image.pixels[y * image.width + x] < 128;
    };
    const mismatches: string[] = [];
    for (let row = 0; row < total; row++) {
      for (let col = 0; col < total; col++) {
        const inside = row >= quiet && col >= quiet && row < quiet + expected.size && col < quiet + expected.size;
        const want = inside && Boolean(expected.get(row - quiet, col - quiet));
        if (darkAt(row, col) !== want) mismatches.push(`${row},${col}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("the document in English", () => {
  it("speaks English for an organisation that chose it, signed and as a draft", async () => {
    await changePrescriptionLanguage(t.organisation.id, adminUserId, "en");
    try {
      const { prescriptionId, signedAt, pdf } = await signedDocument();
      const text = pdfLayoutText(pdf);
      const day = (at: Date) => berlin(at, { day: "numeric", month: "long", year: "numeric" }, "en-GB");
      for (const expected of [
        "Private prescription",
        `Prescription ID: ${prescriptionId}`,
        "PRESCRIBER",
        "PATIENT",
        "born 9 March 1984",
        "Germany",
        `Issued on ${day(signedAt)}`,
        "Valid until",
        "Medicine (strength, form, pack)",
        "1 mg, Filmtabletten, 28 pieces",
        "Dosage: 1 Tablette täglich morgens",
        `Qualified electronic signature by Dr. Anna Weber on ${day(signedAt)} at ${berlinTime(signedAt)}`,
        "Trust service provider: Rx Sandbox (not a trust service provider)",
        "Page 1 of 1",
      ]) {
        expect(text, expected).toContain(expected);
      }
      expect(text).not.toMatch(/Privatrezept|Dosierung|Gültig/);

      const draft = await createPrescription(t);
      await renderPrescriptionPdf(draft.id);
      expect(pdfLayoutText(await prescriptionStorage().get(renderedKey(draft.id)))).toContain("Not yet signed – not valid for dispensing");
    } finally {
      await changePrescriptionLanguage(t.organisation.id, adminUserId, "de");
    }
  });
});

describe("the draft (prescription.render)", () => {
  it("renders to rendered/<uid>.pdf, says it is not yet signed, and a repeat gives the same bytes", async () => {
    const p = await createPrescription(t);
    await renderPrescriptionPdf(p.id);
    const row = await t.db.prescription.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.renderedFileKey).toBe(renderedKey(p.id));
    const pdf = await prescriptionStorage().get(renderedKey(p.id));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfLayoutText(pdf);
    for (const expected of [
      "Privatrezept",
      p.id,
      "Dr. Anna Schmidt",
      "Erika Müller",
      "geb. 09.03.1984",
      // Before signing the issue date is the signature's, and so is the start of the validity.
      "Ausgestellt am mit der Signatur",
      "Gültig bis 3 Monate ab Ausstellung",
      "Dosierung: 1 tablet daily",
      "Dosierung: keine Angabe", // the second line has none yet
      "Noch nicht signiert – nicht zur Abgabe",
    ]) {
      expect(text, expected).toContain(expected);
    }
    await renderPrescriptionPdf(p.id);
    expect(await prescriptionStorage().get(renderedKey(p.id))).toEqual(pdf);
  });

  it("never renders a signed, deleted or unknown prescription", async () => {
    for (const status of ["signed", "NON_QES_SIGNED", "EXTERNALLY_SIGNED", "externally signed"]) {
      const p = await createPrescription(t, { status });
      await renderPrescriptionPdf(p.id);
      expect(await prescriptionStorage().exists(renderedKey(p.id)), status).toBe(false);
      expect((await t.db.prescription.findUniqueOrThrow({ where: { id: p.id } })).renderedFileKey).toBeNull();
    }
    const deleted = await createPrescription(t, { deleted: true });
    await renderPrescriptionPdf(deleted.id);
    expect(await prescriptionStorage().exists(renderedKey(deleted.id))).toBe(false);
    await expect(renderPrescriptionPdf("no-such-prescription")).resolves.toBeUndefined();
  });
});

const row = (overrides: Partial<PrescriptionDocumentRow> = {}): PrescriptionDocumentRow => ({
  id: "p-1",
  createdAt: new Date("2026-01-05T10:00:00Z"),
  organisation: { prescriptionLanguage: "de" },
  doctor: null,
  patient: { displayName: "erika@example.com", firstName: "Erika", lastName: null, dateOfBirth: new Date("1984-03-09T00:00:00Z") },
  order: null,
  lines: [],
  ...overrides,
});
const sku = (displayName: string, extra: Partial<PrescriptionDocumentRow["lines"][number]["sku"]> = {}) => ({
  displayName,
  prescriptionName: null,
  pzn: null,
  dosage: null,
  unit: null,
  pcs: null,
  weight: null,
  ...extra,
});

describe("the document's props", () => {
  it("dates the document by the signing day in Berlin and counts its validity in calendar months", () => {
    const signedAt = new Date("2026-03-01T23:30:00Z"); // already 2 March in Berlin
    const props = prescriptionDocumentProps(row(), { signature: { kind: "qes", subject: "Dr. A", issuer: "TSP", signedAt } });
    expect(props).toMatchObject({ issuedOn: "02.03.2026", validUntil: "02.06.2026", createdAt: signedAt });
    expect(props.signature).toEqual({ signed: true, text: "Qualifiziert elektronisch signiert von Dr. A am 02.03.2026 um 00:30 MEZ · Vertrauensdiensteanbieter: TSP" });
    expect(validUntilDay({ year: 2026, month: 11, day: 30 })).toEqual({ year: 2027, month: 2, day: 28 });
    expect(validUntilDay({ year: 2027, month: 11, day: 30 })).toEqual({ year: 2028, month: 2, day: 29 });
    expect(validUntilDay({ year: 2026, month: 5, day: 31 })).toEqual({ year: 2026, month: 8, day: 31 });
    expect(validUntilDay({ year: 2026, month: 10, day: 15 })).toEqual({ year: 2027, month: 1, day: 15 });
    // Unsigned: no date yet; the creation time keeps the draft's bytes stable.
    expect(prescriptionDocumentProps(row())).toMatchObject({ issuedOn: null, validUntil: null, signature: { signed: false, text: "Noch nicht signiert – nicht zur Abgabe" } });
  });

  it("orders and describes the items: prescription name, strength only when the SKU's dosage states one, form, pack", () => {
    const props = prescriptionDocumentProps(
      row({
        lines: [
          { id: "b", quantity: 1, dosage: null, sku: sku("Zinc 10 mg", { dosage: "1 daily", unit: "pcs", pcs: 90 }) },
          { id: "a", quantity: 3, dosage: " 2 × daily ", sku: sku("Finasteride 1 mg", { prescriptionName: "Finasterid 1 mg Filmtabletten", pzn: "33333333", dosage: "1 mg", unit: "Filmtabletten", pcs: 28 }) },
          { id: "c", quantity: 1, dosage: "thinly", sku: sku("Urea cream", { dosage: "10 %", weight: 50 }) },
        ],
      }),
    );
    expect(props.items).toEqual([
      { position: 1, name: "Finasterid 1 mg Filmtabletten", details: "1 mg, Filmtabletten, 28 Stück", pzn: "33333333", quantity: 3, dosageInstructions: "2 × daily" },
      { position: 2, name: "Urea cream", details: "10 %, 50 g", pzn: null, quantity: 1, dosageInstructions: "thinly" },
      { position: 3, name: "Zinc 10 mg", details: "90 Stück", pzn: null, quantity: 1, dosageInstructions: null },
    ]);
    expect(props).toMatchObject({ prescriber: null, patient: { name: "Erika", dateOfBirth: "09.03.1984", addressLines: [] } });
    const english = prescriptionDocumentProps(row({ organisation: { prescriptionLanguage: "en" }, patient: { ...row().patient, lastName: "Müller" } }));
    expect(english).toMatchObject({ language: "en", patient: { name: "Erika Müller", dateOfBirth: "9 March 1984" }, signature: { text: "Not yet signed – not valid for dispensing" } });
  });

  it("keeps Windows-1252 text and folds what the built-in Helvetica cannot show", () => {
    expect(toWinAnsi("Müller – Straße € “quoted”")).toBe("Müller – Straße € “quoted”");
    expect(toWinAnsi("Łukasz Żółć\tDvořák")).toBe("Lukasz Zólc Dvorák");
    expect(toWinAnsi("Иван 😀")).toBe("???? ?");
  });

  it("breaks a long prescription over pages, the table head on each", async () => {
    const lines = Array.from({ length: 80 }, (_, i) => ({ id: String(i).padStart(3, "0"), quantity: i + 1, dosage: "daily", sku: sku(`Product ${String(i).padStart(2, "0")}`, { pzn: String(10_000_000 + i) }) }));
    const long = await renderPrescriptionDocument(prescriptionDocumentProps(row({ lines })));
    const pages = pdfPageCount(long);
    expect(pages).toBeGreaterThan(1);
    const text = pdfText(long);
    expect(text).toContain("Product 79");
    expect(text.match(/Arzneimittel \(Stärke/g)?.length).toBe(pages);
    expect(pdfLayoutText(long)).toContain(`Seite ${pages} von ${pages}`);
  });
});
