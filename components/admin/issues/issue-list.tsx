"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { pageOfQuery, queryOfPage, useUrlQuery } from "@/components/ui/use-url-state";
import type { AppRouter } from "@/server/trpc/router";
import { useResolutionText } from "./resolution";

const PAGE_SIZE = 50;
type Thread = inferRouterOutputs<AppRouter>["admin"]["issues"]["list"]["items"][number];

/**
 * The organisation's issue threads, open ones first: each with its pharmacy order, the pharmacy's
 * message, and "Resolve". The tab (`status=resolved`) and the page (`page`) live in the URL.
 */
export function IssueList() {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.issues");
  const format = useFormat();
  const resolutionText = useResolutionText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useUrlQuery();
  const status = query.get("status") === "resolved" ? "resolved" : "open";
  const page = pageOfQuery(query.get("page"));
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);
  const list = useQuery(trpc.admin.issues.list.queryOptions({ status, page, limit: PAGE_SIZE }, { refetchInterval: 30_000, placeholderData: keepPreviousData }));
  const resolve = useMutation(
    trpc.admin.issues.resolve.mutationOptions({
      onSuccess: (outcome, input) => {
        const row = list.data?.items.find((i) => i.uid === input.uid);
        setNotice(resolutionText(outcome, row?.pharmacyOrder.name ?? t("theOrder")));
      },
      onError: (error) => setNotice({ tone: "warning", text: errorMessage(error) }),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.issues.pathKey() }),
    }),
  );
  const columns: Column<Thread>[] = [
    {
      header: t("list.pharmacyOrder"),
      key: true,
      className: "md:whitespace-nowrap",
      cell: (thread) => (
        <>
          <Link prefetch={false} href={`/admin/orders/${thread.pharmacyOrder.orderUid}`} className="font-medium text-brand-700 hover:underline">
            {thread.pharmacyOrder.name}
          </Link>
          <div className="mt-1">
            <StatusBadge kind="pharmacyOrder" status={thread.pharmacyOrder.status} />
          </div>
        </>
      ),
    },
    {
      header: t("list.comment"),
      className: "md:max-w-md",
      cell: (thread) => (
        <>
          <p className="line-clamp-3 break-words whitespace-pre-wrap text-slate-900">{thread.description}</p>
          <Link prefetch={false} href={`/admin/issues/${thread.uid}`} className="text-xs font-medium text-brand-700 hover:underline">
            {t("list.openThread")} →
          </Link>
        </>
      ),
    },
    { header: t("list.pharmacy"), cell: (thread) => thread.pharmacy.displayName, className: "text-slate-700" },
    {
      header: t("list.opened"),
      className: "md:whitespace-nowrap text-slate-600",
      cell: (thread) => (
        <>
          {format.dateTime(thread.createdAt)}
          <div className="text-xs text-slate-600">{t("list.by", { name: thread.openedBy })}</div>
        </>
      ),
    },
    { header: t("list.replies"), cell: (thread) => format.number(thread.messageCount), className: "md:text-right tabular-nums" },
    status === "open"
      ? {
          header: t("list.actions"),
          headerHidden: true,
          cell: (thread) => (
            <Button
              title={t("list.resolveTitle")}
              disabled={resolve.isPending && resolve.variables?.uid === thread.uid}
              onClick={() => resolve.mutate({ uid: thread.uid, releaseOrder: true })}
            >
              {t("list.resolve")}
            </Button>
          ),
        }
      : {
          header: t("list.resolved"),
          className: "md:whitespace-nowrap",
          cell: (thread) => (
            <span className="text-slate-600">
              {format.dateTime(thread.resolvedAt)}
              <span className="block text-xs text-slate-600">{t("list.by", { name: thread.resolvedBy ?? "—" })}</span>
            </span>
          ),
        },
  ];

  return (
    <div className="space-y-4">
      <div className="flex gap-2" role="group" aria-label={t("list.show")}>
        {(["open", "resolved"] as const).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            onClick={() => query.set({ status: s === "open" ? undefined : s, page: undefined })}
            className={`rounded-full border px-3 py-1 text-sm ${status === s ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
          >
            {s === "open" ? t("list.open") : t("list.resolved")}
          </button>
        ))}
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <QueryView
        query={list}
        loadingLabel={t("list.loading")}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState title={status === "open" ? t("list.noneOpen") : t("list.noneResolved")}>{status === "open" ? t("list.noneOpenHint") : null}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("list.tableLabel")}
            columns={columns}
            rows={data.items}
            rowKey={(thread) => thread.uid}
            rowClassName={() => "align-top"}
            pager={
              <Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("list.one"), t("list.other")]} onPage={(p) => query.set({ page: queryOfPage(p) })} />
            }
          />
        )}
      </QueryView>
    </div>
  );
}
