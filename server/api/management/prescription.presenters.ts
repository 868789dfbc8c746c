import { z } from "zod";
import { statusField, unix, unixField, unixOrNull } from "@/server/wire/format";
import type { PrescriptionDetail, PrescriptionStatistics } from "@/server/domain/prescriptions/queries";
import { PRESCRIPTION_STATUSES, presentedStatus } from "@/server/domain/prescriptions/statuses";

export const prescriptionSchema = z.object({
  uid: z.string(),
  status: statusField(PRESCRIPTION_STATUSES),
  doctor: z.object({ uid: z.string(), display_name: z.string() }).nullable(),
  rendered: z.boolean(),
  order_uid: z.string().nullable(),
  lines: z.array(
    z.object({
      uid: z.string(),
      sku_uid: z.string(),
      sku_display_name: z.string(),
      pzn: z.string().nullable(),
      quantity: z.number().int(),
      dosage: z.string().nullable(),
      anamnesis_uid: z.string().nullable(),
      redeemed_quantity: z
        .number()
        .int()
        .describe("How much of the line is redeemed: the quantities of live (not cancelled) order items that reference the prescription, this SKU's lines filled in order"),
      remaining_quantity: z.number().int().describe("How much of the line is left to redeem (quantity minus redeemed_quantity, never below 0)"),
    }),
  ),
  signed_at: unixField().nullable(),
  created_at: unixField(),
  updated_at: unixField(),
});

export const prescriptionStatisticsSchema = z.object({
  total: z.number().int(),
  by_status: z.record(z.string(), z.number().int()).describe("Every status with its count"),
});

export const prescriptionRenderSchema = z.object({ uid: z.string(), message: z.string() });
export const prescriptionExternalSignSchema = z.object({ uid: z.string(), status: statusField(PRESCRIPTION_STATUSES) });

/**
 * The Prescription (Management): the spec's uid, status, doctor, rendered and lines[].anamnesis_uid;
 * the other line fields describe what is prescribed (G1: not shown, our choice); order_uid and
 * signed_at say where it belongs and when it was signed; each line's redeemed_quantity and
 * remaining_quantity what of it is used (docs/decisions/prescriptions.md#prescription-redemption). Status in its one spelling.
 */
export function presentPrescription(p: PrescriptionDetail): z.infer<typeof prescriptionSchema> {
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
      redeemed_quantity: line.redeemed,
      remaining_quantity: line.remaining,
    })),
    signed_at: unixOrNull(p.signedAt),
    created_at: unix(p.createdAt),
    updated_at: unix(p.updatedAt),
  };
}

/** Prescription statistics: {total, by_status: {<status>: count}} with every status listed. */
export function presentPrescriptionStatistics(stats: PrescriptionStatistics): z.infer<typeof prescriptionStatisticsSchema> {
  return { total: stats.total, by_status: stats.byStatus };
}
