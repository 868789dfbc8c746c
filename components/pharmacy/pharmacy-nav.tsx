"use client";

import { PortalNav, type NavSection } from "@/components/portal-nav";

/** Where everything in the pharmacy portal is: the work first, then settings and API access. */
const SECTIONS: NavSection[] = [
  {
    title: "Work",
    links: [
      { href: "/pharmacy", label: "Home" },
      { href: "/pharmacy/orders", label: "Orders" },
      { href: "/pharmacy/stock", label: "Stock and prices" },
      { href: "/pharmacy/payouts", label: "Payouts" },
    ],
  },
  {
    title: "Settings",
    links: [
      { href: "/pharmacy/settings/shipping-methods", label: "Shipping methods" },
      { href: "/pharmacy/settings/api-keys", label: "API keys" },
    ],
  },
  {
    title: "API access",
    links: [
      { href: "/pharmacy/api-access/webhooks", label: "Webhooks" },
      { href: "/pharmacy/api-access/delivery-logs", label: "Webhook delivery logs" },
    ],
  },
];

export function PharmacyNav() {
  return <PortalNav label="Pharmacy portal" home="/pharmacy" sections={SECTIONS} />;
}
