import { beforeEach, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { pdfPageCount, pdfText } from "@/tests/pdf-text";
import { createPrescription } from "@/tests/prescriptions";
import { prescriptionDocumentProps, renderPrescriptionDocument, renderPrescriptionPdf, toWinAnsi } from "./render-pdf";
import { prescriptionStorage, renderedKey } from "@/server/storage/prescription-files";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

describe("prescription PDF", () => {
  it("builds the document's text from the prescription, its doctor, patient and lines", () => {
    const props = prescriptionDocumentProps({
      id: "p-1",
      createdAt: new Date("2026-03-01T23:30:00Z"), // already 2 March in Berlin
      doctor: null,
      patient: { displayName: "erika@example.com", firstName: "Erika", lastName: null, dateOfBirth: new Date("1984-03-09T00:00:00Z") },
      lines: [
        { quantity: 1, dosage: null, sku: { displayName: "Zinc 10 mg", prescriptionName: null, pzn: null, dosage: "1 daily" } },
        { quantity: 3, dosage: "2 × daily", sku: { displayName: "Finasteride 1 mg", prescriptionName: "Finasterid 1 mg Filmtabletten", pzn: "33333333", dosage: null } },
      ],
    });
    expect(props).toEqual({
      uid: "p-1",
      date: "2026-03-02",
      doctorName: "—",
      patientName: "Erika",
      patientDateOfBirth: "1984-03-09",
      lines: [
        { name: "Finasterid 1 mg Filmtabletten", pzn: "33333333", dosage: "2 × daily", quantity: 3 },
        { name: "Zinc 10 mg", pzn: "—", dosage: "1 daily", quantity: 1 },
      ],
      createdAt: new Date("2026-03-01T23:30:00Z"),
    });
    const anonymous = prescriptionDocumentProps({
      id: "p-2",
      createdAt: new Date("2026-06-01T10:00:00Z"),
      doctor: { displayName: "Dr. Who" },
      patient: { displayName: "Patient 7", firstName: null, lastName: " ", dateOfBirth: null },
      lines: [],
    });
    expect(anonymous).toMatchObject({ doctorName: "Dr. Who", patientName: "Patient 7", patientDateOfBirth: "—", lines: [] });
  });

  it("keeps Windows-1252 text and folds what the built-in Helvetica cannot show", () => {
    expect(toWinAnsi("Müller – Straße € “quoted”")).toBe("Müller – Straße € “quoted”");
    expect(toWinAnsi("Łukasz Żółć\tDvořák")).toBe("Lukasz Zólc Dvorák");
    expect(toWinAnsi("Иван 😀")).toBe("???? ?");
  });

  it("renders the prescription to rendered/<uid>.pdf and records the key; a repeat gives the same bytes", async () => {
    const p = await createPrescription(t);
    await renderPrescriptionPdf(p.id);

    const row = await t.db.prescription.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.renderedFileKey).toBe(renderedKey(p.id));
    const pdf = await prescriptionStorage().get(renderedKey(p.id));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.subarray(-6).toString()).toContain("%%EOF");
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf);
    for (const expected of [
      "Prescription",
      p.id,
      "Dr. Anna Schmidt",
      "Erika Müller",
      "1984-03-09",
      "Finasteride 1 mg",
      "33333333",
      "1 tablet daily",
      "DosageQuantityAspirin 500 mg11111111—1", // the second line: no dosage
      "Aspirin 500 mg",
      "11111111",
      "Page 1 of 1",
    ]) {
      expect(text).toContain(expected);
    }

    await renderPrescriptionPdf(p.id);
    expect(await prescriptionStorage().get(renderedKey(p.id))).toEqual(pdf);
  });

  it("shows — without a doctor, and breaks long prescriptions over pages", async () => {
    const p = await createPrescription(t, { withDoctor: false });
    await renderPrescriptionPdf(p.id);
    expect(pdfText(await prescriptionStorage().get(renderedKey(p.id)))).toContain("Doctor—Patient");

    const long = await renderPrescriptionDocument({
      uid: "p-long",
      date: "2026-01-01",
      doctorName: "Dr. A",
      patientName: "B",
      patientDateOfBirth: "—",
      lines: Array.from({ length: 80 }, (_, i) => ({ name: `Product ${i}`, pzn: String(10_000_000 + i), dosage: "daily", quantity: i + 1 })),
      createdAt: new Date("2026-01-01T00:00:00Z"),
    });
    expect(pdfPageCount(long)).toBeGreaterThan(1);
    const text = pdfText(long);
    expect(text).toContain("Product 79");
    expect(text.match(/Quantity/g)?.length).toBe(pdfPageCount(long)); // the table head repeats on each page
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
