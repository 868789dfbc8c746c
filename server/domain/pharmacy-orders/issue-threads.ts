import { errorText, type Message } from "@/i18n/error-text";
import type { Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { ValidationError } from "@/server/domain/errors";

const ISSUE_DESCRIPTION_MAX_LENGTH = 5000;

/** The two sides of an issue thread: the pharmacy (portal or API) and the organisation's admin team. */
export type IssueMessageSide = "PHARMACY" | "ADMIN";

/**
 * The text of an admin issue thread (an on-hold comment, a clarification request's description):
 * trimmed, not blank, at most 5000 characters; otherwise a ValidationError on `field`.
 */
export function issueDescription(raw: string | null | undefined, field: string, requiredMessage: Message = errorText("fields.required")): string {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text) throw ValidationError.field(field, requiredMessage);
  if (text.length > ISSUE_DESCRIPTION_MAX_LENGTH) {
    throw ValidationError.field(field, errorText("fields.maxLength", { maximum: ISSUE_DESCRIPTION_MAX_LENGTH }));
  }
  return text;
}

/**
 * Opens an admin issue thread on a pharmacy order, naming who opened it and for which side (the
 * pharmacy unless the admin team asks), in the caller's transaction.
 */
export async function openIssueThread(
  tx: Tx,
  pharmacyOrderId: string,
  description: string,
  actor: Actor,
  side: IssueMessageSide = "PHARMACY",
): Promise<{ id: string }> {
  return tx.adminIssueThread.create({
    data: {
      pharmacyOrderId,
      description,
      openedBySide: side,
      openedByType: actor.type,
      openedByApiKeyId: actor.type === "API_KEY" ? actor.apiKeyId : null,
      openedByUserId: actor.type === "USER" ? actor.userId : null,
    },
    select: { id: true },
  });
}
