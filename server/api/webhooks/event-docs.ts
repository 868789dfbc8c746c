import { z } from "zod";
import type { EventType } from "@/server/domain/webhooks/event-types";
import { PAYLOAD_VERSION } from "@/server/domain/webhooks/event-types";
import type { WebhookDoc } from "@/server/rest/types";
import {
  orderCreatedDataSchema,
  orderUpdatedDataSchema,
  prescriptionCreatedDataSchema,
  prescriptionUpdatedDataSchema,
} from "./payload.presenters";
import { sampleBody } from "./samples";

/** The delivery's envelope (G32) around an event's data, as the engine sends it. */
export const envelopeSchema = (eventType: EventType, data: z.ZodType) =>
  z.object({
    event_type: z.literal(eventType).describe("Also in the X-Webhook-Event header"),
    timestamp: z.number().int().describe("Unix seconds of this attempt (a retry gets a new one)"),
    payload_version: z.literal(PAYLOAD_VERSION),
    data,
  });

const doc = (event: EventType, summary: string, data: z.ZodType): WebhookDoc => ({
  event,
  summary,
  payload: envelopeSchema(event, data),
  // The sample a test send delivers: the payload presenters over fixed data.
  example: JSON.parse(sampleBody(event, "ORGANISATION", new Date(1_763_800_600_000))),
});

/**
 * The order and prescription events in the Management API's OpenAPI document (its `webhooks`):
 * Management subscriptions only (docs/decisions/webhooks.md#order-and-prescription-events).
 */
export const managementWebhookDocs: WebhookDoc[] = [
  doc("order_created", "An order was accepted by order intake (Management API, a checkout, a Shopify order): the order as GET /orders/{uid} shows it at send time", orderCreatedDataSchema),
  doc("order_updated", "An order's status changed: the order at send time, and change {from_status, to_status}", orderUpdatedDataSchema),
  doc("prescription_created", "A prescription was recorded (a doctor's request of an order, an inline signed PDF): as GET /prescriptions/{uid} shows it at send time", prescriptionCreatedDataSchema),
  doc(
    "prescription_updated",
    "A prescription's status or doctor changed (approved, signed, NON_QES_SIGNED, EXTERNALLY_SIGNED, declined, ON_HOLD, cancelled): the prescription at send time, and change with the reason and the doctors",
    prescriptionUpdatedDataSchema,
  ),
];
