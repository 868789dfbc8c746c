import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { Shops } from "@/components/admin/pharmacies/shops";

export const metadata: Metadata = { title: "Shops · Admin tool" };

export default function AdminShopsPage() {
  return (
    <>
      <PageHeader title="Shops" />
      <Shops />
    </>
  );
}
