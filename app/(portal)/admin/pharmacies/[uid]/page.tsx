import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { PharmacyDetail } from "@/components/admin/pharmacies/pharmacy-detail";

export const metadata: Metadata = { title: "Pharmacy · Admin tool" };

export default async function AdminPharmacyPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/pharmacies/${encodeURIComponent(uid)}`} title="Pharmacy">
      <PharmacyDetail pharmacyUid={uid} />
    </AdminPage>
  );
}
