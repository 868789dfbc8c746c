import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { PharmacyDetail } from "@/components/admin/pharmacies/pharmacy-detail";

export const metadata: Metadata = { title: "Pharmacy · Admin tool" };

export default async function AdminPharmacyPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Pharmacy" />
      <PharmacyDetail pharmacyUid={uid} />
    </>
  );
}
