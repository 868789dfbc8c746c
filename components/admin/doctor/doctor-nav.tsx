"use client";

import { useTranslations } from "next-intl";
import { PortalNav, type NavSection } from "@/components/portal-nav";

/** The doctors' workspace's sections (doctors see nothing else of the admin tool). */
export function DoctorNav() {
  const t = useTranslations("nav.doctor");
  const shell = useTranslations("shell");
  const sections: NavSection[] = [
    {
      title: shell("portals.DOCTOR"),
      links: [
        { href: "/admin/doctor", label: t("requests"), also: ["/admin/doctor/requests"] },
        { href: "/admin/doctor/waiting-room", label: t("waitingRoom") },
        { href: "/admin/doctor/appointments", label: t("appointments") },
        { href: "/admin/doctor/statistics", label: t("statistics") },
        { href: "/admin/doctor/signature", label: t("signature") },
      ],
    },
  ];
  return <PortalNav label={shell("portals.DOCTOR")} home="/admin/doctor" sections={sections} />;
}
