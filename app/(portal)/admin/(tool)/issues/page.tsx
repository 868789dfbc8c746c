import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { IssueList } from "@/components/admin/issues/issue-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.issues"))("list.meta") };
}

export default async function AdminIssuesPage() {
  const t = await getTranslations("admin.issues");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} />
      <IssueList />
    </>
  );
}
