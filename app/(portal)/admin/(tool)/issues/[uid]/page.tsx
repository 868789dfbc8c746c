import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { IssueThread } from "@/components/admin/issues/issue-thread";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.issues"))("thread.meta") };
}

export default async function AdminIssueThreadPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.issues");
  return (
    <>
      <PageHeader title={t("thread.pageTitle")} />
      <IssueThread uid={uid} />
    </>
  );
}
