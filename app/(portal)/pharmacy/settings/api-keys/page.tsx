import type { Metadata } from "next";
import { ApiKeysSettings } from "@/components/pharmacy/api-keys/api-keys-settings";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";

export const metadata: Metadata = { title: "API keys · Pharmacy portal" };

export default function ApiKeysPage() {
  return (
    <PharmacyPage path="/pharmacy/settings/api-keys" title="API keys">
      <ApiKeysSettings />
    </PharmacyPage>
  );
}
