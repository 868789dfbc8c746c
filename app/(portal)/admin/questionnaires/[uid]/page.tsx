import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { QuestionnaireEditor } from "@/components/admin/questionnaires/questionnaire-editor";

export const metadata: Metadata = { title: "Questionnaire editor · Admin tool" };

export default async function AdminQuestionnaireEditorPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/questionnaires/${encodeURIComponent(uid)}`} title="Questionnaire editor">
      <QuestionnaireEditor questionnaireUid={uid} />
    </AdminPage>
  );
}
