import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { DoctorRequestQueue } from "@/components/admin/doctor/request-queue";
import { RequestNotices } from "@/components/admin/doctor/request-notices";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("requests.metaTitle") };
}

export default async function DoctorRequestsPage() {
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("requests.title")} />
      <WithData queries={[serverTrpc.doctor.requests.queue.queryOptions(), serverTrpc.doctor.notices.get.queryOptions()]}>
        <DoctorRequestQueue />
        <RequestNotices />
      </WithData>
    </>
  );
}
