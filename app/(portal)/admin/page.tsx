import type { Metadata } from "next";
import { AdminAttention } from "@/components/admin/home/attention";
import { AdminPage } from "@/components/admin/admin-page";
import { requirePortalViewer } from "@/server/auth/portal-session";

export const metadata: Metadata = { title: "Admin tool" };

export default async function AdminHomePage() {
  const viewer = await requirePortalViewer("ADMIN", "/admin");
  return (
    <AdminPage path="/admin">
      <p className="-mt-4 mb-6 text-sm text-slate-600">
        Signed in as {viewer.displayName} · {viewer.email}
      </p>
      <AdminAttention />
    </AdminPage>
  );
}
