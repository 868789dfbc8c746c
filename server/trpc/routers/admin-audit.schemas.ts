/** Inputs of the audit log procedures, shared by the router and the page's filters (zod and server/wire only). */
import { z } from "zod";
import { AUDIT_LOG_KINDS, AUDIT_LOG_MAX_LIMIT } from "@/server/domain/audit/kinds";
import { uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const auditActorInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("USER"), uid: uid() }),
  z.object({ type: z.literal("API_KEY"), uid: uid() }),
  z.object({ type: z.literal("SYSTEM") }),
]);

export const listAuditLogInput = z
  .object({
    kinds: z.array(z.enum(AUDIT_LOG_KINDS)).max(AUDIT_LOG_KINDS.length).optional(),
    actor: auditActorInput.optional(),
    /** From (inclusive), Unix seconds. */
    from: unixSeconds().optional(),
    /** To (inclusive: the whole second), Unix seconds. */
    to: unixSeconds().optional(),
    entityUid: uid().optional(),
    text: z.string().trim().max(100).optional(),
    cursor: z.string().max(300).optional(),
    limit: z.number().int().min(1).max(AUDIT_LOG_MAX_LIMIT).default(50),
  })
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    path: ["to"],
    ...ownMessage("fields.notBeforeFrom"),
  });
export type ListAuditLogInput = z.input<typeof listAuditLogInput>;
