import type { ReactNode } from "react";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { requirePortalViewer } from "@/server/auth/portal-session";
import { PharmacyNav } from "./pharmacy-nav";

/**
 * Every pharmacy portal page: the signed-in pharmacist (or a redirect to sign in, back to `path`
 * afterwards), the shell with the portal's navigation, and the tRPC client for the page's data.
 */
export async function PharmacyPage({ path, title, children }: { path: string; title: string; children: ReactNode }) {
  const viewer = await requirePortalViewer("PHARMACIST", path);
  const place = viewer.pharmacy?.displayName ?? viewer.pharmacyGroup?.displayName ?? "No pharmacy assigned";
  return (
    <PortalShell portal="Pharmacy portal" userName={viewer.displayName} place={place} nav={<PharmacyNav />}>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-6">
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </div>
    </PortalShell>
  );
}
