/** The portal's shape of a shop shipping method with the pharmacy's identifier. */
import type { ShippingMethodForPharmacy } from "@/server/domain/pharmacies/shipping-method-mappings";

export const presentShippingMethod = (m: ShippingMethodForPharmacy) => ({
  uid: m.id,
  displayName: m.displayName,
  externalId: m.externalId,
  shop: { uid: m.shop.id, displayName: m.shop.displayName, identifier: m.shop.identifier },
  identifierForPharmacy: m.identifierForPharmacy,
});
