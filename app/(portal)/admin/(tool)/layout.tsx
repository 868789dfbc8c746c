import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { PortalMessages } from "@/components/i18n/portal-messages";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { portalClientMessages } from "@/i18n/client-messages";
import { requirePortalViewer } from "@/server/auth/portal-session";

/**
 * Every admin tool page (the route group `(tool)`: /admin except the doctors' workspace, which has
 * its own role and layout under /admin/doctor): the signed-in admin (or a redirect to sign in, back
 * to the page asked for), the shell with the tool's navigation, and one tRPC client for the tool.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const viewer = await requirePortalViewer("ADMIN");
  const t = await getTranslations("shell");
  return (
    <PortalMessages messages={await portalClientMessages("admin")}>
      <PortalShell portal={t("portals.ADMIN")} userName={viewer.displayName} place={viewer.organisation.displayName} nav={<AdminNav />}>
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </PortalShell>
    </PortalMessages>
  );
}
