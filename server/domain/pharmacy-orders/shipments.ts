import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, FieldErrorCollector } from "@/server/domain/errors";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { lockPharmacyOrderInScope, PHARMACY_ORDER_CHANGE, recordPharmacyOrderChange } from "./lock";
import { CARRIERS, PHARMACY_ORDER_STATUS, type Carrier } from "./statuses";

// The carriers are vocabulary (statuses.ts, importable by forms); re-exported for this module's callers.
export { CARRIERS, type Carrier };

const TRACKING_URL_MAX_LENGTH = 2048;
const TRACKING_NUMBER_MAX_LENGTH = 100;

export type NewShipment = { trackingUrl: string | null; trackingNumber: string | null; carrierName: Carrier | null };

/**
 * Appends shipments to a pharmacy order, numbered on from its last sequence_number (from 1). The
 * caller must hold the order's row lock (lockPharmacyOrder…): that is what keeps concurrent appends
 * from reading the same last number; the unique (order, sequence_number) index is the backstop.
 * The one place shipments are created (complete_order, the status check, the portal).
 */
export async function appendShipments(tx: Tx, pharmacyOrderId: string, shipments: readonly NewShipment[]) {
  if (shipments.length === 0) return [];
  const last = await tx.shipment.aggregate({ where: { pharmacyOrderId }, _max: { sequenceNumber: true } });
  const start = (last._max.sequenceNumber ?? 0) + 1;
  const created = [];
  for (const [i, shipment] of shipments.entries()) {
    created.push(
      await tx.shipment.create({
        data: { pharmacyOrderId, sequenceNumber: start + i, ...shipment },
        select: { id: true, sequenceNumber: true, trackingUrl: true, trackingNumber: true, carrierName: true },
      }),
    );
  }
  return created;
}

export type ShipmentInput = { trackingUrl?: string | null; trackingNumber?: string | null; carrier?: string | null };

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** Checks a portal shipment: every field optional (blank counts as absent), so an all-empty placeholder is valid. */
function checkShipment(input: ShipmentInput): NewShipment {
  const errors = new FieldErrorCollector();
  const trackingUrl = input.trackingUrl?.trim() || null;
  const trackingNumber = input.trackingNumber?.trim() || null;
  const carrier = input.carrier?.trim() || null;
  if (trackingUrl !== null) {
    if (trackingUrl.length > TRACKING_URL_MAX_LENGTH) {
      errors.add(["tracking_url"], errorText("fields.maxLength", { maximum: TRACKING_URL_MAX_LENGTH }));
    } else if (!isHttpUrl(trackingUrl)) errors.add(["tracking_url"], errorText("fields.httpUrl"));
  }
  if (trackingNumber !== null && trackingNumber.length > TRACKING_NUMBER_MAX_LENGTH) {
    errors.add(["tracking_number"], errorText("fields.maxLength", { maximum: TRACKING_NUMBER_MAX_LENGTH }));
  }
  if (carrier !== null && !(CARRIERS as readonly string[]).includes(carrier)) errors.add(["carrier"], errorText("fields.oneOf", { values: CARRIERS.join(", ") }));
  errors.throwIfAny();
  return { trackingUrl, trackingNumber, carrierName: carrier as Carrier | null };
}

/**
 * Adds a shipment to a pharmacy order by hand (portal), in one transaction under the order's row
 * lock: the next sequence_number, `updatedAt` moved on, a history entry naming who, and one
 * pharmacy_order_updated (there is no separate shipment event). Any status but cancelled (a
 * completed order may get a further parcel). An order outside `pharmacyIds` is not found.
 */
export async function addShipment(
  pharmacyIds: readonly string[],
  pharmacyOrderId: string,
  input: ShipmentInput,
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<{ id: string; sequenceNumber: number }> {
  const db = await database();
  const shipment = checkShipment(input);
  return db.$transaction(async (tx) => {
    const order = await lockPharmacyOrderInScope(tx, { pharmacyIds }, pharmacyOrderId);
    assertOrderAsExpected(order, expected);
    if (order.status === PHARMACY_ORDER_STATUS.cancelled) throw new BadRequestError(errorText("pharmacyOrders.cancelledNoShipment"));
    const [created] = await appendShipments(tx, order.id, [shipment]);
    await recordPharmacyOrderChange(tx, [order], PHARMACY_ORDER_CHANGE.shipmentAdded, actor, `#${created.sequenceNumber}`);
    return { id: created.id, sequenceNumber: created.sequenceNumber };
  });
}
