import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Fact } from "@/components/portal-shell";
import { AttentionSummary } from "@/components/pharmacy/home/attention-summary";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { requirePortalViewer } from "@/server/auth/portal-session";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages.home");
  return { title: t("meta") };
}

export default async function PharmacyHomePage() {
  const t = await getTranslations("pharmacy.pages.home");
  const viewer = await requirePortalViewer("PHARMACIST");
  // A pharmacist works for one pharmacy or for a pharmacy group.
  const placeLabel = viewer.pharmacyGroup && !viewer.pharmacy ? t("group") : t("pharmacy");
  const placeName = viewer.pharmacy?.displayName ?? viewer.pharmacyGroup?.displayName ?? t("noPharmacy");
  return (
    <>
      <PageHeader title={placeName} description={t("description", { organisation: viewer.organisation.displayName })} />
      <WithData queries={[serverTrpc.pharmacy.home.summary.queryOptions()]}>
        <AttentionSummary />
      </WithData>
      <dl className="mt-8 grid gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
        <Fact label={t("signedInAs")} value={viewer.displayName} />
        <Fact label={t("email")} value={viewer.email} />
        <Fact label={placeLabel} value={placeName} />
        <Fact label={t("organisation")} value={viewer.organisation.displayName} />
      </dl>
    </>
  );
}
