import { randomUUID } from "node:crypto";
import type { Tx } from "@/server/db/client";
import type { Address } from "./intake";

/**
 * The patient behind a shop's customer id, created on first order. Concurrent first orders of one
 * customer race on the (shop, shop customer id) unique index: INSERT … ON CONFLICT DO NOTHING lets
 * the loser read the winner's row instead of aborting its transaction.
 */
export async function findOrCreateShopCustomer(
  tx: Tx,
  organisationId: string,
  shopId: string,
  customer: { id: string; email?: string },
  address: Address,
): Promise<{ id: string; displayName: string }> {
  const existing = await tx.shopCustomer.findUnique({
    where: { shopId_shopCustomerId: { shopId, shopCustomerId: customer.id } },
    select: { patient: { select: { id: true, displayName: true } } },
  });
  if (existing) return existing.patient;

  const patient = await tx.patientProfile.create({
    data: {
      organisationId,
      displayName: `${address.first_name} ${address.last_name}`.trim(),
      firstName: address.first_name,
      lastName: address.last_name,
      email: customer.email ?? null,
    },
    select: { id: true, displayName: true },
  });
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "ShopCustomer" ("id", "shopId", "shopCustomerId", "patientId", "email", "createdAt")
    VALUES (${randomUUID()}, ${shopId}, ${customer.id}, ${patient.id}, ${customer.email ?? null}, now())
    ON CONFLICT ("shopId", "shopCustomerId") DO NOTHING
    RETURNING "id"`;
  if (inserted.length > 0) return patient;

  await tx.patientProfile.delete({ where: { id: patient.id } });
  const winner = await tx.shopCustomer.findUniqueOrThrow({
    where: { shopId_shopCustomerId: { shopId, shopCustomerId: customer.id } },
    select: { patient: { select: { id: true, displayName: true } } },
  });
  return winner.patient;
}
