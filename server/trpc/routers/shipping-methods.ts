/**
 * Pharmacy portal, Settings → Shipping methods: the pharmacy's own identifier per shop shipping
 * method, which pharmacy order details and webhooks then carry as `pharmacy_mapping`.
 */
import { NotFoundError } from "@/server/domain/errors";
import { pharmacyToActFor, type PharmacyReach } from "@/server/domain/pharmacies/pharmacy-scope";
import { listShippingMethodsForPharmacy, setShippingMethodMappings } from "@/server/domain/pharmacies/shipping-method-mappings";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { presentShippingMethod } from "./shipping-methods.presenters";
import { listShippingMethodsInput, saveShippingMethodMappingsInput } from "./shipping-methods.schemas";

/** Mappings are per pharmacy: a group pharmacist names one; out of reach is not found. */
async function pharmacyOf(user: PharmacyReach, requested: string | undefined) {
  const pharmacy = await pharmacyToActFor(user, requested ?? null);
  if (!pharmacy) throw new NotFoundError();
  return pharmacy;
}

export const shippingMethodsRouter = router({
  list: pharmacistProcedure.input(listShippingMethodsInput).query(async ({ ctx, input }) => {
    const pharmacy = await pharmacyOf(ctx.user, input.pharmacyUid);
    return (await listShippingMethodsForPharmacy(pharmacy)).map(presentShippingMethod);
  }),

  /** Sets the named methods' identifiers (blank removes one) and returns the whole list as it now is. */
  save: pharmacistProcedure.input(saveShippingMethodMappingsInput).mutation(async ({ ctx, input }) => {
    const pharmacy = await pharmacyOf(ctx.user, input.pharmacyUid);
    await setShippingMethodMappings(
      pharmacy,
      input.mappings.map((m) => ({ shopShippingMethodId: m.shopShippingMethodUid, identifierForPharmacy: m.identifier || null })),
    );
    return (await listShippingMethodsForPharmacy(pharmacy)).map(presentShippingMethod);
  }),
});
