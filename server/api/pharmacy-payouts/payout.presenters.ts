import { z } from "zod";
import { minorUnitsField, unix, unixField, unixOrNull } from "@/server/wire/format";
import type { Payout } from "@/server/db/generated/client";

/**
 * The input of a payout row: the payout's own columns (a whole Payout row will do) and the three
 * fields of its pharmacy order that the row shows.
 */
export type PayoutRowInput = Pick<
  Payout,
  "status" | "amount" | "currency" | "componentType" | "routingDescription" | "providerRouteId" | "routingCreatedAt"
> & { pharmacyOrder: { id: string; name: string | null; createdAt: Date } };

export const payoutRowSchema = z.object({
  status: z.enum(["projected", "routed"]),
  amount: minorUnitsField(),
  currency: z.string(),
  component_type: z.string(),
  routing_description: z.string().nullable(),
  provider_route_id: z.string().nullable(),
  pharmacy_order_uid: z.string(),
  pharmacy_order_name: z.string().nullable(),
  pharmacy_order_created_at: unixField(),
  routing_created_at: unixField().nullable(),
});

/**
 * A Payout row of the spec (payouts list and the pharmacy order detail's `payouts`). A projected
 * row has no provider route and no routing time yet, whatever the columns hold.
 */
export function presentPayoutRow(row: PayoutRowInput): z.infer<typeof payoutRowSchema> {
  const routed = row.status === "ROUTED";
  return {
    status: routed ? "routed" : "projected",
    amount: row.amount,
    currency: row.currency,
    component_type: row.componentType,
    routing_description: row.routingDescription,
    provider_route_id: routed ? row.providerRouteId : null,
    pharmacy_order_uid: row.pharmacyOrder.id,
    pharmacy_order_name: row.pharmacyOrder.name,
    pharmacy_order_created_at: unix(row.pharmacyOrder.createdAt),
    routing_created_at: routed ? unixOrNull(row.routingCreatedAt) : null,
  };
}
