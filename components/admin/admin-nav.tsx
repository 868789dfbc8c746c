"use client";

import { PortalNav, type NavSection } from "@/components/portal-nav";

/** The admin tool's sections. */
const SECTIONS: NavSection[] = [
  {
    title: "Operations",
    links: [
      { href: "/admin", label: "Home" },
      { href: "/admin/orders", label: "Orders" },
      { href: "/admin/issues", label: "Issue threads" },
      { href: "/admin/prescriptions", label: "Prescriptions" },
    ],
  },
  {
    title: "Catalogue",
    links: [
      { href: "/admin/catalogue", label: "Products and SKUs" },
      { href: "/admin/pharmacy-stock", label: "Pharmacy stock and prices" },
    ],
  },
  {
    title: "Organisation",
    links: [
      { href: "/admin/pharmacies", label: "Pharmacies" },
      { href: "/admin/shops", label: "Shops" },
      { href: "/admin/users", label: "Users" },
      { href: "/admin/telemedicine-providers", label: "Telemedicine providers" },
      { href: "/admin/questionnaires", label: "Questionnaires" },
    ],
  },
  {
    title: "Settings",
    links: [
      { href: "/admin/settings", label: "Settings" },
      { href: "/admin/api-keys", label: "API keys" },
      { href: "/admin/webhooks", label: "Webhooks" },
      { href: "/admin/audit-log", label: "Audit log" },
    ],
  },
];

export function AdminNav() {
  return <PortalNav label="Admin tool" home="/admin" sections={SECTIONS} />;
}
