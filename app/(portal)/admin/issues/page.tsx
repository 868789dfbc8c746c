import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { IssueList } from "@/components/admin/issues/issue-list";

export const metadata: Metadata = { title: "Issue threads · Admin tool" };

export default function AdminIssuesPage() {
  return (
    <AdminPage path="/admin/issues" title="Issue threads">
      <IssueList />
    </AdminPage>
  );
}
