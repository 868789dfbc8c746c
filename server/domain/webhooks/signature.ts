import { createHmac } from "node:crypto";

/**
 * X-Webhook-Signature: HMAC-SHA256 of the exact raw body, lowercase hex (64 characters, no prefix),
 * keyed with the subscription's secret as a UTF-8 string (not decoded).
 */
export function signWebhookBody(secret: string, rawBody: string | Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(rawBody).digest("hex");
}
