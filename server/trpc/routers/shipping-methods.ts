/**
 * Pharmacy portal, Settings → Shipping methods: the pharmacy's own identifier per shop shipping
 * method, which pharmacy order details and webhooks then carry as `pharmacy_mapping`.
 */
import { listShippingMethodsForPharmacy, setShippingMethodMappings } from "@/server/domain/pharmacies/shipping-method-mappings";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { presentShippingMethod } from "./shipping-methods.presenters";
import { listShippingMethodsInput, saveShippingMethodMappingsInput } from "./shipping-methods.schemas";

export const shippingMethodsRouter = router({
  list: pharmacyProcedure.input(listShippingMethodsInput).query(async ({ ctx, input }) => {
    const pharmacy = ctx.scope.pharmacy(input.pharmacyUid);
    return (await listShippingMethodsForPharmacy(pharmacy)).map(presentShippingMethod);
  }),

  /** Sets the named methods' identifiers (blank removes one) and returns the whole list as it now is. */
  save: pharmacyProcedure.input(saveShippingMethodMappingsInput).mutation(async ({ ctx, input }) => {
    const pharmacy = ctx.scope.pharmacy(input.pharmacyUid);
    await setShippingMethodMappings(
      pharmacy,
      input.mappings.map((m) => ({ shopShippingMethodId: m.shopShippingMethodUid, identifierForPharmacy: m.identifier || null })),
    );
    return (await listShippingMethodsForPharmacy(pharmacy)).map(presentShippingMethod);
  }),
});
