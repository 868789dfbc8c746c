"use client";

import { useTranslations } from "next-intl";

/** A delivery type (shipping, pickup) in the page's language; an unknown value as it is. */
export function useDeliveryTypeLabel(): (type: string | null | undefined) => string {
  const t = useTranslations("pharmacy.deliveryType");
  return (type) => (type === "shipping" || type === "pickup" ? t(type) : (type ?? "—"));
}
