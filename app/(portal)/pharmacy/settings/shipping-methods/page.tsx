import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { ShippingMethodsPage } from "@/components/pharmacy/shipping-methods/shipping-method-mappings";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("shippingMethods.meta") };
}

export default async function PharmacyShippingMethodsPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("shippingMethods.title")} />
      <ShippingMethodsPage />
    </>
  );
}
