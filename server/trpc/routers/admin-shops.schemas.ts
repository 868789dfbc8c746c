/** Inputs of the admin tool's shop procedures (zod and server/wire only). */
import { z } from "zod";
import { text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

/** Shop identifiers appear in URL paths (the Public API): letters, digits, dot, dash, underscore. */
const identifier = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((value) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value), ownMessage("shops.identifierFormat"));

export const createShopInput = z.object({ identifier: identifier(), displayName: text(200) });
export const renameShopInput = z.object({ shopUid: uid(), displayName: text(200) });
export const createShippingMethodInput = z.object({ shopUid: uid(), externalId: text(100), displayName: text(200) });
export const renameShippingMethodInput = z.object({ shippingMethodUid: uid(), displayName: text(200) });
