"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { Pager } from "@/components/ui/pager";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { resolutionText } from "./resolution";
import { useStatusLabel } from "@/components/ui/status";

const PAGE_SIZE = 50;

/** The organisation's issue threads, open ones first: each with its pharmacy order, the pharmacy's message, and "Resolve". */
export function IssueList() {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"open" | "resolved">("open");
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);
  const list = useQuery(trpc.admin.issues.list.queryOptions({ status, page, limit: PAGE_SIZE }, { refetchInterval: 30_000, placeholderData: keepPreviousData }));
  const resolve = useMutation(
    trpc.admin.issues.resolve.mutationOptions({
      onSuccess: (outcome, input) => {
        const row = list.data?.items.find((i) => i.uid === input.uid);
        setNotice(resolutionText(outcome, row?.pharmacyOrder.name ?? "the order", statusLabel));
      },
      onError: (error) => setNotice({ tone: "warning", text: errorMessage(error) }),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.issues.pathKey() }),
    }),
  );
  const show = (next: "open" | "resolved") => {
    setStatus(next);
    setPage(0);
  };

  return (
    <div className="space-y-4">
      <div className="flex gap-2" role="group" aria-label="Show threads">
        {(["open", "resolved"] as const).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            onClick={() => show(s)}
            className={`rounded-full border px-3 py-1 text-sm ${status === s ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
          >
            {s === "open" ? "Open" : "Resolved"}
          </button>
        ))}
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {list.isPending ? <LoadingState label="Loading issue threads…" /> : null}
      {list.isError ? <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.items.length === 0 ? (
        <EmptyState title={status === "open" ? "No open issue threads." : "No resolved issue threads yet."}>
          {status === "open" ? "Pharmacies open one by putting an order on hold with a comment, or with a clarification request." : null}
        </EmptyState>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2">Pharmacy order</th>
                <th scope="col" className="px-3 py-2">Comment</th>
                <th scope="col" className="px-3 py-2">Pharmacy</th>
                <th scope="col" className="px-3 py-2">Opened</th>
                <th scope="col" className="px-3 py-2 text-right">Replies</th>
                <th scope="col" className="px-3 py-2">{status === "open" ? <span className="sr-only">Actions</span> : "Resolved"}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.items.map((thread) => (
                <tr key={thread.uid} className="align-top hover:bg-slate-50">
                  <td className="whitespace-nowrap px-3 py-2">
                    <Link href={`/admin/orders/${thread.pharmacyOrder.orderUid}`} className="font-medium text-brand-700 hover:underline">
                      {thread.pharmacyOrder.name}
                    </Link>
                    <div className="mt-1">
                      <StatusBadge kind="pharmacyOrder" status={thread.pharmacyOrder.status} />
                    </div>
                  </td>
                  <td className="max-w-md px-3 py-2">
                    <p className="line-clamp-3 whitespace-pre-wrap text-slate-900">{thread.description}</p>
                    <Link href={`/admin/issues/${thread.uid}`} className="text-xs font-medium text-brand-700 hover:underline">
                      Open thread →
                    </Link>
                  </td>
                  <td className="px-3 py-2 text-slate-700">{thread.pharmacy.displayName}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-600">
                    {format.dateTime(thread.createdAt)}
                    <div className="text-xs text-slate-500">by {thread.openedBy}</div>
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{thread.messageCount}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {thread.status === "open" ? (
                      <Button
                        title="Resolves the thread and returns the order to its status before the hold"
                        disabled={resolve.isPending && resolve.variables?.uid === thread.uid}
                        onClick={() => resolve.mutate({ uid: thread.uid, releaseOrder: true })}
                      >
                        Resolve
                      </Button>
                    ) : (
                      <span className="text-slate-600">
                        {format.dateTime(thread.resolvedAt)}
                        <span className="block text-xs text-slate-500">by {thread.resolvedBy ?? "—"}</span>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} totalPages={list.data.totalPages} total={list.data.total} noun={["thread", "threads"]} onPage={setPage} className="border-t border-slate-200 px-4 py-3" />
        </div>
      ) : null}
    </div>
  );
}
