import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { IssueThread } from "@/components/admin/issues/issue-thread";

export const metadata: Metadata = { title: "Issue thread · Admin tool" };

export default async function AdminIssueThreadPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Issue thread" />
      <IssueThread uid={uid} />
    </>
  );
}
