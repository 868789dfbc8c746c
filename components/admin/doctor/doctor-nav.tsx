"use client";

import { PortalNav, type NavSection } from "@/components/portal-nav";

/** The doctors' workspace's sections (doctors see nothing else of the admin tool). */
const SECTIONS: NavSection[] = [
  {
    title: "Doctors' workspace",
    links: [
      { href: "/admin/doctor", label: "Requests", also: ["/admin/doctor/requests"] },
      { href: "/admin/doctor/waiting-room", label: "Waiting room" },
      { href: "/admin/doctor/statistics", label: "My statistics" },
    ],
  },
];

export function DoctorNav() {
  return <PortalNav label="Doctors' workspace" home="/admin/doctor" sections={SECTIONS} />;
}
