import { signWebhookBody } from "./signature";

/** Header names a custom subscription header may not replace. */
export const RESERVED_HEADER_NAMES = [
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "host",
  "x-webhook-signature",
  "x-webhook-event",
  "x-webhook-test",
];

/**
 * The request headers of a delivery: Content-Type, X-Webhook-Event, X-Webhook-Signature when a
 * secret is given (test deliveries may be unsigned), X-Webhook-Test on tests, and the
 * subscription's custom header.
 */
export function webhookHeaders(input: {
  eventType: string;
  body: string;
  secret: string | null;
  customHeader?: { key: string; value: string } | null;
  test?: boolean;
}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (input.customHeader) headers[input.customHeader.key] = input.customHeader.value;
  headers["content-type"] = "application/json";
  headers["x-webhook-event"] = input.eventType;
  if (input.secret !== null) headers["x-webhook-signature"] = signWebhookBody(input.secret, input.body);
  if (input.test) headers["x-webhook-test"] = "true";
  return headers;
}
