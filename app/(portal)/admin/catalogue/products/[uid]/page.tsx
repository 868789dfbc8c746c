import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { ProductDetail } from "@/components/admin/catalogue/product-detail";

export const metadata: Metadata = { title: "Product · Admin tool" };

export default async function AdminProductPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/catalogue/products/${encodeURIComponent(uid)}`} title="Product">
      <ProductDetail uid={uid} />
    </AdminPage>
  );
}
