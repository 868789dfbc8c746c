import type { Metadata } from "next";
import { Fact, PortalShell } from "@/components/portal-shell";
import { requirePortalViewer } from "@/server/auth/portal-session";

export const metadata: Metadata = { title: "Admin tool" };

export default async function AdminHomePage() {
  const viewer = await requirePortalViewer("ADMIN", "/admin");
  return (
    <PortalShell
      portal="Admin tool"
      userName={viewer.displayName}
     
      place={viewer.organisation.displayName}
    >
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{viewer.organisation.displayName}</h1>
      <p className="mt-1 text-sm text-slate-600">Organisation administration</p>
      <dl className="mt-8 grid gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-3">
        <Fact label="Signed in as" value={viewer.displayName} />
        <Fact label="Email" value={viewer.email} />
        <Fact label="Organisation" value={viewer.organisation.displayName} />
      </dl>
    </PortalShell>
  );
}
