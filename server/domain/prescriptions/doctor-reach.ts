import type { Prisma } from "@/server/db/generated/client";
import type { Tx } from "@/server/db/client";

/**
 * Which requests a doctor may see in the doctors' workspace. A doctor sees the prescription requests of the doctor queue (source
 * DOCTOR) of their organisation that are assigned to them, and the unassigned ones they may take: all
 * of them while the doctor sees all prescriptions, else those with an item whose anamnesis answers a
 * questionnaire assigned to them (DoctorQuestionnaire; docs/decisions/admin-tool.md#the-doctors-section).
 * One assigned to another doctor, or one they may not take, is not theirs to see (not found), like
 * another organisation's. Decisions apply the same rule under the request's lock (doctorMaySee).
 */
export const reachableBy = (organisationId: string, doctorId: string): Prisma.PrescriptionWhereInput => ({
  organisationId,
  deletedAt: null,
  source: "DOCTOR",
  OR: [
    { doctorId },
    { doctorId: null, organisation: { doctors: { some: { id: doctorId, canSeeAllPrescriptions: true } } } },
    { doctorId: null, lines: { some: { anamnesis: { is: { questionnaire: { doctors: { some: { doctorId } } } } } } } },
  ],
});

/** Whether the doctor may see (and so decide on) the request: reachableBy for one request, read in the caller's transaction. */
export async function doctorMaySee(tx: Tx, organisationId: string, doctorId: string, prescriptionId: string): Promise<boolean> {
  return (await tx.prescription.count({ where: { id: prescriptionId, ...reachableBy(organisationId, doctorId) } })) > 0;
}
