"use client";

import { useTranslations } from "next-intl";
import { PortalNav, type NavSection } from "@/components/portal-nav";

type Link = "home" | "orders" | "patients" | "issues" | "prescriptions" | "payouts" | "appointments" | "catalogue" | "pharmacyStock" | "pharmacies" | "shops" | "users" | "doctors" | "telemedicine" | "questionnaires" | "settings" | "apiKeys" | "webhooks" | "email" | "auditLog";

/** The admin tool's sections: each a message key and its links (href, message key). */
const SECTIONS: { title: "operations" | "catalogue" | "organisation" | "settings"; links: [string, Link][] }[] = [
  {
    title: "operations",
    links: [
      ["/admin", "home"],
      ["/admin/orders", "orders"],
      ["/admin/patients", "patients"],
      ["/admin/issues", "issues"],
      ["/admin/prescriptions", "prescriptions"],
      ["/admin/payouts", "payouts"],
      ["/admin/appointments", "appointments"],
    ],
  },
  {
    title: "catalogue",
    links: [
      ["/admin/catalogue", "catalogue"],
      ["/admin/pharmacy-stock", "pharmacyStock"],
    ],
  },
  {
    title: "organisation",
    links: [
      ["/admin/pharmacies", "pharmacies"],
      ["/admin/shops", "shops"],
      ["/admin/users", "users"],
      ["/admin/doctors", "doctors"],
      ["/admin/telemedicine-providers", "telemedicine"],
      ["/admin/questionnaires", "questionnaires"],
    ],
  },
  {
    title: "settings",
    links: [
      ["/admin/settings", "settings"],
      ["/admin/api-keys", "apiKeys"],
      ["/admin/webhooks", "webhooks"],
      ["/admin/email", "email"],
      ["/admin/audit-log", "auditLog"],
    ],
  },
];

export function AdminNav() {
  const t = useTranslations("nav.admin");
  const shell = useTranslations("shell");
  const sections: NavSection[] = SECTIONS.map((section) => ({
    title: t(`sections.${section.title}`),
    links: section.links.map(([href, key]) => ({ href, label: t(`links.${key}`) })),
  }));
  return <PortalNav label={shell("portals.ADMIN")} home="/admin" sections={sections} />;
}
