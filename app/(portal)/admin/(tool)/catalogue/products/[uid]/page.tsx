import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { ProductDetail } from "@/components/admin/catalogue/product-detail";

export const metadata: Metadata = { title: "Product · Admin tool" };

export default async function AdminProductPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Product" />
      <ProductDetail uid={uid} />
    </>
  );
}
