/** Inputs of the admin tool's order procedures (the orders page builds its filters from the same schema). */
import { z } from "zod";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { searchTerm, uid } from "@/server/wire/schemas";

export const ADMIN_ORDER_PAGE_LIMIT = 100;

export const ORDER_STATUSES = Object.values(ORDER_STATUS) as [string, ...string[]];

export const listAdminOrdersInput = z.object({
  /** Order name, external id, customer e-mail, pharmacy order name, patient name, or a uid. */
  search: searchTerm(),
  status: z.enum(ORDER_STATUSES).optional(),
  onHold: z.boolean().optional(),
  /** Orders that should be at a pharmacy and are not (the home page's count). */
  withoutPharmacy: z.boolean().optional(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(ADMIN_ORDER_PAGE_LIMIT).default(25),
});

export const adminOrderInput = z.object({ uid: uid() });

export const adminPrescriptionFileInput = z.object({ orderUid: uid(), prescriptionUid: uid() });

export const cancelFulfillmentInput = z.object({ orderUid: uid(), fulfillmentUid: uid() });

export const fulfillmentRoutingInput = z.object({ orderUid: uid(), fulfillmentUid: uid() });

export const routeFulfillmentInput = z.object({ orderUid: uid(), fulfillmentUid: uid(), pharmacyUid: uid() });
