import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { DoctorNav } from "@/components/admin/doctor/doctor-nav";
import { PortalMessages } from "@/components/i18n/portal-messages";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { portalClientMessages } from "@/i18n/client-messages";
import { requirePortalViewer } from "@/server/auth/portal-session";

/**
 * Every page of the doctors' workspace: the signed-in doctor (or a redirect to sign in, back to the
 * page asked for; other roles go to their own portal's home), the shell with the workspace's
 * navigation, and one tRPC client for the workspace (the navigation's counter uses it too).
 */
export default async function DoctorLayout({ children }: { children: ReactNode }) {
  const viewer = await requirePortalViewer("DOCTOR");
  const t = await getTranslations("shell");
  return (
    // One client for the pages and the navigation (its Sign centre counter).
    <PortalMessages messages={await portalClientMessages("doctor")}>
      <TrpcReactProvider>
        <PortalShell portal={t("portals.DOCTOR")} userName={viewer.displayName} place={viewer.organisation.displayName} nav={<DoctorNav />}>
          {children}
        </PortalShell>
      </TrpcReactProvider>
    </PortalMessages>
  );
}
