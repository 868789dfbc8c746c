"use client";

import { useTranslations } from "next-intl";
import { PortalNav, type NavSection } from "@/components/portal-nav";

/** Where everything in the pharmacy portal is: the work first, then settings and API access. */
export function PharmacyNav() {
  const t = useTranslations("pharmacy.nav");
  const sections: NavSection[] = [
    {
      title: t("work"),
      links: [
        { href: "/pharmacy", label: t("home") },
        { href: "/pharmacy/orders", label: t("orders") },
        { href: "/pharmacy/wallet-pass", label: t("walletPass") },
        { href: "/pharmacy/stock", label: t("stock") },
        { href: "/pharmacy/payouts", label: t("payouts") },
      ],
    },
    {
      title: t("settings"),
      links: [
        { href: "/pharmacy/settings/shipping-methods", label: t("shippingMethods") },
        { href: "/pharmacy/settings/api-keys", label: t("apiKeys") },
      ],
    },
    {
      title: t("apiAccess"),
      links: [
        { href: "/pharmacy/api-access/webhooks", label: t("webhooks") },
        { href: "/pharmacy/api-access/delivery-logs", label: t("deliveryLogs") },
      ],
    },
  ];
  return <PortalNav label={t("label")} home="/pharmacy" sections={sections} />;
}
