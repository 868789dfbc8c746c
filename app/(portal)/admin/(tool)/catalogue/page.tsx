import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { Catalogue } from "@/components/admin/catalogue/catalogue";

export const metadata: Metadata = { title: "Products and SKUs · Admin tool" };

export default function AdminCataloguePage() {
  return (
    <>
      <PageHeader title="Products and SKUs" />
      <Catalogue />
    </>
  );
}
