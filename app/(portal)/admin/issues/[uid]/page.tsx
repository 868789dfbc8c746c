import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { IssueThread } from "@/components/admin/issues/issue-thread";

export const metadata: Metadata = { title: "Issue thread · Admin tool" };

export default async function AdminIssueThreadPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/issues/${encodeURIComponent(uid)}`} title="Issue thread">
      <IssueThread uid={uid} />
    </AdminPage>
  );
}
