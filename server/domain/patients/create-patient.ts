import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { checkProfileFields, writeProfileFields, type FieldInput } from "./profile-fields";
import { findOrCreateShopCustomer } from "./shop-customers";

export type PatientRegistration = {
  shopId: string;
  shopCustomerId: string;
  email?: string | null;
  fields?: FieldInput[];
};

/**
 * POST /v1/management/patients (G19): the patient of a shop's customer, created or resolved on
 * (shop, shop customer id) through the same step as order intake. On a known customer the given
 * e-mail replaces the shop customer's and the profile's, and the given fields replace their values
 * (docs/decisions/telemedicine.md#doctors-and-patients). All or nothing: the fields are checked before anything is
 * written. A shop of another organisation is not found.
 */
export async function createOrResolvePatient(
  organisationId: string,
  registration: PatientRegistration,
): Promise<{ patientId: string; created: boolean }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const shop = await tx.shop.findFirst({ where: { id: registration.shopId, organisationId }, select: { id: true } });
      if (!shop) throw new NotFoundError();
      const values = await checkProfileFields(tx, organisationId, registration.fields ?? []);
      const email = registration.email ?? null;
      const patient = await findOrCreateShopCustomer(tx, organisationId, shop.id, { id: registration.shopCustomerId, email });
      if (!patient.created && email !== null) {
        await tx.shopCustomer.update({
          where: { shopId_shopCustomerId: { shopId: shop.id, shopCustomerId: registration.shopCustomerId } },
          data: { email },
        });
        await tx.patientProfile.update({ where: { id: patient.id }, data: { email } });
      }
      await writeProfileFields(tx, patient.id, values);
      return { patientId: patient.id, created: patient.created };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
