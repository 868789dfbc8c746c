import type { ReactNode } from "react";
import { PharmacyNav } from "@/components/pharmacy/pharmacy-nav";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { requirePortalViewer } from "@/server/auth/portal-session";

/**
 * Every pharmacy portal page: the signed-in pharmacist (or a redirect to sign in, back to the page
 * asked for), the shell with the portal's navigation, and one tRPC client for the whole portal.
 */
export default async function PharmacyLayout({ children }: { children: ReactNode }) {
  const viewer = await requirePortalViewer("PHARMACIST");
  const place = viewer.pharmacy?.displayName ?? viewer.pharmacyGroup?.displayName ?? "No pharmacy assigned";
  return (
    <PortalShell portal="Pharmacy portal" userName={viewer.displayName} place={place} nav={<PharmacyNav />}>
      <TrpcReactProvider>{children}</TrpcReactProvider>
    </PortalShell>
  );
}
