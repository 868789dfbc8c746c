import { unix, unixOrNull } from "@/server/wire/format";
import type { PrescriptionDetail, PrescriptionStatistics } from "@/server/domain/prescriptions/queries";
import { presentedStatus } from "@/server/domain/prescriptions/statuses";

/**
 * The Prescription (Management): the spec's uid, status, doctor, rendered and lines[].anamnesis_uid;
 * the other line fields describe what is prescribed (G1: not shown, our choice); order_uid and
 * signed_at say where it belongs and when it was signed. Status in its one spelling.
 */
export function presentPrescription(p: PrescriptionDetail) {
  return {
    uid: p.id,
    status: presentedStatus(p.status),
    doctor: p.doctor ? { uid: p.doctor.id, display_name: p.doctor.displayName } : null,
    rendered: p.renderedFileKey !== null,
    order_uid: p.orderId,
    lines: p.lines.map((line) => ({
      uid: line.id,
      sku_uid: line.skuId,
      sku_display_name: line.sku.displayName,
      pzn: line.sku.pzn,
      quantity: line.quantity,
      dosage: line.dosage ?? line.sku.dosage,
      anamnesis_uid: line.anamnesisId ?? line.orderItem?.anamnesisId ?? null,
    })),
    signed_at: unixOrNull(p.signedAt),
    created_at: unix(p.createdAt),
    updated_at: unix(p.updatedAt),
  };
}

/** Prescription statistics: {total, by_status: {<status>: count}} with every status listed. */
export function presentPrescriptionStatistics(stats: PrescriptionStatistics) {
  return { total: stats.total, by_status: stats.byStatus };
}
