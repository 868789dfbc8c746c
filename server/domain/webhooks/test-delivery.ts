import { errorText } from "@/i18n/error-text";
import { config } from "@/server/config";
import { database } from "@/server/db/client";
import { FieldErrorCollector } from "@/server/domain/errors";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES, type EventType } from "./event-types";
import { webhookHeaders } from "./headers";
import { postWebhook } from "@/server/http/webhook-sender";
import { openSecret } from "./secret-box";
import { webhookTargetProblem } from "./target-rule";

/** Which sample a test sends: a pharmacy subscription's view, or an organisation subscription's. */
export type SampleScope = "PHARMACY" | "ORGANISATION";

export type TestDeliveryResult = {
  delivered: boolean;
  statusCode: number | null;
  signed: boolean;
  durationMs: number;
  error: string | null;
};

/**
 * Sends one sample delivery of an event type to a target, at once, and reports how the receiver
 * answered. Organisation tests (no pharmacyId) use an organisation-level sample; pharmacy tests a
 * pharmacy-scoped one. When a live subscription of that scope has this exact target and event type,
 * the test is signed with its secret and carries its custom header, so a receiver can check its
 * verification end to end; otherwise it is unsigned. `sign: false` (pharmacy portal) never signs.
 * Test sends are not recorded as deliveries and never retried.
 */
export async function sendTestDelivery(
  input: {
    organisationId: string;
    target: string;
    notificationType: string;
    pharmacyId?: string | null;
    sign?: boolean;
    /** The sample delivery's body, built by the payload presenters (server/api/webhooks/samples.ts). */
    sampleBody: (eventType: EventType, scope: SampleScope) => string;
  },
): Promise<TestDeliveryResult> {
  const db = await database();
  const allowed: readonly string[] = input.pharmacyId ? PHARMACY_EVENT_TYPES : EVENT_TYPES;
  const errors = new FieldErrorCollector();
  if (!allowed.includes(input.notificationType)) errors.add(["notification_type"], errorText("fields.oneOf", { values: allowed.join(", ") }));
  const targetProblem = await webhookTargetProblem(input.target);
  if (targetProblem) errors.add(["target"], targetProblem);
  errors.throwIfAny();

  const match = await db.webhookSubscription.findFirst({
    where: {
      notificationType: input.notificationType,
      target: input.target,
      deletedAt: null,
      ...(input.pharmacyId
        ? { scope: "PHARMACY", pharmacyId: input.pharmacyId }
        : { scope: "ORGANISATION", organisationId: input.organisationId, pharmacyId: null }),
    },
    select: { secretEncrypted: true, headerKey: true, headerValueEncrypted: true },
  });
  const secret = match && input.sign !== false ? openSecret(match.secretEncrypted) : null;
  const customHeader =
    match?.headerKey && match.headerValueEncrypted ? { key: match.headerKey, value: openSecret(match.headerValueEncrypted) } : null;

  const eventType = input.notificationType as EventType;
  const body = input.sampleBody(eventType, input.pharmacyId ? "PHARMACY" : "ORGANISATION");
  const headers = webhookHeaders({ eventType, body, secret, customHeader, test: true });
  const outcome = await postWebhook({ target: input.target, body, headers, timeoutMs: config().WEBHOOK_TIMEOUT_MS });
  return {
    delivered: outcome.ok,
    statusCode: outcome.status,
    signed: secret !== null,
    durationMs: outcome.durationMs,
    error: outcome.errorMessage,
  };
}
