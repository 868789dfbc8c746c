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

/** A Shopify store's address: its myshopify.com domain, or a URL (http(s), no user info or path). */
const storeUrl = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine((value) => {
      const candidate = /^https?:\/\//i.test(value) ? value : `https://${value}`;
      if (!URL.canParse(candidate)) return false;
      const url = new URL(candidate);
      return !url.username && !url.password && (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash;
    }, ownMessage("shopify.storeUrlFormat"));
/** A secret as Shopify shows it; blank keeps the stored one when the connection exists. */
const secret = () => z.string().trim().max(500);

export const saveShopifyConnectionInput = z.object({ shopUid: uid(), storeUrl: storeUrl(), accessToken: secret(), clientSecret: secret() });
export const testShopifyConnectionInput = z.object({ shopUid: uid() });
export const shopifyRefusalsInput = z.object({ shopUid: uid() });
