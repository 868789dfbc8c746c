import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Users } from "@/components/admin/people/users";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.people"))("metaTitle") };
}

export default async function AdminUsersPage() {
  const t = await getTranslations("admin.people");
  return (
    <>
      <PageHeader title={t("title")} />
      <Users />
    </>
  );
}
