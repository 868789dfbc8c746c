import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { Users } from "@/components/admin/people/users";

export const metadata: Metadata = { title: "Users · Admin tool" };

export default function AdminUsersPage() {
  return (
    <AdminPage path="/admin/users" title="Users">
      <Users />
    </AdminPage>
  );
}
