import type { Prisma } from "@/server/db/generated/client";
import type { Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";

/** What the audit log calls the kinds of things that change (filterable in the admin tool). */
export type AuditEntity =
  | "order"
  | "fulfillment"
  | "issue_thread"
  | "api_key"
  | "user"
  | "setting"
  | "telemedicine_provider"
  | "questionnaire"
  | "patient_token_secret"
  | "wallet_pass_template"
  | "wallet_pass"
  | "product"
  | "sku"
  | "shop_sku"
  | "pharmacy_sku"
  | "prescription"
  | "pharmacy"
  | "pharmacy_group"
  | "shop"
  | "webhook_subscription"
  | "webhook_delivery"
  | "mail_message"
  | "appointment"
  | "payout"
  | "doctor"
  | "signing_credential";

export type AuditEntry = {
  entity: AuditEntity;
  entityId: string | null;
  /** What happened, in the past tense: "created", "revoked", "released", … */
  action: string;
  /** One line in English, e.g. `API key "ERP" revoked`: what the text filter searches. Never a secret. */
  summary: string;
  /**
   * The summary's values (names, counts): the admin tool words the entry in the reader's language from
   * the message admin.audit.entries.<entity>.<action> with them (docs/decisions/portals.md#every-word-in-the-readers-language).
   * Without it (or without that message) the log shows the summary as written.
   */
  values?: AuditValues;
  details?: Prisma.InputJsonValue;
};

export type AuditValues = Record<string, string | number | null>;

/**
 * Records a state change of an organisation in the audit log, inside the transaction that makes the
 * change (so the log has the change exactly when the change happened). Prescription and pharmacy
 * order status changes are not recorded here: their own histories are the log's other sources
 * (server/domain/audit/queries.ts).
 */
export async function recordAuditEvent(tx: Tx, organisationId: string, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
    data: {
      organisationId,
      entityType: entry.entity,
      entityId: entry.entityId,
      action: entry.action,
      summary: entry.summary,
      summaryValues: entry.values,
      details: entry.details,
      ...actorColumns(actor),
    },
  });
}
