import { randomInt, randomUUID } from "node:crypto";
import type { Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { recordEvent } from "@/server/domain/events/outbox";
import { refreshProjectedPayouts } from "@/server/domain/payouts/route-payouts";
import { PHARMACY_ORDER_STATUS } from "./statuses";

const NAME_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A human-readable pharmacy order name, PO-XXXX-XXXX-XXXX (no 0/O or 1/I to misread). */
export function newPharmacyOrderName(): string {
  const group = () => Array.from({ length: 4 }, () => NAME_ALPHABET[randomInt(NAME_ALPHABET.length)]).join("");
  return `PO-${group()}-${group()}-${group()}`;
}

/** The text `search` matches: names and uids, lower-cased, in one indexed column. */
export function pharmacyOrderSearchText(parts: (string | null | undefined)[]): string {
  return parts
    .filter((p): p is string => Boolean(p))
    .join(" ")
    .toLowerCase();
}

export type NewPharmacyOrder = {
  organisationId: string;
  orderId: string;
  fulfillmentId: string;
  pharmacyId: string;
  prescriptionId: string | null;
  prepaid: number;
  shippingCostsAmount: number | null;
  shippingCostsCurrency: string | null;
  items: { orderItemId: string; pharmacySkuId: string | null; amount: number; totalPaidAmount: number }[];
  search: { shopOrderName: string | null; patientName: string };
};

/**
 * Creates a pharmacy order in "waiting for pharmacy", its first history entry, its projected
 * payouts (paid prescription orders) and pharmacy_order_created.
 */
export async function createPharmacyOrder(tx: Tx, input: NewPharmacyOrder, actor: Actor): Promise<string> {
  const id = randomUUID();
  const name = newPharmacyOrderName();
  await tx.pharmacyOrder.create({
    data: {
      id,
      name,
      organisationId: input.organisationId,
      orderId: input.orderId,
      fulfillmentId: input.fulfillmentId,
      pharmacyId: input.pharmacyId,
      prescriptionId: input.prescriptionId,
      status: PHARMACY_ORDER_STATUS.waitingForPharmacy,
      prepaid: input.prepaid,
      shippingCostsAmount: input.shippingCostsAmount,
      shippingCostsCurrency: input.shippingCostsCurrency,
      searchText: pharmacyOrderSearchText([input.search.shopOrderName, name, input.search.patientName, input.orderId, id]),
      items: { createMany: { data: input.items } },
      history: {
        create: { fromStatus: null, toStatus: PHARMACY_ORDER_STATUS.waitingForPharmacy, ...actorColumns(actor) },
      },
    },
  });
  await refreshProjectedPayouts(tx, id);
  await recordEvent(tx, {
    type: "pharmacy_order_created",
    organisationId: input.organisationId,
    pharmacyId: input.pharmacyId,
    subjectId: id,
  });
  return id;
}
