import { database } from "@/server/db/client";
import { checkoutTokenHash } from "./built-in-connector";
import { isCheckoutExpired, type CheckoutRequest } from "./checkout-request";

/** What the hosted checkout page shows: the shop, the lines with prices, the accepted request, the prescriptions by name. */
export type CheckoutView = {
  draftOrderId: string;
  legacyId: string;
  kind: "PRESCRIPTION_CHECKOUT" | "TREATMENT_CHECKOUT";
  /** open (can be confirmed), expired, completed, or closed (cancelled). */
  state: "open" | "expired" | "completed" | "closed";
  shopName: string;
  request: CheckoutRequest;
  lines: { skuName: string; productName: string; quantity: number; unitPrice: number; prescriptionRef: string | null }[];
  prescriptions: string[];
  order: { uid: string; name: string } | null;
};

/** The checkout a token opens, or null (unknown token, or no checkout). Tokens are looked up by hash only. */
export async function checkoutByToken(token: string): Promise<CheckoutView | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const db = await database();
  const draft = await db.draftOrder.findUnique({
    where: { checkoutTokenHash: checkoutTokenHash(token) },
    include: {
      shop: { select: { displayName: true } },
      lines: { include: { sku: { select: { displayName: true, product: { select: { displayName: true } } } } } },
      prescriptions: { select: { externalRef: true }, orderBy: { externalRef: "asc" } },
      order: { select: { id: true, name: true } },
    },
  });
  if (!draft || draft.kind === "RESERVATION") return null;
  const request = draft.request as CheckoutRequest;
  const state =
    draft.status === "completed" ? "completed" : draft.status !== "open" ? "closed" : isCheckoutExpired(request) ? "expired" : "open";
  return {
    draftOrderId: draft.id,
    legacyId: draft.legacyId.toString(),
    kind: draft.kind,
    state,
    shopName: draft.shop.displayName,
    request,
    lines: draft.lines.map((l) => ({
      skuName: l.sku.displayName,
      productName: l.sku.product.displayName,
      quantity: l.quantity,
      unitPrice: l.unitPrice ?? 0,
      prescriptionRef: l.prescriptionRef,
    })),
    prescriptions: draft.prescriptions.map((p) => p.externalRef),
    order: draft.order ? { uid: draft.order.id, name: draft.order.name } : null,
  };
}

/** The id of the checkout a token opens, or null. */
export async function draftIdOfToken(token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const db = await database();
  const draft = await db.draftOrder.findUnique({ where: { checkoutTokenHash: checkoutTokenHash(token) }, select: { id: true, kind: true } });
  return draft && draft.kind !== "RESERVATION" ? draft.id : null;
}
