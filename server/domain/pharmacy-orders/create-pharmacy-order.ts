import { randomInt, randomUUID } from "node:crypto";
import { Prisma, prismaTx, type RawTx, type Tx } from "@/server/db/client";
import type { PharmacyOrderRouting } from "@/server/db/generated/enums";
import type { Actor } from "@/server/domain/actor";
import { outboxInsertSql } from "@/server/domain/events/outbox";
import { queuePharmacyOrderNotice } from "@/server/domain/mail/pharmacy-order-notice";
import { refreshProjectedPayouts } from "@/server/domain/payouts/route-payouts";
import { historyInsertSql } from "./lock";
import { newPharmacyOrderSearchText, type OrderSearchParts } from "./search-text";
import { deliveryTypeOfHints, PHARMACY_ORDER_STATUS } from "./statuses";

const NAME_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A human-readable pharmacy order name, PO-XXXX-XXXX-XXXX (no 0/O or 1/I to misread). */
export function newPharmacyOrderName(): string {
  const group = () => Array.from({ length: 4 }, () => NAME_ALPHABET[randomInt(NAME_ALPHABET.length)]).join("");
  return `PO-${group()}-${group()}-${group()}`;
}

export type NewPharmacyOrder = {
  organisationId: string;
  orderId: string;
  fulfillmentId: string;
  pharmacyId: string;
  /** How the pharmacy was chosen: only an automatic choice is re-routed when the pharmacy gives it back (reroute.ts). */
  routing: PharmacyOrderRouting;
  prescriptionId: string | null;
  prepaid: number;
  shippingCostsAmount: number | null;
  shippingCostsCurrency: string | null;
  /** fulfillmentMethod: the order item's hint, which selects the delivery type (deliveryTypeOfHints). */
  items: { orderItemId: string; pharmacySkuId: string | null; amount: number; totalPaidAmount: number; fulfillmentMethod: string | null }[];
  /** The address told of this pharmacy order (pharmacyEmailNoticeTo), or null. */
  noticeTo: string | null;
  /** A note on its first history entry (why it was opened, when not at intake). */
  comment?: string;
  /** The order's search parts, when the caller read them in this transaction under the patient's lock (newPharmacyOrderSearchText). */
  searchParts?: OrderSearchParts;
  /**
   * Writes of the same command that go into this pharmacy order's statement, as CTEs (`"name" AS
   * (INSERT …)`, comma-separated, named other than this statement's own: pharmacyOrder, items,
   * event): order intake writes the fulfillment and its items with it.
   */
  alongside?: Prisma.Sql;
};

/**
 * Whom a new pharmacy order of an order is announced to by e-mail: the intake's pharmacy_email
 * ("Address to notify alongside pharmacy_uid") when the pharmacy order is at the order's
 * pharmacy_uid, or at any pharmacy when the order names none. docs/decisions/operations.md#e-mail.
 */
export function pharmacyEmailNoticeTo(order: { pharmacyEmail: string | null; pharmacyId: string | null }, pharmacyId: string): string | null {
  if (!order.pharmacyEmail) return null;
  return order.pharmacyId === null || order.pharmacyId === pharmacyId ? order.pharmacyEmail : null;
}

/**
 * What a pharmacy order takes of the order items routed to it: the first prescription among them,
 * the amount prepaid for the prescribed ones, and its item rows at the routed pharmacy's SKUs.
 */
export function pharmacyOrderLinesOf(
  toPharmacy: { id: string; skuId: string; quantity: number; totalPaidAmount: number; prescriptionId: string | null; fulfillmentMethod: string | null }[],
  routed: { pharmacySkuBySku: ReadonlyMap<string, string> },
): Pick<NewPharmacyOrder, "prescriptionId" | "prepaid" | "items"> {
  const prescribed = toPharmacy.filter((i) => i.prescriptionId);
  return {
    prescriptionId: prescribed[0]?.prescriptionId ?? null,
    prepaid: prescribed.reduce((sum, i) => sum + i.totalPaidAmount, 0),
    items: toPharmacy.map((i) => ({
      orderItemId: i.id,
      pharmacySkuId: routed.pharmacySkuBySku.get(i.skuId) ?? null,
      amount: i.quantity,
      totalPaidAmount: i.totalPaidAmount,
      fulfillmentMethod: i.fulfillmentMethod,
    })),
  };
}

/** A new pharmacy order's uid and name. */
export const newPharmacyOrderIdentity = () => ({ id: randomUUID(), name: newPharmacyOrderName() });

