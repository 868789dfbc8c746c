import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { QuestionnaireList } from "@/components/admin/questionnaires/questionnaire-list";

export const metadata: Metadata = { title: "Questionnaires · Admin tool" };

export default function AdminQuestionnairesPage() {
  return (
    <>
      <PageHeader title="Questionnaires" />
      <QuestionnaireList />
    </>
  );
}
