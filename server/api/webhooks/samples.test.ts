import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES, type EventType } from "@/server/domain/webhooks/event-types";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { buildWebhookData } from "./payloads";
import { sampleBody } from "./samples";

/**
 * A test send's sample and a real delivery come from the same presenters, so they have the same
 * fields at every depth. A field added to a presenter that the sample lacked (or the other way
 * round) fails here.
 */
type Shape = string | { [key: string]: Shape } | Shape[];

/** The keys of every object at every depth; arrays by their first element; null and [] match anything. */
function shapeOf(value: unknown): Shape {
  if (value === null || (Array.isArray(value) && value.length === 0)) return "any";
  if (Array.isArray(value)) return [shapeOf(value[0])];
  if (typeof value === "object") return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, shapeOf(v)]).sort());
  return typeof value;
}

/** The places where two shapes differ (a key on one side only, or another type), as paths. */
function differences(a: Shape, b: Shape, at = "data"): string[] {
  if (a === "any" || b === "any") return [];
  if (Array.isArray(a) && Array.isArray(b)) return differences(a[0], b[0], `${at}[]`);
  if (typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => (k in a && k in b ? differences(a[k], b[k], `${at}.${k}`) : [`${at}.${k} only in the ${k in a ? "sample" : "real payload"}`]));
  }
  return a === b ? [] : [`${at}: ${JSON.stringify(a)} in the sample, ${JSON.stringify(b)} in the real payload`];
}

let t: Tenant;
const subjects: Partial<Record<EventType, { pharmacyId: string; subjectId: string }>> = {};

beforeAll(async () => {
  t = await createTenant();
  const refs = await withShopSkus(t);
  const placed = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
  expect(placed.status).toBe(201);
  const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: placed.json.uid } });
  subjects.pharmacy_order_created = subjects.pharmacy_order_updated = { pharmacyId: po.pharmacyId, subjectId: po.id };
  const pharmacySku = await t.db.pharmacySku.findFirstOrThrow({ where: { pharmacyId: po.pharmacyId } });
  subjects.pharmacy_sku_stock_updated = { pharmacyId: po.pharmacyId, subjectId: pharmacySku.id };
  const waiting = await placeWaitingOrder(t, refs);
  orderSubjects.order_created = orderSubjects.order_updated = waiting.orderId;
  orderSubjects.prescription_created = orderSubjects.prescription_updated = waiting.prescriptionId;
});

// The order and prescription events (organisation only), with the change their updates record.
const orderSubjects: Record<string, string> = {};
const recordedChanges: Record<string, object | null> = {
  order_created: null,
  order_updated: { from_status: "waiting for doctor", to_status: "waiting for pharmacy" },
  prescription_created: null,
  prescription_updated: { from_status: "waiting for doctor", to_status: "approved", reason: "ok", from_doctor_uid: null, to_doctor_uid: "d-1", doctor_assignment_reason: "decision" },
};

describe("webhook samples", () => {
  for (const scope of ["PHARMACY", "ORGANISATION"] as const) {
    for (const eventType of PHARMACY_EVENT_TYPES) {
      it(`have the fields of a real ${eventType} payload (${scope.toLowerCase()} subscription)`, async () => {
        const subject = subjects[eventType]!;
        const event = { id: `e-${eventType}`, eventType, organisationId: t.organisation.id, data: null, ...subject };
        const real = await buildWebhookData(event, scope);
        expect(real).not.toBeNull();
        const sample = JSON.parse(sampleBody(eventType, scope)).data;
        expect(differences(shapeOf(sample), shapeOf(JSON.parse(JSON.stringify(real))))).toEqual([]);
      });
    }
  }

  for (const eventType of ["order_created", "order_updated", "prescription_created", "prescription_updated"] as const) {
    it(`have the fields of a real ${eventType} payload (organisation subscription)`, async () => {
      const event = { id: `e-${eventType}`, eventType, organisationId: t.organisation.id, pharmacyId: null, subjectId: orderSubjects[eventType], data: recordedChanges[eventType] };
      const real = await buildWebhookData(event, "ORGANISATION");
      expect(real).not.toBeNull();
      const sample = JSON.parse(sampleBody(eventType, "ORGANISATION")).data;
      expect(differences(shapeOf(sample), shapeOf(JSON.parse(JSON.stringify(real))))).toEqual([]);
      expect("change" in sample).toBe(eventType.endsWith("_updated"));
    });
  }

  it("are real envelopes for every event type, organisation-only events included", () => {
    for (const eventType of EVENT_TYPES) {
      const envelope = JSON.parse(sampleBody(eventType, "ORGANISATION", new Date(1_800_000_000_000)));
      expect(Object.keys(envelope)).toEqual(["event_type", "timestamp", "payload_version", "data"]);
      expect(envelope).toMatchObject({ event_type: eventType, timestamp: 1_800_000_000, payload_version: "1" });
    }
  });

  it("tell a difference in fields (the check above can fail)", () => {
    expect(differences(shapeOf({ a: 1, b: { c: "x" } }), shapeOf({ a: 2, b: { d: "x" } }))).toEqual([
      "data.b.c only in the sample",
      "data.b.d only in the real payload",
    ]);
  });
});
