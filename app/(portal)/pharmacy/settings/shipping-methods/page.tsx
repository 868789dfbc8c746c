import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { ShippingMethodsPage } from "@/components/pharmacy/shipping-methods/shipping-method-mappings";

export const metadata: Metadata = { title: "Shipping methods · Pharmacy portal" };

export default function PharmacyShippingMethodsPage() {
  return (
    <>
      <PageHeader title="Shipping methods" />
      <ShippingMethodsPage />
    </>
  );
}
