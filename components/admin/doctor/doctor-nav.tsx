"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { PortalNav, type NavSection } from "@/components/portal-nav";
import { useTRPC } from "@/components/trpc/react";

/** The doctors' workspace's sections (doctors see nothing else of the admin tool). */
export function DoctorNav() {
  const t = useTranslations("nav.doctor");
  const shell = useTranslations("shell");
  const trpc = useTRPC();
  // The approved prescriptions waiting for the doctor's signature (read again after every decision).
  const waiting = useQuery(trpc.doctor.signCentre.count.queryOptions(undefined, { refetchInterval: 60_000 })).data?.count ?? 0;
  const sections: NavSection[] = [
    {
      title: shell("portals.DOCTOR"),
      links: [
        { href: "/admin/doctor", label: t("requests"), also: ["/admin/doctor/requests"] },
        { href: "/admin/doctor/sign-centre", label: t("signCentre"), count: waiting, countLabel: t("signCentreCount", { count: waiting }) },
        { href: "/admin/doctor/waiting-room", label: t("waitingRoom") },
        { href: "/admin/doctor/appointments", label: t("appointments") },
        { href: "/admin/doctor/statistics", label: t("statistics") },
        { href: "/admin/doctor/signature", label: t("signature") },
      ],
    },
  ];
  return <PortalNav label={shell("portals.DOCTOR")} home="/admin/doctor" sections={sections} />;
}
