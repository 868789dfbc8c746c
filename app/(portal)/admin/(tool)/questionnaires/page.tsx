import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { QuestionnaireList } from "@/components/admin/questionnaires/questionnaire-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.questionnaires"))("metaTitle") };
}

export default async function AdminQuestionnairesPage() {
  const t = await getTranslations("admin.questionnaires");
  return (
    <>
      <PageHeader title={t("title")} />
      <QuestionnaireList />
    </>
  );
}
