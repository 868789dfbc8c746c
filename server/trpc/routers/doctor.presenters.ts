/** The doctors' workspace's wire shapes: Unix seconds, dates of birth as YYYY-MM-DD, statuses as the API spells them. */
import type { DoctorStatistics } from "@/server/domain/doctors/queries";
import type { DoctorWaitingRoom } from "@/server/domain/meetings/doctor-waiting-room";
import { inDocumentOrder, medicineName } from "@/server/domain/prescriptions/document";
import type { DoctorQueue, DoctorRequest } from "@/server/domain/prescriptions/doctor-queue";
import type { BatchResult } from "@/server/domain/prescriptions/sign-approved";
import type { SignCentreItem } from "@/server/domain/prescriptions/sign-centre";
import { AWAITING_DOCTOR_STATUSES, normalisePrescriptionStatus, presentedStatus } from "@/server/domain/prescriptions/statuses";
import type { CredentialChoice, SigningStatus } from "@/server/domain/trust-service/doctor-credential";
import { wordIn } from "@/i18n/error-text";
import type { Locale } from "@/i18n/locales";
import { unix, unixOrNull } from "@/server/wire/format";

export type PatientRow = { displayName: string; firstName: string | null; lastName: string | null; dateOfBirth: Date | null; email?: string | null };

/** First and last name, else the display name, else the e-mail (a patient registered by a shop may have only that). */
export const patientName = (p: PatientRow) =>
  [p.firstName, p.lastName].filter((s) => s?.trim()).join(" ") || p.displayName.trim() || p.email?.trim() || "Patient without a name";
// A @db.Date column arrives as midnight UTC.
export const dateOfBirth = (p: PatientRow) => (p.dateOfBirth ? p.dateOfBirth.toISOString().slice(0, 10) : null);

export function presentQueue(queue: DoctorQueue, doctorId: string) {
  return {
    total: queue.total,
    items: queue.items.map((p) => ({
      uid: p.id,
      status: presentedStatus(p.status),
      createdAt: unix(p.createdAt),
      assignedToMe: p.doctorId === doctorId,
      patient: { name: patientName(p.patient), dateOfBirth: dateOfBirth(p.patient) },
      order: p.order ? { uid: p.order.id, name: p.order.name } : null,
      items: p.lines.map((l) => ({ sku: l.sku.displayName, quantity: l.quantity })),
      withAnamnesis: p.lines.some((l) => l.anamnesisId !== null),
    })),
  };
}

export function presentRequest(p: DoctorRequest, doctorId: string) {
  const status = normalisePrescriptionStatus(p.status);
  return {
    uid: p.id,
    status: presentedStatus(p.status),
    /** The doctor may still decide (sign, decline, hold). */
    awaitingDecision: status !== null && AWAITING_DOCTOR_STATUSES.includes(status),
    createdAt: unix(p.createdAt),
    signedAt: unixOrNull(p.signedAt),
    doctor: p.doctor ? { uid: p.doctor.id, name: p.doctor.displayName, isMe: p.doctor.id === doctorId } : null,
    order: p.order ? { uid: p.order.id, name: p.order.name, status: p.order.status, onHold: p.order.onHold } : null,
    patient: {
      uid: p.patient.id,
      name: patientName(p.patient),
      email: p.patient.email,
      dateOfBirth: dateOfBirth(p.patient),
      fields: p.patient.properties.map((f) => ({ key: f.field.key, label: f.field.displayName, value: f.value })),
    },
    // In the document's order: item n here is item n on the document and in a refusal.
    items: inDocumentOrder(p.lines).map((l, index) => ({
      uid: l.id,
      position: index + 1,
      sku: { uid: l.sku.id, name: l.sku.displayName, pzn: l.sku.pzn },
      /** The medicine as the document names it. */
      medicine: medicineName(l.sku),
      quantity: l.quantity,
      /** The dosage instructions the doctor confirmed (what signing puts on the document); null: none yet. */
      dosage: l.dosage,
      /** What the dosage editor offers when there are none yet: the SKU's dosage. */
      suggestedDosage: l.sku.dosage,
      anamnesis: l.anamnesis
        ? {
            uid: l.anamnesis.id,
            status: l.anamnesis.status,
            completedAt: unixOrNull(l.anamnesis.completedAt),
            answers: l.anamnesis.data,
            questionnaire: { uid: l.anamnesis.questionnaire.id, name: l.anamnesis.questionnaire.displayName, model: l.anamnesis.questionnaire.model },
          }
        : null,
    })),
    history: p.history.map((h) => ({
      from: h.fromStatus === null ? null : presentedStatus(h.fromStatus),
      to: presentedStatus(h.toStatus),
      note: h.note,
      at: unix(h.createdAt),
    })),
  };
}

