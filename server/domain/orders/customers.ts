import { randomUUID } from "node:crypto";
import type { Tx } from "@/server/db/client";
import type { Address } from "./intake";

type Patient = { id: string; displayName: string };

/**
 * The patient behind a shop's customer id, created on first order. Concurrent first orders of one
 * customer race on the (shop, shop customer id) unique index: INSERT … ON CONFLICT DO NOTHING lets
 * the loser read the winner's row instead of aborting its transaction. One statement for a known
 * customer and one for a new one (patient and customer together); the race costs two more.
 */
export async function findOrCreateShopCustomer(
  tx: Tx,
  organisationId: string,
  shopId: string,
  customer: { id: string; email?: string },
  address: Address,
): Promise<Patient> {
  const [existing] = await customersPatient(tx, shopId, customer.id);
  if (existing) return existing;

  const patient = { id: randomUUID(), displayName: `${address.first_name} ${address.last_name}`.trim() };
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    WITH patient AS (
      INSERT INTO "PatientProfile" ("id", "organisationId", "displayName", "firstName", "lastName", "email", "updatedAt")
      VALUES (${patient.id}, ${organisationId}, ${patient.displayName}, ${address.first_name}, ${address.last_name},
              ${customer.email ?? null}, now())
      RETURNING "id")
    INSERT INTO "ShopCustomer" ("id", "shopId", "shopCustomerId", "patientId", "email", "createdAt")
    SELECT ${randomUUID()}, ${shopId}, ${customer.id}, patient."id", ${customer.email ?? null}, now() FROM patient
    ON CONFLICT ("shopId", "shopCustomerId") DO NOTHING
    RETURNING "id"`;
  if (inserted.length > 0) return patient;

  await tx.$executeRaw`DELETE FROM "PatientProfile" WHERE "id" = ${patient.id}`;
  const [winner] = await customersPatient(tx, shopId, customer.id);
  if (!winner) throw new Error(`shop customer ${customer.id} conflicted but cannot be read`);
  return winner;
}

function customersPatient(tx: Tx, shopId: string, shopCustomerId: string): Promise<Patient[]> {
  return tx.$queryRaw<Patient[]>`
    SELECT p."id", p."displayName" FROM "ShopCustomer" c JOIN "PatientProfile" p ON p."id" = c."patientId"
     WHERE c."shopId" = ${shopId} AND c."shopCustomerId" = ${shopCustomerId}`;
}
