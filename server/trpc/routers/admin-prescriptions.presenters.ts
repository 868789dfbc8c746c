/** The admin tool's shapes of prescriptions: camelCase, uids, dates as Unix seconds. */
import type { PrescriptionListEntry, PrescriptionOverview } from "@/server/domain/prescriptions/overview";
import { normalisePrescriptionStatus } from "@/server/domain/prescriptions/statuses";
import { isoDateOrNull, unix, unixOrNull } from "@/server/wire/format";

/** One spelling out, whatever spelling a row holds (docs/decisions/prescriptions.md#prescriptions, "Status spellings"). */
const statusOf = (stored: string) => normalisePrescriptionStatus(stored) ?? stored;

export const presentPrescriptionListEntry = (p: PrescriptionListEntry) => ({
  uid: p.id,
  status: statusOf(p.status),
  source: p.source,
  patient: { uid: p.patient.id, name: p.patient.displayName },
  doctor: p.doctor ? { uid: p.doctor.id, name: p.doctor.displayName } : null,
  order: p.order ? { uid: p.order.id, name: p.order.name } : null,
  lineCount: p._count.lines,
  createdAt: unix(p.createdAt),
  signedAt: unixOrNull(p.signedAt),
});

export const presentPrescriptionOverview = (p: PrescriptionOverview) => ({
  uid: p.id,
  status: statusOf(p.status),
  source: p.source,
  rendered: p.rendered,
  signedFile: p.hasSignedFile,
  patient: {
    uid: p.patient.id,
    name: p.patient.displayName,
    firstName: p.patient.firstName,
    lastName: p.patient.lastName,
    email: p.patient.email,
    dateOfBirth: isoDateOrNull(p.patient.dateOfBirth),
  },
  doctor: p.doctor ? { uid: p.doctor.id, name: p.doctor.displayName } : null,
  order: p.order ? { uid: p.order.id, name: p.order.name, status: p.order.status } : null,
  lines: p.lines.map((l) => ({
    uid: l.id,
    sku: { uid: l.sku.id, displayName: l.sku.displayName, pzn: l.sku.pzn },
    quantity: l.quantity,
    dosage: l.dosage,
    anamnesisUid: l.anamnesisId ?? l.orderItem?.anamnesisId ?? null,
    redeemed: l.redeemed,
    remaining: l.remaining,
  })),
  redeemedBy: p.redeemedBy.map((o) => ({ uid: o.id, name: o.name })),
  history: p.history.map((h) => ({
    uid: h.id,
    fromStatus: h.fromStatus === null ? null : statusOf(h.fromStatus),
    toStatus: statusOf(h.toStatus),
    note: h.note,
    by: { type: h.actor.type, uid: h.actor.id, name: h.actor.name },
    at: unix(h.createdAt),
  })),
  signedAt: unixOrNull(p.signedAt),
  createdAt: unix(p.createdAt),
  updatedAt: unix(p.updatedAt),
});
