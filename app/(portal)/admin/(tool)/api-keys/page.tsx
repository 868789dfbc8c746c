import type { Metadata } from "next";
import { AdminApiKeys } from "@/components/admin/api-keys";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "API keys · Admin tool" };

export default function AdminApiKeysPage() {
  return (
    <>
      <PageHeader title="API keys" />
      <AdminApiKeys />
    </>
  );
}
