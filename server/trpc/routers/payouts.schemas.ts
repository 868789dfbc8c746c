/** Inputs of the payouts procedures (the payouts page builds its filters from the same schema). */
import { z } from "zod";
import { searchTerm, uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const PAYOUT_PAGE_LIMIT = 200;

export const listPayoutsInput = z
  .object({
    /** The receiving pharmacy: a group pharmacist's pick; the admin tool's pharmacy filter (absent: all of the organisation's). */
    pharmacyUid: uid().optional(),
    status: z.enum(["projected", "routed"]).optional(),
    search: searchTerm(),
    /** Inclusive bounds, Unix seconds: routed rows by routing time, projected rows by their order's creation. */
    from: unixSeconds().optional(),
    to: unixSeconds().optional(),
    sortBy: z.enum(["pharmacy_order_created_at", "routing_created_at", "amount"]).default("pharmacy_order_created_at"),
    sortDirection: z.enum(["asc", "desc"]).default("desc"),
    page: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(PAYOUT_PAGE_LIMIT).default(50),
  })
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    path: ["to"],
    ...ownMessage("fields.notBeforeFrom"),
  });
