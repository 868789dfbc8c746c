import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { QuestionnaireList } from "@/components/admin/questionnaires/questionnaire-list";

export const metadata: Metadata = { title: "Questionnaires · Admin tool" };

export default function AdminQuestionnairesPage() {
  return (
    <AdminPage path="/admin/questionnaires" title="Questionnaires">
      <QuestionnaireList />
    </AdminPage>
  );
}
