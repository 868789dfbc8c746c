import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { ProductDetail } from "@/components/admin/catalogue/product-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.catalogue"))("product.meta") };
}

export default async function AdminProductPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.catalogue");
  return (
    <>
      <PageHeader title={t("product.pageTitle")} />
      <ProductDetail uid={uid} />
    </>
  );
}