/**
 * The rows of a new pharmacy order (createPharmacyOrder) as CTEs of one statement: "pharmacyOrder",
 * "items", "event" and "history". Its search text as newPharmacyOrderSearchText builds it.
 */
export function pharmacyOrderWritesSql(
  pharmacyOrder: { id: string; name: string; searchText: string },
  input: Omit<NewPharmacyOrder, "noticeTo" | "searchParts" | "alongside">,
  actor: Actor,
): Prisma.Sql {
  const { id, name, searchText } = pharmacyOrder;
  const items = input.items.map(({ fulfillmentMethod: _hint, ...item }) => ({ id: randomUUID(), pharmacyOrderId: id, ...item }));
  const deliveryType = deliveryTypeOfHints(input.items.map((item) => item.fulfillmentMethod));
  const event = outboxInsertSql({ type: "pharmacy_order_created", organisationId: input.organisationId, pharmacyId: input.pharmacyId, subjectId: id });
  return Prisma.sql`
    "pharmacyOrder" AS (
      INSERT INTO "PharmacyOrder" ("id", "name", "organisationId", "orderId", "fulfillmentId", "activeFulfillmentId", "routing", "pharmacyId",
                                   "prescriptionId", "status", "deliveryType", "prepaid", "shippingCostsAmount", "shippingCostsCurrency",
                                   "searchText", "updatedAt")
      VALUES (${id}, ${name}, ${input.organisationId}, ${input.orderId}, ${input.fulfillmentId}, ${input.fulfillmentId},
              ${input.routing}::"PharmacyOrderRouting", ${input.pharmacyId}, ${input.prescriptionId},
              ${PHARMACY_ORDER_STATUS.waitingForPharmacy}, ${deliveryType}, ${input.prepaid}::int, ${input.shippingCostsAmount}::int,
              ${input.shippingCostsCurrency}, ${searchText}, now())
      RETURNING "id"),
    "items" AS (
      INSERT INTO "PharmacyOrderItem" ("id", "pharmacyOrderId", "orderItemId", "pharmacySkuId", "amount", "totalPaidAmount")
      SELECT i."id", i."pharmacyOrderId", i."orderItemId", i."pharmacySkuId", i."amount", i."totalPaidAmount"
        FROM jsonb_populate_recordset(NULL::"PharmacyOrderItem", ${JSON.stringify(items)}::jsonb) i),
    "event" AS (${event}),
    "history" AS (${historyInsertSql(id, null, PHARMACY_ORDER_STATUS.waitingForPharmacy, actor, input.comment ?? null)})`;
}

/**
 * Creates a pharmacy order in "waiting for pharmacy", as its fulfillment's active pharmacy order
 * (the caller makes sure the fulfillment has none: the unique activeFulfillmentId refuses a second),
 * with the delivery type its items' hints select,
 * its search text (search-text.ts), its first history entry, its projected
 * payouts (paid prescription orders), pharmacy_order_created, and the e-mail notice to `noticeTo`
 * when there is one and a mailer is configured. The order, its items, its
 * history and the event go in one statement (with the caller's `alongside` writes): order intake
 * creates a pharmacy order per fulfillment, and as Prisma model calls these were six statements
 * (the intake row of the orders benchmark).
 */
export async function createPharmacyOrder(tx: Tx | RawTx, input: NewPharmacyOrder, actor: Actor): Promise<string> {
  const { id, name } = newPharmacyOrderIdentity();
  const searchText = await newPharmacyOrderSearchText(tx, { id, name, orderId: input.orderId }, input.searchParts);
  await tx.$executeRaw`
    WITH ${input.alongside ? Prisma.sql`${input.alongside},` : Prisma.empty}
    ${pharmacyOrderWritesSql({ id, name, searchText }, input, actor)}
    SELECT 1`;
  // Only a paid order with a prescription shows projected payouts (refreshProjectedPayouts' rule):
  // skipped otherwise, as it would read the new order only to find that out.
  if (input.prescriptionId && input.prepaid > 0) await refreshProjectedPayouts(prismaTx(tx), id);
  if (input.noticeTo) {
    await queuePharmacyOrderNotice(prismaTx(tx), {
      organisationId: input.organisationId,
      to: input.noticeTo,
      pharmacyOrderId: id,
      pharmacyOrderName: name,
      pharmacyId: input.pharmacyId,
      itemCount: input.items.length,
    });
  }
  return id;
}
