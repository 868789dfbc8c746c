import { receiveShopifyOrderWebhook, type IntakeRules } from "@/server/domain/shopify/order-webhook";
import { PAGE_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { createOrderSchema, toOrderIntake } from "@/server/api/management/order-intake.schemas";
import { inputTextErrors } from "@/server/wire/json-input";

/** JSON field errors as one line: `a.b: message; …` (the admin reads it under the shop). */
const oneLine = (errors: unknown, path: string[] = []): string[] =>
  Array.isArray(errors)
    ? [`${path.join(".") || "body"}: ${errors.join(" ")}`]
    : errors && typeof errors === "object"
      ? Object.entries(errors).flatMap(([key, value]) => oneLine(value, [...path, key]))
      : [];

/** A Shopify order is held to the Management API's order intake: its edge check and its schema, the same code. */
const MANAGEMENT_INTAKE_RULES: IntakeRules = {
  unstorableText(body) {
    const errors = inputTextErrors(body);
    return errors ? oneLine(errors).join("; ") : null;
  },
  orderIntake(body) {
    const parsed = createOrderSchema.safeParse(body);
    if (parsed.success) return { ok: true, intake: toOrderIntake(parsed.data) };
    const reason = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
      .join("; ");
    return { ok: false, reason };
  },
};

/**
 * POST /api/shopify/webhooks/{shop uid}: the address a shop's Shopify app sends its order webhooks
 * to (docs/decisions/intake.md#shopify). Outside the spec's REST families: Shopify signs with the
 * app's client secret, not one of our API keys. Answers 200 once the order is taken (or known, or
 * not one to take, or refused by intake's rules and recorded for the admin), 401 for a wrong signature, 404 for an unknown or unconnected shop, 413 for a
 * body over the page cap, 503 when an order of our own checkout could not be confirmed with Shopify
 * (Shopify retries a delivery that did not answer 2xx).
 */
const text = (status: number, body: string) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

export async function handleShopifyWebhook(request: Request, shopUid: string): Promise<Response> {
  if (Number(request.headers.get("content-length") ?? 0) > PAGE_BODY_MAX_BYTES) return text(413, "Payload too large");
  const rawBody = Buffer.from(await request.arrayBuffer());
  if (rawBody.byteLength > PAGE_BODY_MAX_BYTES) return text(413, "Payload too large");
  const outcome = await receiveShopifyOrderWebhook(shopUid, {
    rawBody,
    hmac: request.headers.get("x-shopify-hmac-sha256"),
    topic: request.headers.get("x-shopify-topic"),
    webhookId: request.headers.get("x-shopify-webhook-id"),
  }, MANAGEMENT_INTAKE_RULES);
  switch (outcome.kind) {
    case "not_found":
      return text(404, "Not found");
    case "unauthorized":
      return text(401, "Invalid HMAC signature");
    case "accepted":
      return Response.json({ result: outcome.result });
    case "unavailable":
      return text(503, "Shopify could not be asked; send again later");
  }
}
