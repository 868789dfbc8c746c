import type { Metadata } from "next";
import { AdminAttention } from "@/components/admin/home/attention";
import { PageHeader } from "@/components/page-header";
import { requirePortalViewer } from "@/server/auth/portal-session";

export const metadata: Metadata = { title: "Admin tool" };

/** The organisation's name heads the admin home. */
export default async function AdminHomePage() {
  const viewer = await requirePortalViewer("ADMIN");
  return (
    <>
      <PageHeader title={viewer.organisation.displayName} description={`Signed in as ${viewer.displayName} · ${viewer.email}`} />
      <AdminAttention />
    </>
  );
}
