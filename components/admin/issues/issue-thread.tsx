"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ThreadConversation, textareaClass } from "@/components/issue-threads/thread-conversation";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { LoadingState, Notice } from "@/components/ui/states";
import { isNotFound } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { IssueThreadView } from "@/server/trpc/routers/admin-issues.presenters";
import { resolveInput } from "@/server/trpc/routers/admin-issues.schemas";
import { useResolutionText } from "./resolution";

type Notice = { tone: "success" | "warning"; text: string };

/** One issue thread: the order, the pharmacy's message, the replies of both sides, the admin's reply and resolving. */
export function IssueThread({ uid }: { uid: string }) {
  const t = useTranslations("admin.issues.thread");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const thread = useQuery(trpc.admin.issues.get.queryOptions({ uid }, { refetchInterval: 15_000, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const reply = useMutation(trpc.admin.issues.reply.mutationOptions());
  const [notice, setNotice] = useState<Notice | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.issues.pathKey() });

  if (thread.isPending) return <LoadingState label={t("loading")} />;
  if (thread.isError) {
    return <RecordLoadError error={thread.error} notFound={t("notFound")} back={{ href: "/admin/issues", label: t("back") }} onRetry={() => void thread.refetch()} />;
  }
  const th = thread.data;
  return (
    <div className="min-w-0 space-y-6">
      <Link prefetch={false} href="/admin/issues" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t("threads")}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold break-words text-slate-900">
            {t.rich("heading", {
              name: th.pharmacyOrder.name,
              link: (chunks) => (
                <Link prefetch={false} href={`/admin/orders/${th.pharmacyOrder.orderUid}`} className="text-brand-700 hover:underline">
                  {chunks}
                </Link>
              ),
            })}
          </h2>
          <p className="mt-1 text-sm break-words text-slate-600">{t("opened", { pharmacy: th.pharmacy.displayName, date: format.dateTime(th.createdAt), by: th.openedBy })}</p>
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <StatusBadge kind="thread" status={th.status} />
          <StatusBadge kind="pharmacyOrder" status={th.pharmacyOrder.status} />
        </div>
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <section className="min-w-0 rounded-xl border border-slate-200 bg-slate-50 p-4 shadow-sm sm:p-5 lg:col-span-2" aria-labelledby="conversation-heading">
          <h3 id="conversation-heading" className="mb-3 text-sm font-semibold text-slate-900">
            {t("conversation")}
          </h3>
          <ThreadConversation
            thread={th}
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
        {th.status === "open" ? (
          <ResolveForm
            thread={th}
            onDone={async (n) => {
              setNotice(n);
              await refresh();
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

const resolveForm = resolveInput.pick({ note: true, releaseOrder: true });

function ResolveForm({ thread, onDone }: { thread: IssueThreadView; onDone: (notice: Notice) => Promise<void> }) {
  const t = useTranslations("admin.issues.thread");
  const resolutionText = useResolutionText();
  const trpc = useTRPC();
  const form = useZodForm(resolveForm, { note: "", releaseOrder: true });
  const resolve = useMutation(trpc.admin.issues.resolve.mutationOptions());
  const submit = submitWith(
    form,
    ({ note, releaseOrder }) => resolve.mutateAsync({ uid: thread.uid, note: note?.trim() || null, releaseOrder }),
    (outcome) => onDone(resolutionText(outcome, thread.pharmacyOrder.name)),
  );
  return (
    <section className="h-fit rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="resolve-heading">
      <h3 id="resolve-heading" className="mb-3 text-sm font-semibold text-slate-900">
        {t("resolve")}
      </h3>
      <form className="space-y-3" noValidate onSubmit={submit}>
        <Field form={form} name="note" label={t("note")}>
          {(control) => <textarea {...control} {...form.register("note")} rows={3} maxLength={5000} className={textareaClass} />}
        </Field>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" {...form.register("releaseOrder")} className="mt-0.5 size-4 rounded border-slate-300" />
          <span>
            {t("releaseOrder")}
            <span className="block text-xs text-slate-500">{t("releaseOrderHint")}</span>
          </span>
        </label>
        <SubmitButton form={form}>{t("resolve")}</SubmitButton>
        <FormError form={form} />
      </form>
    </section>
  );
}
