import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { AuditLog } from "@/components/admin/audit/audit-log";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.audit"))("metaTitle") };
}

export default async function AdminAuditLogPage() {
  const t = await getTranslations("admin.audit");
  return (
    <>
      <PageHeader title={t("title")} />
      <p className="mb-4 text-sm text-slate-600">{t("intro")}</p>
      <AuditLog />
    </>
  );
}
