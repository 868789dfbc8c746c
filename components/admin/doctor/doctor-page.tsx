import type { ReactNode } from "react";
import { PortalShell } from "@/components/portal-shell";
import { TrpcReactProvider } from "@/components/trpc/react";
import { requirePortalViewer } from "@/server/auth/portal-session";
import { DoctorNav } from "./doctor-nav";

/**
 * Every page of the doctors' workspace: the signed-in doctor (or a redirect to sign in, back to
 * `path` afterwards; other roles go to their own portal's home), the shell with the workspace's
 * navigation, and the tRPC client for the page's data.
 */
export async function DoctorPage({ path, title, children }: { path: string; title: string; children: ReactNode }) {
  const viewer = await requirePortalViewer("DOCTOR", path);
  return (
    <PortalShell portal="Doctors' workspace" userName={viewer.displayName} place={viewer.organisation.displayName} nav={<DoctorNav />}>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-6">
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </div>
    </PortalShell>
  );
}
