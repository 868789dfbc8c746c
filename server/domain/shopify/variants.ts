/**
 * A shop SKU's Shopify variant as the admin catalogue holds it (its variation id): Shopify's GID
 * (gid://shopify/ProductVariant/123) or the bare number that webhooks carry (variant_id 123).
 */
const VARIANT_GID = "gid://shopify/ProductVariant/";

/** Both forms of a variant id, the given one first. */
export const variantIdForms = (id: string) => (id.startsWith(VARIANT_GID) ? [id, id.slice(VARIANT_GID.length)] : [id, `${VARIANT_GID}${id}`]);

/** The variant's GID, or null when the value is no Shopify variant id (another platform's id, a code). */
export function variantGid(id: string): string | null {
  return variantIdForms(id).find((form) => /^gid:\/\/shopify\/ProductVariant\/\d+$/.test(form)) ?? null;
}

/** Why a SKU cannot be put into a Shopify draft order (reservations and checkouts of a connected shop). */
export const NOT_A_SHOPIFY_VARIANT = "The SKU is not mapped to a Shopify variant: give its shop SKU the variant's id as variation id.";
