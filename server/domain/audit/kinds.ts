import type { AuditEntity } from "./record";

/**
 * The kinds of entries the audit log shows and filters by (vocabulary only: the admin tool's
 * filters import it): every AuditEvent entity, and the two status histories read as sources
 * (server/domain/audit/queries.ts).
 */
export const AUDIT_LOG_KINDS = [
  "order",
  "fulfillment",
  "pharmacy_order",
  "prescription",
  "issue_thread",
  "product",
  "sku",
  "shop_sku",
  "pharmacy",
  "pharmacy_group",
  "shop",
  "user",
  "api_key",
  "webhook_subscription",
  "webhook_delivery",
  "setting",
  "telemedicine_provider",
  "questionnaire",
  "patient_token_secret",
  "wallet_pass_template",
  "wallet_pass",
  "pharmacy_sku",
  "mail_message",
  "appointment",
  "payout",
  "doctor",
  "signing_credential",
] as const;

export type AuditLogKind = (typeof AUDIT_LOG_KINDS)[number];

// Fails to compile when an AuditEntity is added to record.ts without a kind here (so it is filterable).
type Missing = Exclude<AuditEntity, AuditLogKind>;
export const EVERY_ENTITY_IS_A_KIND: [Missing] extends [never] ? true : Missing = true;

export const AUDIT_KIND_LABELS: Record<AuditLogKind, string> = {
  order: "Orders",
  fulfillment: "Fulfillments",
  pharmacy_order: "Pharmacy order status",
  prescription: "Prescription status",
  issue_thread: "Issue threads",
  product: "Products",
  sku: "SKUs",
  shop_sku: "Shop SKUs",
  pharmacy: "Pharmacies",
  pharmacy_group: "Pharmacy groups",
  shop: "Shops",
  user: "Users",
  api_key: "API keys",
  webhook_subscription: "Webhook subscriptions",
  webhook_delivery: "Webhook deliveries",
  setting: "Settings",
  telemedicine_provider: "Telemedicine providers",
  questionnaire: "Questionnaires",
  patient_token_secret: "Patient token secrets",
  wallet_pass_template: "Wallet pass templates",
  wallet_pass: "Wallet passes",
  pharmacy_sku: "Pharmacy stock and prices (admin)",
  mail_message: "E-mails",
  appointment: "Appointments",
  payout: "Payouts",
  doctor: "Doctors",
  signing_credential: "Doctors' signing credentials",
};

export const AUDIT_LOG_MAX_LIMIT = 200;
