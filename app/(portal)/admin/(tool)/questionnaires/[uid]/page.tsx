import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { QuestionnaireEditor } from "@/components/admin/questionnaires/questionnaire-editor";

export const metadata: Metadata = { title: "Questionnaire editor · Admin tool" };

export default async function AdminQuestionnaireEditorPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Questionnaire editor" />
      <QuestionnaireEditor questionnaireUid={uid} />
    </>
  );
}