export function presentWaitingRoom(room: DoctorWaitingRoom) {
  const patient = (p: PatientRow & { id: string }) => ({ uid: p.id, name: patientName(p), dateOfBirth: dateOfBirth(p) });
  return {
    current: room.current
      ? {
          queueUid: room.current.id,
          meetingUid: room.current.meeting?.id ?? null,
          videoRoomId: room.current.videoRoomId,
          visitReason: room.current.visitReason,
          allocatedAt: unixOrNull(room.current.allocatedAt),
          waitingSince: unix(room.current.createdAt),
          patient: patient(room.current.patient),
        }
      : null,
    total: room.total,
    waiting: room.waiting.map((e) => ({
      queueUid: e.id,
      position: e.position,
      waitingSince: unix(e.createdAt),
      visitReason: e.visitReason,
      preferredDoctor: e.preferredDoctor?.displayName ?? null,
      takeableByMe: e.takeableByMe,
      patient: patient(e.patient),
    })),
  };
}

export const presentStatistics = (s: DoctorStatistics) => ({
  from: unix(s.from),
  to: unix(s.to),
  signed: s.signed,
  declined: s.declined,
  pending: s.pending,
  consultationsCompleted: s.consultationsCompleted,
  averageConsultationMinutes: s.averageConsultationMinutes,
});

/** Before signing: whether the doctor signs in the sandbox, with which trust service and which of their credentials. */
export function presentSigningStatus(s: SigningStatus) {
  return {
    sandbox: s.sandbox,
    trustService: s.trustService ? { name: s.trustService.displayName } : null,
    credential: s.credential
      ? {
          subjectName: s.credential.subjectName,
          subject: s.credential.subject,
          issuerName: s.credential.issuerName,
          serialNumber: s.credential.serialNumber,
          validFrom: unix(s.credential.validFrom),
          validTo: unix(s.credential.validTo),
          /** What the doctor types at each signature: "OTP" (a one-time password), "PIN". */
          authFactors: s.credential.authFactors.filter((f): f is "OTP" | "PIN" => f === "OTP" || f === "PIN"),
          linkedAt: unix(s.credential.linkedAt),
        }
      : null,
  };
}

/** A credential the trust service holds for the doctor's user id, with why it could not be linked (in the caller's language). */
export function presentCredentialChoice(c: CredentialChoice, locale: Locale) {
  return {
    credentialId: c.credentialId,
    description: c.description,
    subjectName: c.subjectName,
    issuerName: c.issuerName,
    validTo: unixOrNull(c.validTo),
    problems: c.problems.map(wordIn(locale)),
  };
}

/** The Sign centre's list: what each prescription's summary shows, what signing would find missing (worded), and whether a batch is signing it. */
export function presentSignCentre(list: { total: number; items: SignCentreItem[] }, locale: Locale) {
  const word = wordIn(locale);
  return {
    total: list.total,
    items: list.items.map((p) => ({
      uid: p.id,
      createdAt: unix(p.createdAt),
      order: p.order ? { name: p.order.name, onHold: p.order.onHold } : null,
      patient: { name: patientName(p.patient), dateOfBirth: dateOfBirth(p.patient) },
      items: inDocumentOrder(p.lines).map((l) => ({ uid: l.id, medicine: medicineName(l.sku), pzn: l.sku.pzn, quantity: l.quantity, dosage: l.dosage })),
      missing: p.missing.map((m) => word(m.text)),
      beingSigned: p.beingSigned,
    })),
  };
}

/** Each prescription's outcome of a batch, in the order chosen; the reason worded in the doctor's language. */
export function presentBatch(result: BatchResult, locale: Locale) {
  const word = wordIn(locale);
  return {
    batchUid: result.claimId,
    outcomes: result.outcomes.map((o) =>
      o.outcome === "signed" ? { uid: o.id, outcome: o.outcome, status: presentedStatus(o.status), reason: null } : { uid: o.id, outcome: o.outcome, status: null, reason: word(o.reason) },
    ),
  };
}
