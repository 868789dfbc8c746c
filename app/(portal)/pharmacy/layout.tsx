import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { PharmacyNav } from "@/components/pharmacy/pharmacy-nav";
import { PortalMessages } from "@/components/i18n/portal-messages";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { portalClientMessages } from "@/i18n/client-messages";
import { requirePortalViewer } from "@/server/auth/portal-session";

/**
 * Every pharmacy portal page: the signed-in pharmacist (or a redirect to sign in, back to the page
 * asked for), the shell with the portal's navigation, and one tRPC client for the whole portal.
 */
export default async function PharmacyLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations("pharmacy.pages.home");
  const shell = await getTranslations("shell.portals");
  const viewer = await requirePortalViewer("PHARMACIST");
  const place = viewer.pharmacy?.displayName ?? viewer.pharmacyGroup?.displayName ?? t("noPharmacy");
  return (
    <PortalMessages messages={await portalClientMessages("pharmacy")}>
      <PortalShell portal={shell("PHARMACIST")} userName={viewer.displayName} place={place} nav={<PharmacyNav />}>
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </PortalShell>
    </PortalMessages>
  );
}
