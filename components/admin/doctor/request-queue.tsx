"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { StatusBadge } from "@/components/ui/status-badge";
import { useDay, useWaitedFor } from "./format";

/** New requests arrive while the doctor works: the queue is read again every half minute. */
const QUEUE_REFRESH_MS = 30_000;

type Request = {
  uid: string;
  patient: { name: string; dateOfBirth: string | null };
  items: { quantity: number; sku: string }[];
  withAnamnesis: boolean;
  order: { name: string } | null;
  status: string;
  assignedToMe: boolean;
  createdAt: number;
};

/** The prescription requests waiting for a doctor that this doctor may take, oldest first; each links to its page. */
export function DoctorRequestQueue() {
  const t = useTranslations("doctor.queue");
  const format = useFormat();
  const day = useDay();
  const waitedFor = useWaitedFor();
  const trpc = useTRPC();
  const queue = useQuery(trpc.doctor.requests.queue.queryOptions(undefined, { refetchInterval: QUEUE_REFRESH_MS }));
  const now = Date.now();
  const columns: Column<Request>[] = [
    {
      header: t("patient"),
      key: true,
      cell: (request) => (
        <>
          <Link prefetch={false} href={`/admin/doctor/requests/${request.uid}`} className="font-medium text-brand-800 hover:underline">
            {request.patient.name}
          </Link>
          <div className="text-xs font-normal text-slate-500">
            {request.patient.dateOfBirth ? t("born", { day: day(request.patient.dateOfBirth) }) : t("birthUnknown")}
          </div>
        </>
      ),
    },
    {
      header: t("items"),
      className: "text-slate-800",
      cell: (request) => (
        <>
          <ul>
            {request.items.map((item, index) => (
              <li key={index}>{t("item", { quantity: item.quantity, sku: item.sku })}</li>
            ))}
          </ul>
          {request.withAnamnesis ? <span className="text-xs text-slate-500">{t("withAnamnesis")}</span> : null}
        </>
      ),
    },
    { header: t("order"), className: "text-slate-700", cell: (request) => request.order?.name ?? "—" },
    {
      header: t("status"),
      cell: (request) => (
        <>
          <StatusBadge kind="prescription" status={request.status} />
          {request.assignedToMe ? <div className="mt-1 text-xs text-slate-500">{t("assignedToYou")}</div> : null}
        </>
      ),
    },
    {
      header: t("waitingSince"),
      className: "md:whitespace-nowrap text-slate-700",
      cell: (request) => (
        <>
          {format.dateTime(request.createdAt)}
          <div className="text-xs text-slate-500">{waitedFor(request.createdAt, now)}</div>
        </>
      ),
    },
  ];
  return (
    <QueryView
      query={queue}
      loadingLabel={t("loading")}
      isEmpty={(data) => data.items.length === 0}
      empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
    >
      {({ items, total }) => (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            {total > items.length ? t("summaryCapped", { total, shown: items.length }) : t("summary", { total })}
          </p>
          <DataTable label={t("label")} columns={columns} rows={items as Request[]} rowKey={(request) => request.uid} rowClassName={() => "align-top"} />
        </div>
      )}
    </QueryView>
  );
}
