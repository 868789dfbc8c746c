/**
 * What a prescription must name before it is signed: the elements of AMVV § 2 (1) the document
 * takes from our data. Mandatory: the prescriber's name, professional title, practice address
 * (street, postal code, city, country) and telephone number; the patient's first and last name and
 * date of birth; at least one item, each with its quantity and dosage instructions. The medicine's
 * name (with its strength, as the SKU is named) always exists; the date of issue is the signing
 * date; the validity follows from it. docs/decisions/prescriptions.md#the-prescription-document.
 */
import { errorText, type ErrorText } from "@/i18n/error-text";
import { UnprocessableError } from "@/server/domain/errors";
import { inDocumentOrder, medicineName, type Prescriber, type PrescriptionDocumentRow } from "./document";

/** One missing element: a stable code (the refusal's details) and its message. */
export type MissingElement = { code: string; text: ErrorText };

const blank = (value: string | null | undefined) => !value?.trim();

/**
 * Every element the prescription lacks for signing, in the order the document shows them (empty:
 * complete). `prescriber` is the doctor who signs (default: the one assigned).
 */
export function missingPrescriptionElements(row: PrescriptionDocumentRow, prescriber: Prescriber | null = row.doctor): MissingElement[] {
  const missing: MissingElement[] = [];
  const add = (code: string, text: ErrorText) => missing.push({ code, text });
  if (!prescriber) {
    add("doctor", errorText("prescriptions.missing.doctor"));
  } else {
    if (blank(prescriber.displayName)) add("doctor_name", errorText("prescriptions.missing.doctorName"));
    if (blank(prescriber.professionalTitle)) add("doctor_professional_title", errorText("prescriptions.missing.professionalTitle"));
    if ([prescriber.practiceStreet, prescriber.practicePostalCode, prescriber.practiceCity, prescriber.practiceCountry].some(blank)) {
      add("doctor_practice_address", errorText("prescriptions.missing.practiceAddress"));
    }
    if (blank(prescriber.phone)) add("doctor_phone", errorText("prescriptions.missing.phone"));
  }
  if (blank(row.patient.firstName) || blank(row.patient.lastName)) add("patient_name", errorText("prescriptions.missing.patientName"));
  if (!row.patient.dateOfBirth) add("patient_date_of_birth", errorText("prescriptions.missing.dateOfBirth"));
  if (row.lines.length === 0) add("items", errorText("prescriptions.missing.items"));
  inDocumentOrder(row.lines).forEach((line, index) => {
    const item = { position: index + 1, name: medicineName(line.sku) };
    if (!(line.quantity > 0)) add(`item_${item.position}_quantity`, errorText("prescriptions.missing.quantity", item));
    if (blank(line.dosage)) add(`item_${item.position}_dosage`, errorText("prescriptions.missing.dosage", item));
  });
  return missing;
}

/** Signing an incomplete prescription: 422, naming every missing element ("Cannot sign: …"). */
export class IncompletePrescriptionError extends UnprocessableError {
  constructor(readonly missing: MissingElement[]) {
    super(errorText("prescriptions.incomplete", { missing: missing.map((m) => m.text) }), undefined, {
      code: "prescription_incomplete",
      details: { missing: missing.map((m) => m.code) },
    });
  }
}

/** Refuses (IncompletePrescriptionError) unless the prescription names everything signing needs. */
export function assertCompleteForSigning(row: PrescriptionDocumentRow, prescriber: Prescriber | null = row.doctor): void {
  const missing = missingPrescriptionElements(row, prescriber);
  if (missing.length > 0) throw new IncompletePrescriptionError(missing);
}
