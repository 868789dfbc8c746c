import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Outbox } from "@/components/admin/mail/outbox";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.mail"))("metaTitle") };
}

export default async function AdminEmailPage() {
  const t = await getTranslations("admin.mail");
  return (
    <>
      <PageHeader title={t("title")} />
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
      <Outbox />
    </>
  );
}
