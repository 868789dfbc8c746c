import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { Pharmacies } from "@/components/admin/pharmacies/pharmacies";

export const metadata: Metadata = { title: "Pharmacies · Admin tool" };

export default function AdminPharmaciesPage() {
  return (
    <>
      <PageHeader title="Pharmacies" />
      <Pharmacies />
    </>
  );
}
