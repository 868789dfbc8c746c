import type { ReactNode } from "react";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { requirePortalViewer } from "@/server/auth/portal-session";
import { AdminNav } from "./admin-nav";

/**
 * Every admin tool page: the signed-in admin (or a redirect to sign in, back to `path` afterwards),
 * the shell with the tool's navigation, and the tRPC client for the page's data. Without a title
 * (the home page), the organisation's name heads the page.
 */
export async function AdminPage({ path, title, children }: { path: string; title?: string; children: ReactNode }) {
  const viewer = await requirePortalViewer("ADMIN", path);
  return (
    <PortalShell portal="Admin tool" userName={viewer.displayName} place={viewer.organisation.displayName} nav={<AdminNav />}>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title ?? viewer.organisation.displayName}</h1>
      <div className="mt-6">
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </div>
    </PortalShell>
  );
}
