import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { IssueList } from "@/components/admin/issues/issue-list";

export const metadata: Metadata = { title: "Issue threads · Admin tool" };

export default function AdminIssuesPage() {
  return (
    <>
      <PageHeader title="Issue threads" />
      <IssueList />
    </>
  );
}
