import type { Prisma } from "@/server/db/generated/client";
import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { readVerified } from "@/server/storage/prescription-files";
import { missingPrescriptionElements, type MissingElement } from "./completeness";
import { prescriberSelect, prescriptionDocumentProps, prescriptionDocumentSelect } from "./document";
import { renderPrescriptionDocument } from "./render-pdf";
import { reachableBy } from "./doctor-reach";
import { AWAITING_DOCTOR_STATUSES, storedSpellings, type PrescriptionStatus } from "./statuses";

/** The doctors' workspace reads, each limited to what the doctor may see (doctor-reach.ts). */

/**
 * The doctor's queue in these statuses: what they may take, without requests of an order on hold
 * (shared with the new-request e-mails, request-notices.ts, so both count the same requests).
 */
export const doctorQueueWhere = (organisationId: string, doctorId: string, statuses: readonly PrescriptionStatus[]): Prisma.PrescriptionWhereInput => ({
  ...reachableBy(organisationId, doctorId),
  status: { in: storedSpellings(statuses) },
  NOT: { order: { is: { onHold: true } } },
});

/** The queue shows at most this many requests at once (the oldest); the total says how many wait. */
export const DOCTOR_QUEUE_LIMIT = 200;

/**
 * Requests waiting for a doctor (waiting, on hold, approved but not signed) the doctor may take,
 * oldest first. Requests of an order on hold stay out until it is released (decisions.ts refuses
 * them meanwhile).
 */
export async function listDoctorQueue(organisationId: string, doctorId: string) {
  const db = await database();
  const where = doctorQueueWhere(organisationId, doctorId, AWAITING_DOCTOR_STATUSES);
  const [items, total] = await Promise.all([
    db.prescription.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: DOCTOR_QUEUE_LIMIT,
      select: {
        id: true,
        status: true,
        doctorId: true,
        createdAt: true,
        patient: { select: { displayName: true, firstName: true, lastName: true, dateOfBirth: true } },
        order: { select: { id: true, name: true } },
        lines: { select: { quantity: true, anamnesisId: true, sku: { select: { displayName: true } } } },
      },
    }),
    db.prescription.count({ where }),
  ]);
  return { items, total };
}

export type DoctorQueue = Awaited<ReturnType<typeof listDoctorQueue>>;

/** One request with what the doctor decides on: the patient and their profile fields, the items and their anamneses, the history. */
export async function getDoctorRequest(organisationId: string, doctorId: string, prescriptionId: string) {
  const db = await database();
  const prescription = await db.prescription.findFirst({
    where: { id: prescriptionId, ...reachableBy(organisationId, doctorId) },
    select: {
      id: true,
      status: true,
      doctorId: true,
      createdAt: true,
      signedAt: true,
      renderedFileKey: true,
      signedFileKey: true,
      doctor: { select: { id: true, displayName: true } },
      order: { select: { id: true, name: true, status: true, onHold: true } },
      patient: {
        select: {
          id: true,
          displayName: true,
          firstName: true,
          lastName: true,
          email: true,
          dateOfBirth: true,
          properties: { select: { value: true, field: { select: { key: true, displayName: true } } }, orderBy: { field: { displayName: "asc" } } },
        },
      },
      lines: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          quantity: true,
          dosage: true,
          sku: { select: { id: true, displayName: true, prescriptionName: true, pzn: true, dosage: true } },
          anamnesis: {
            select: {
              id: true,
              status: true,
              data: true,
              completedAt: true,
              questionnaire: { select: { id: true, displayName: true, model: true } },
            },
          },
        },
      },
      history: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { fromStatus: true, toStatus: true, note: true, createdAt: true } },
    },
  });
  if (!prescription) throw new NotFoundError();
  return prescription;
}

export type DoctorRequest = Awaited<ReturnType<typeof getDoctorRequest>>;

/**
 * The request's PDF as the doctor sees it: the signed copy once signed; before, the PDF as signing
 * will render it (naming this doctor), rendered now and not stored.
 */
export async function getDoctorRequestPdf(organisationId: string, doctorId: string, prescriptionId: string) {
  const db = await database();
  const p = await db.prescription.findFirst({
    where: { id: prescriptionId, ...reachableBy(organisationId, doctorId) },
    select: { ...prescriptionDocumentSelect, signedFileKey: true, signedFileSha256: true },
  });
  if (!p) throw new NotFoundError();
  if (p.signedFileKey && p.signedFileSha256) {
    return { filename: `prescription-${p.id}-signed.pdf`, content: await readVerified(p.signedFileKey, p.signedFileSha256), signed: true };
  }
  const prescriber = await db.doctor.findUniqueOrThrow({ where: { id: doctorId }, select: prescriberSelect });
  const content = await renderPrescriptionDocument(prescriptionDocumentProps(p, { prescriber }));
  return { filename: `prescription-${p.id}-preview.pdf`, content, signed: false };
}

/**
 * What the request lacks for this doctor to sign it (completeness.ts, with this doctor as the
 * prescriber): the page says it before the doctor tries, in the words signing would refuse with.
 */
export async function missingForSigningBy(organisationId: string, doctorId: string, prescriptionId: string): Promise<MissingElement[]> {
  const db = await database();
  const [p, prescriber] = await Promise.all([
    db.prescription.findFirst({ where: { id: prescriptionId, ...reachableBy(organisationId, doctorId) }, select: prescriptionDocumentSelect }),
    db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: prescriberSelect }),
  ]);
  if (!p) throw new NotFoundError();
  return missingPrescriptionElements(p, prescriber);
}
