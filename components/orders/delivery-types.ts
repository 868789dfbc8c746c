import { useTranslations } from "next-intl";

/** English names of the delivery types (kept for callers not yet on the messages; prefer useDeliveryTypeLabel). */
export const DELIVERY_TYPE_LABELS: Record<string, string> = { shipping: "Shipping", pickup: "Pharmacy pickup" };

/** A delivery type's name in the page's language (orders.deliveryTypes.*); an unknown value as it is. */
export function useDeliveryTypeLabel(): (value: string | null | undefined) => string {
  const t = useTranslations("orders.deliveryTypes");
  return (value) => (value === "shipping" || value === "pickup" ? t(value) : (value ?? "—"));
}
