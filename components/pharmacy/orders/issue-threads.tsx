"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { useFormat } from "@/components/ui/format";
import { ThreadConversation } from "@/components/issue-threads/thread-conversation";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

const opensByItself = (thread: { messageCount: number; openedBySide: "admin" | "pharmacy" }) => thread.messageCount > 0 || thread.openedBySide === "admin";

/**
 * The order's issue threads with the admin team (on-hold comments, clarification requests): read
 * them and reply. A thread with replies, or opened by the admin team's question, opens by itself;
 * one holding only the pharmacy's own comment (which the history already shows) opens on request.
 */
export function IssueThreads({ pharmacyOrderUid }: { pharmacyOrderUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("pharmacy.order.threadList");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const threads = useQuery(trpc.pharmacy.issueThreads.listForOrder.queryOptions({ pharmacyOrderUid }, { refetchInterval: 15_000 }));
  const reply = useMutation(trpc.pharmacy.issueThreads.reply.mutationOptions());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  if (threads.isPending) return <LoadingState label={t("loading")} />;
  if (threads.isError) return <ErrorState message={errorMessage(threads.error)} onRetry={() => void threads.refetch()} />;
  if (threads.data.length === 0) return <p className="text-sm text-slate-500">{t("none")}</p>;
  return (
    <div className="space-y-6">
      {threads.data.map((thread) => (
        <div key={thread.uid} className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">
              {t("summary", { status: thread.status, opened: format.dateTime(thread.createdAt), by: thread.openedBy, replies: thread.messageCount })}
            </p>
            {!opensByItself(thread) ? (
              <Button
                tone="secondary"
                aria-expanded={expanded.has(thread.uid)}
                onClick={() => setExpanded((all) => new Set(all.has(thread.uid) ? [...all].filter((u) => u !== thread.uid) : [...all, thread.uid]))}
              >
                {expanded.has(thread.uid) ? t("hide") : t("show")}
              </Button>
            ) : null}
          </div>
          {opensByItself(thread) || expanded.has(thread.uid) ? <ThreadConversation
            thread={thread}
            viewerSide="pharmacy"
            replying={reply.isPending && reply.variables?.uid === thread.uid}
            replyError={reply.variables?.uid === thread.uid ? reply.error : null}
            onReply={async (body) => {
              try {
                await reply.mutateAsync({ uid: thread.uid, body });
                return true;
              } catch {
                return false;
              } finally {
                await queryClient.invalidateQueries({ queryKey: trpc.pharmacy.issueThreads.pathKey() });
              }
            }}
          /> : null}
        </div>
      ))}
    </div>
  );
}
