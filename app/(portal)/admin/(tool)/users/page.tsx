import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { Users } from "@/components/admin/people/users";

export const metadata: Metadata = { title: "Users · Admin tool" };

export default function AdminUsersPage() {
  return (
    <>
      <PageHeader title="Users" />
      <Users />
    </>
  );
}
