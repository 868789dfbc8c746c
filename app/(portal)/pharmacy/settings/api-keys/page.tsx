import type { Metadata } from "next";
import { ApiKeysSettings } from "@/components/pharmacy/api-keys/api-keys-settings";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "API keys · Pharmacy portal" };

export default function ApiKeysPage() {
  return (
    <>
      <PageHeader title="API keys" />
      <ApiKeysSettings />
    </>
  );
}
