/** Inputs of the shippingMethods procedures; the settings page validates its fields with the same schemas. */
import { z } from "zod";
import { uid } from "@/server/wire/schemas";

/** The pharmacy's identifier of a method: blank removes the mapping. */
export const identifierForPharmacy = z.string().trim().max(255);

export const listShippingMethodsInput = z.object({ pharmacyUid: uid().optional() }).default({});

export const saveShippingMethodMappingsInput = z.object({
  pharmacyUid: uid().optional(),
  mappings: z.array(z.object({ shopShippingMethodUid: uid(), identifier: identifierForPharmacy })).max(1000),
});
