import { database } from "@/server/db/client";
import type { Prisma } from "@/server/db/generated/client";
import { missingPrescriptionElements, type MissingElement } from "./completeness";
import { prescriptionDocumentSelect } from "./document";
import { claimedByAnother } from "./lock";
import { PRESCRIPTION_STATUS, storedSpellings } from "./statuses";

/**
 * What the Sign centre lists: the doctor's approved, unsigned prescriptions of the doctor queue
 * (oldest request first), each with what signing would find missing (completeness.ts) and whether
 * a batch is signing it right now. The counter in the workspace's navigation counts the same.
 */
const SIGN_CENTRE_LIMIT = 200;

const waitingForSignature = (organisationId: string, doctorId: string): Prisma.PrescriptionWhereInput => ({
  organisationId,
  doctorId,
  source: "DOCTOR",
  deletedAt: null,
  status: { in: storedSpellings([PRESCRIPTION_STATUS.approved]) },
});

export type SignCentreItem = Awaited<ReturnType<typeof listSignCentre>>["items"][number];

export async function listSignCentre(organisationId: string, doctorId: string) {
  const db = await database();
  const where = waitingForSignature(organisationId, doctorId);
  const [total, rows] = await Promise.all([
    db.prescription.count({ where }),
    db.prescription.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: SIGN_CENTRE_LIMIT,
      select: {
        ...prescriptionDocumentSelect,
        signingClaimId: true,
        signingClaimedUntil: true,
        order: { select: { invoiceAddress: true, name: true, onHold: true } },
      },
    }),
  ]);
  const now = new Date();
  return {
    total,
    items: rows.map((row) => ({
      ...row,
      missing: missingPrescriptionElements(row, row.doctor) satisfies MissingElement[],
      beingSigned: claimedByAnother(row, null, now),
    })),
  };
}

/** The navigation's counter: approved, not yet signed, the doctor's own. */
export async function countAwaitingSignature(organisationId: string, doctorId: string): Promise<number> {
  return (await database()).prescription.count({ where: waitingForSignature(organisationId, doctorId) });
}
