import type { Tx } from "@/server/db/client";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { PAYOUT_DESCRIPTIONS } from "./descriptions";

/**
 * Projects a pharmacy order's payouts, replacing its earlier projection: item_rest (the pharmacy's
 * price of the items, at most what was paid), item_markup (what was paid above that) and shipping
 * (the order's shipping cost carried by this pharmacy order); zero rows are left out. Projected
 * rows are an indicative preview that can change until completion.
 */
async function projectPayouts(tx: Tx, pharmacyOrderId: string): Promise<void> {
  const order = await tx.pharmacyOrder.findUniqueOrThrow({
    where: { id: pharmacyOrderId },
    select: {
      pharmacyId: true,
      shippingCostsAmount: true,
      shippingCostsCurrency: true,
      items: {
        select: {
          amount: true,
          totalPaidAmount: true,
          pharmacySku: { select: { price: true } },
          orderItem: { select: { totalPaidCurrency: true } },
        },
      },
    },
  });
  const currency = order.items[0]?.orderItem.totalPaidCurrency ?? order.shippingCostsCurrency ?? "EUR";
  const paid = order.items.reduce((sum, i) => sum + i.totalPaidAmount, 0);
  const rest = order.items.reduce((sum, i) => sum + Math.min(i.totalPaidAmount, (i.pharmacySku?.price ?? i.totalPaidAmount) * i.amount), 0);
  const rows = [
    { componentType: "item_rest", amount: rest, currency, routingDescription: PAYOUT_DESCRIPTIONS.item_rest },
    { componentType: "item_markup", amount: paid - rest, currency, routingDescription: PAYOUT_DESCRIPTIONS.item_markup },
    {
      componentType: "shipping",
      amount: order.shippingCostsAmount ?? 0,
      currency: order.shippingCostsCurrency ?? currency,
      routingDescription: PAYOUT_DESCRIPTIONS.shipping,
    },
  ].filter((r) => r.amount > 0);
  await tx.payout.deleteMany({ where: { pharmacyOrderId, status: "PROJECTED" } });
  await tx.payout.createMany({
    data: rows.map((r) => ({ ...r, pharmacyOrderId, receiverPharmacyId: order.pharmacyId, status: "PROJECTED" as const })),
  });
}

/** Pharmacy orders that show projected payouts before completion: paid orders with a prescription. */
export async function refreshProjectedPayouts(tx: Tx, pharmacyOrderId: string): Promise<void> {
  const order = await tx.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrderId }, select: { prescriptionId: true, prepaid: true, completedAt: true } });
  if (order.completedAt || !order.prescriptionId || order.prepaid <= 0) return;
  await projectPayouts(tx, pharmacyOrderId);
}

/**
 * At completion a pharmacy order's payouts become routed: its projected rows, brought up to date
 * (projected now when it had none). When the organisation has a payment provider connected, each
 * routed row is pending at the provider and a payout.create_route task records the intent in this
 * transaction; the provider is never called inside it (create-route.ts makes the route and sets
 * provider_route_id). Without one, rows are routed with no provider route, as before.
 */
export async function routePayouts(tx: Tx, pharmacyOrderId: string, now: Date): Promise<void> {
  await projectPayouts(tx, pharmacyOrderId);
  const { pharmacy } = await tx.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrderId }, select: { pharmacy: { select: { organisationId: true } } } });
  const connected = (await tx.paymentProviderConnection.count({ where: { organisationId: pharmacy.organisationId } })) > 0;
  const pending = await tx.payout.findMany({ where: { pharmacyOrderId, status: "PROJECTED" }, select: { id: true }, orderBy: { id: "asc" } });
  if (pending.length === 0) return;
  await tx.payout.updateMany({
    where: { id: { in: pending.map((p) => p.id) } },
    data: { status: "ROUTED", providerRouteId: null, routingCreatedAt: now, providerRouting: connected ? "PENDING" : null },
  });
  if (connected) for (const payout of pending) await enqueueTask(tx, "payout.create_route", { payoutId: payout.id });
}
