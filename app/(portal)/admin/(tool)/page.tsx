import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AdminAttention } from "@/components/admin/home/attention";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { requirePortalViewer } from "@/server/auth/portal-session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("shell"))("portals.ADMIN") };
}

/** The organisation's name heads the admin home. */
export default async function AdminHomePage() {
  const viewer = await requirePortalViewer("ADMIN");
  const t = await getTranslations("admin.home");
  return (
    <>
      <PageHeader title={viewer.organisation.displayName} description={t("signedInAs", { name: viewer.displayName, email: viewer.email })} />
      <WithData queries={[serverTrpc.admin.home.summary.queryOptions()]}>
        <AdminAttention />
      </WithData>
    </>
  );
}
