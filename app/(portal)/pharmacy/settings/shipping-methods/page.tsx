import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { ShippingMethodsPage } from "@/components/pharmacy/shipping-methods/shipping-method-mappings";

export const metadata: Metadata = { title: "Shipping methods · Pharmacy portal" };

export default function PharmacyShippingMethodsPage() {
  return (
    <PharmacyPage path="/pharmacy/settings/shipping-methods" title="Shipping methods">
      <ShippingMethodsPage />
    </PharmacyPage>
  );
}
