import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { QuestionnaireEditor } from "@/components/admin/questionnaires/questionnaire-editor";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.questionnaires"))("editorMetaTitle") };
}

export default async function AdminQuestionnaireEditorPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.questionnaires");
  return (
    <>
      <PageHeader title={t("editorTitle")} />
      <QuestionnaireEditor questionnaireUid={uid} />
    </>
  );
}
