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
  /** One line a person reads in the log, e.g. `API key "ERP" revoked`. Never a secret. */
  summary: string;
  details?: Prisma.InputJsonValue;
};

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
      details: entry.details,
      ...actorColumns(actor),
    },
  });
}
