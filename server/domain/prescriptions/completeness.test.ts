/**
 * Signing refuses a prescription that lacks what the document must name (AMVV § 2 (1)): 422 with a
 * message naming every missing element, in English for the REST API and German in a German portal
 * call; nothing is written, nothing is rendered for signing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { wordIn } from "@/i18n/error-text";
import type { Actor } from "@/server/domain/actor";
import { UnprocessableError } from "@/server/domain/errors";
import { atSigningKey, prescriptionStorage } from "@/server/storage/prescription-files";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { IncompletePrescriptionError } from "./completeness";
import { approvePrescription, approveAndSignPrescription, signPrescription } from "./decisions";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let doctor: { id: string };
const actor: Actor = { type: "SYSTEM" };

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  // The sandbox: a complete prescription signs with the doctor's sandbox certificate, no trust service needed.
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Weber" } });
});

/** The refusal of signing, checked to have written nothing. */
async function refusal(prescriptionId: string, sign: () => Promise<unknown>): Promise<IncompletePrescriptionError> {
  const before = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
  const error = await sign().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnprocessableError);
  expect(error).toBeInstanceOf(IncompletePrescriptionError);
  const after = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
  expect(after).toMatchObject({ status: before.status, signedFileKey: null, signedAt: null, renderedFileKey: before.renderedFileKey });
  expect(await prescriptionStorage().exists(atSigningKey(prescriptionId))).toBe(false);
  expect(await t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(0);
  return error as IncompletePrescriptionError;
}

describe("signing an incomplete prescription", () => {
  it("is refused without dosage instructions, naming the item", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: "no-dosage" });
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { dosage: null } });
    await approvePrescription(t.organisation.id, prescriptionId, { actor, doctorId: doctor.id });
    const error = await refusal(prescriptionId, () => signPrescription(t.organisation.id, prescriptionId, { actor }));
    expect(error.message).toBe("Cannot sign: item 1 (Finasteride 1 mg) has no dosage instructions.");
    expect(error).toMatchObject({ code: "prescription_incomplete", details: { missing: ["item_1_dosage"] } });
    expect(wordIn("de")(error.text!)).toBe("Signieren nicht möglich: bei Position 1 (Finasteride 1 mg) fehlt die Dosierung.");
    // Blank is no instruction either; with instructions it signs.
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { dosage: "   " } });
    await refusal(prescriptionId, () => signPrescription(t.organisation.id, prescriptionId, { actor }));
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { dosage: "1 tablet daily" } });
    expect((await signPrescription(t.organisation.id, prescriptionId, { actor })).status).toBe("signed");
  });

  it("is refused when the doctor has no practice address, no title or no telephone", async () => {
    const partial = await t.db.doctor.create({
      data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Halb", practiceStreet: null, practiceCity: " " },
    });
    const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: "no-address" });
    const error = await refusal(prescriptionId, () => approveAndSignPrescription(t.organisation.id, prescriptionId, { actor, doctorId: partial.id }));
    expect(error.message).toBe("Cannot sign: the doctor has no practice address.");
    // Nothing of the approval stays either: the sign click is one transaction.
    expect((await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).status).toBe("waiting for doctor");

    await t.db.doctor.update({ where: { id: partial.id }, data: { professionalTitle: null, phone: "" } });
    const more = await refusal(prescriptionId, () => approveAndSignPrescription(t.organisation.id, prescriptionId, { actor, doctorId: partial.id }));
    expect(more.message).toBe("Cannot sign: the doctor has no professional title, the doctor has no practice address, the doctor has no telephone number.");
    expect(more.details).toEqual({ missing: ["doctor_professional_title", "doctor_practice_address", "doctor_phone"] });
  });

  it("is refused without the patient's date of birth, and names every missing element at once", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: "no-birth" });
    const { patientId } = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
    await t.db.patientProfile.update({ where: { id: patientId }, data: { dateOfBirth: null } });
    const error = await refusal(prescriptionId, () => approveAndSignPrescription(t.organisation.id, prescriptionId, { actor, doctorId: doctor.id }));
    expect(error.message).toBe("Cannot sign: the patient has no date of birth.");

    await t.db.patientProfile.update({ where: { id: patientId }, data: { lastName: null } });
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { dosage: null } });
    await t.db.doctor.update({ where: { id: doctor.id }, data: { phone: null } });
    try {
      const all = await refusal(prescriptionId, () => approveAndSignPrescription(t.organisation.id, prescriptionId, { actor, doctorId: doctor.id }));
      expect(all.message).toBe(
        "Cannot sign: the doctor has no telephone number, the patient has no first and last name, the patient has no date of birth, item 1 (Finasteride 1 mg) has no dosage instructions.",
      );
    } finally {
      await t.db.doctor.update({ where: { id: doctor.id }, data: { phone: PRESCRIBER.phone } });
    }
  });
});
