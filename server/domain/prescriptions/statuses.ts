/**
 * Prescription statuses (spec "Prescription status", gaps-reference G7). One spelling of each is
 * stored and returned; "waiting for doctor" is also accepted as WAITING_FOR_DOCTOR and
 * waiting_for_doctor, and every status is recognised whatever its case and whether its words are
 * separated by spaces, underscores or hyphens.
 */
export const PRESCRIPTION_STATUS = {
  waitingForDoctor: "waiting for doctor",
  onHold: "ON_HOLD",
  approved: "approved",
  declined: "declined",
  signed: "signed",
  nonQesSigned: "NON_QES_SIGNED",
  externallySigned: "EXTERNALLY_SIGNED",
  /** The prescription request of a cancelled fulfillment (G7 lists cancelled besides the spec's values). */
  cancelled: "cancelled",
} as const;

export type PrescriptionStatus = (typeof PRESCRIPTION_STATUS)[keyof typeof PRESCRIPTION_STATUS];

/** Every status, in lifecycle order (statistics list them in this order). */
export const PRESCRIPTION_STATUSES: readonly PrescriptionStatus[] = Object.values(PRESCRIPTION_STATUS);

/** Signed prescriptions: valid for a pharmacy (intake path (c), sending to the pharmacy). */
export const SIGNED_PRESCRIPTION_STATUSES: readonly PrescriptionStatus[] = [
  PRESCRIPTION_STATUS.signed,
  PRESCRIPTION_STATUS.nonQesSigned,
  PRESCRIPTION_STATUS.externallySigned,
];

/** A doctor still has to act: the order waits for the doctor while one of its prescriptions is in one of these. */
export const AWAITING_DOCTOR_STATUSES: readonly PrescriptionStatus[] = [
  PRESCRIPTION_STATUS.waitingForDoctor,
  PRESCRIPTION_STATUS.onHold,
  PRESCRIPTION_STATUS.approved,
];

const fold = (value: string) => value.trim().toLowerCase().replace(/[\s_-]+/g, " ");
const BY_FOLDED = new Map<string, PrescriptionStatus>(PRESCRIPTION_STATUSES.map((s) => [fold(s), s]));

/** The stored spelling of a status given in any accepted spelling; null when it is no prescription status. */
export function normalisePrescriptionStatus(value: string): PrescriptionStatus | null {
  return BY_FOLDED.get(fold(value)) ?? null;
}

/**
 * Every spelling of these statuses that may be found in stored rows (rows written before the
 * spelling was fixed, or imported), for `status IN (…)` queries.
 */
export function storedSpellings(statuses: readonly PrescriptionStatus[]): string[] {
  const spellings = new Set<string>();
  for (const status of statuses) {
    spellings.add(status);
    if (status === PRESCRIPTION_STATUS.waitingForDoctor) {
      spellings.add("WAITING_FOR_DOCTOR");
      spellings.add("waiting_for_doctor");
    }
  }
  return [...spellings];
}

/** A stored status as the API shows it: the one spelling, or the stored value when unknown. */
export function presentedStatus(stored: string): string {
  return normalisePrescriptionStatus(stored) ?? stored;
}

export function isSignedStatus(stored: string): boolean {
  const status = normalisePrescriptionStatus(stored);
  return status !== null && SIGNED_PRESCRIPTION_STATUSES.includes(status);
}

/**
 * The notes the system itself writes into a prescription's history: fixed English (the text filter and
 * older rows read so), recognised here so that the portals word them in the reader's language
 * (components/ui/status.ts systemNoteOf); any other note is a person's own text.
 */
export const PRESCRIPTION_SYSTEM_NOTE = {
  fulfillmentCancelled: "fulfillment cancelled",
  inlineSigned: (signer: string) => `inline PDF with a qualified signature by ${signer}`,
} as const;

export type SystemNote = { key: string; values: Record<string, string> };

export function prescriptionSystemNote(note: string): SystemNote | null {
  if (note === PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled) return { key: "fulfillmentCancelled", values: {} };
  const inline = /^inline PDF with a qualified signature by (.+)$/s.exec(note);
  return inline ? { key: "inlineSigned", values: { signer: inline[1] } } : null;
}
