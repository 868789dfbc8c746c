"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { ThreadConversation } from "@/components/issue-threads/thread-conversation";
import { Button } from "@/components/ui/controls";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { IssueThreadView } from "@/server/trpc/routers/admin-issues.presenters";
import { resolutionText } from "./resolution";
import { useStatusLabel } from "@/components/ui/status";

const isNotFound = (error: unknown) => error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND";

/** One issue thread: the order, the pharmacy's message, the replies of both sides, the admin's reply and resolving. */
export function IssueThread({ uid }: { uid: string }) {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const thread = useQuery(trpc.admin.issues.get.queryOptions({ uid }, { refetchInterval: 15_000, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const reply = useMutation(trpc.admin.issues.reply.mutationOptions());
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.issues.pathKey() });

  if (thread.isPending) return <LoadingState label="Loading the thread…" />;
  if (thread.isError) {
    if (isNotFound(thread.error)) {
      return (
        <div className="space-y-4">
          <ErrorState message="Thread not found: it does not exist, or it is not one of your organisation's." />
          <Link href="/admin/issues" className="text-sm font-medium text-brand-700 hover:underline">
            Back to the issue threads
          </Link>
        </div>
      );
    }
    return <ErrorState message={errorMessage(thread.error)} onRetry={() => void thread.refetch()} />;
  }
  const t = thread.data;
  return (
    <div className="space-y-6">
      <Link href="/admin/issues" className="text-sm font-medium text-brand-700 hover:underline">
        ← Issue threads
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div>
          <h2 className="text-xl font-semibold text-slate-900">
            Pharmacy order{" "}
            <Link href={`/admin/orders/${t.pharmacyOrder.orderUid}`} className="text-brand-700 hover:underline">
              {t.pharmacyOrder.name}
            </Link>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {t.pharmacy.displayName} · opened {format.dateTime(t.createdAt)} by {t.openedBy}
          </p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <StatusBadge kind="thread" status={t.status} />
          <StatusBadge kind="pharmacyOrder" status={t.pharmacyOrder.status} />
        </div>
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <section className="rounded-xl border border-slate-200 bg-slate-50 p-5 shadow-sm lg:col-span-2" aria-labelledby="conversation-heading">
          <h3 id="conversation-heading" className="mb-3 text-sm font-semibold text-slate-900">
            Conversation with the pharmacy
          </h3>
          <ThreadConversation
            thread={t}
            viewerSide="admin"
            replying={reply.isPending}
            replyError={reply.error}
            onReply={async (body) => {
              try {
                await reply.mutateAsync({ uid, body });
                return true;
              } catch {
                return false;
              } finally {
                await refresh();
              }
            }}
          />
        </section>
        {t.status === "open" ? <ResolveForm thread={t} onDone={async (n) => (setNotice(n), await refresh())} /> : null}
      </div>
    </div>
  );
}

function ResolveForm({ thread, onDone }: { thread: IssueThreadView; onDone: (notice: { tone: "success" | "warning"; text: string }) => Promise<void> }) {
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const noteId = useId();
  const [note, setNote] = useState("");
  const [releaseOrder, setReleaseOrder] = useState(true);
  const resolve = useMutation(trpc.admin.issues.resolve.mutationOptions({ onSuccess: (outcome) => onDone(resolutionText(outcome, thread.pharmacyOrder.name, statusLabel)) }));
  const noteErrors = fieldErrors(resolve.error, "note");
  return (
    <section className="h-fit rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="resolve-heading">
      <h3 id="resolve-heading" className="mb-3 text-sm font-semibold text-slate-900">
        Resolve
      </h3>
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          resolve.mutate({ uid: thread.uid, note: note.trim() || null, releaseOrder });
        }}
      >
        <div>
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700">
            Resolution note (optional)
          </label>
          <textarea
            id={noteId}
            value={note}
            rows={3}
            maxLength={5000}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={noteErrors?.length ? true : undefined}
            aria-describedby={noteErrors?.length ? `${noteId}-errors` : undefined}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
          {noteErrors?.length ? (
            <p id={`${noteId}-errors`} className="mt-1 text-xs text-red-700">
              {noteErrors.join(" ")}
            </p>
          ) : null}
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={releaseOrder} onChange={(e) => setReleaseOrder(e.target.checked)} className="mt-0.5 size-4 rounded border-slate-300" />
          <span>
            Return the order to its status before the hold
            <span className="block text-xs text-slate-500">Unless another thread of it is still open. Unticked, it stays on hold for the pharmacy to move on.</span>
          </span>
        </label>
        <Button type="submit" disabled={resolve.isPending}>
          Resolve
        </Button>
        {resolve.isError && !noteErrors ? <ErrorState message={errorMessage(resolve.error)} /> : null}
      </form>
    </section>
  );
}
