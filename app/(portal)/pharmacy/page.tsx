import type { Metadata } from "next";
import { Fact } from "@/components/portal-shell";
import { AttentionSummary } from "@/components/pharmacy/home/attention-summary";
import { PageHeader } from "@/components/page-header";
import { requirePortalViewer } from "@/server/auth/portal-session";

export const metadata: Metadata = { title: "Pharmacy portal" };

export default async function PharmacyHomePage() {
  const viewer = await requirePortalViewer("PHARMACIST");
  // A pharmacist works for one pharmacy or for a pharmacy group.
  const placeLabel = viewer.pharmacy ? "Pharmacy" : viewer.pharmacyGroup ? "Pharmacy group" : "Pharmacy";
  const placeName = viewer.pharmacy?.displayName ?? viewer.pharmacyGroup?.displayName ?? "No pharmacy assigned";
  return (
    <>
      <PageHeader title={placeName} description={`Pharmacy portal of ${viewer.organisation.displayName}`} />
      <AttentionSummary />
      <dl className="mt-8 grid gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-4">
        <Fact label="Signed in as" value={viewer.displayName} />
        <Fact label="Email" value={viewer.email} />
        <Fact label={placeLabel} value={placeName} />
        <Fact label="Organisation" value={viewer.organisation.displayName} />
      </dl>
    </>
  );
}
