"use client";

import { PortalNav, type NavSection } from "@/components/portal-nav";

/** The admin tool's sections that exist today; the rest of the tool joins this list as it is built. */
const SECTIONS: NavSection[] = [
  { title: "Overview", links: [{ href: "/admin", label: "Home" }] },
  {
    title: "Settings",
    links: [
      { href: "/admin/api-keys", label: "API keys" },
      { href: "/admin/telemedicine-providers", label: "Telemedicine providers" },
    ],
  },
];

export function AdminNav() {
  return <PortalNav label="Admin tool" home="/admin" sections={SECTIONS} />;
}
