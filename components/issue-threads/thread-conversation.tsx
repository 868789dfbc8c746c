"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Field, FormError, SubmitButton, showServerErrors, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import type { IssueThreadView } from "@/server/trpc/routers/admin-issues.presenters";
import { replyInput } from "@/server/trpc/routers/admin-issues.schemas";

const replyForm = replyInput.pick({ body: true });

/** The text area of a kit form (the Field gives it its id and aria attributes). */
export const textareaClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-400";

/** An issue thread as both portals show it: the message that opened it, the replies of both sides, and a reply form while it is open. */
export function ThreadConversation({
  thread,
  viewerSide,
  onReply,
  replying,
  replyError,
}: {
  thread: IssueThreadView;
  /** Whose page this is: their own messages are shown on the right. */
  viewerSide: "admin" | "pharmacy";
  /** Sends a reply; resolves true when it was saved (the form then empties). */
  onReply: (body: string) => Promise<boolean>;
  replying: boolean;
  /** The last refusal of a reply: its field error goes under the box. */
  replyError: unknown;
}) {
  const t = useTranslations("issueThreads");
  const format = useFormat();
  const form = useZodForm(replyForm, { body: "" });
  useEffect(() => {
    if (replyError) showServerErrors(form, replyError);
  }, [replyError, form]);
  const bubble = (side: "admin" | "pharmacy") => (side === viewerSide ? "ml-auto border-brand-200 bg-brand-50" : "mr-auto border-slate-200 bg-white");
  const submit = form.handleSubmit(async ({ body }) => {
    if (await onReply(body)) form.reset({ body: "" });
  });
  return (
    <div className="space-y-3">
      <ol className="space-y-3" aria-label={t("messages")}>
        <li className={`max-w-2xl rounded-lg border p-3 ${bubble(thread.openedBySide)}`}>
          <p className="text-xs break-words text-slate-600">
            {t(thread.openedBySide === "admin" ? "openedByAdmin" : "opened", { author: thread.openedBy, date: format.dateTime(thread.createdAt) })}
          </p>
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">{thread.description}</p>
        </li>
        {thread.messages.map((m) => (
          <li key={m.uid} className={`max-w-2xl rounded-lg border p-3 ${bubble(m.side)}`}>
            <p className="text-xs break-words text-slate-600">
              {t(m.side === "admin" ? "byAdmin" : "byPharmacy", { author: m.author, date: format.dateTime(m.createdAt) })}
            </p>
            <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">{m.body}</p>
          </li>
        ))}
        {thread.status === "resolved" ? (
          <li className="max-w-2xl rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            {t("resolved", { by: thread.resolvedBy ?? t("anAdmin"), date: format.dateTime(thread.resolvedAt) })}
            {thread.resolutionNote ? <p className="mt-1 break-words whitespace-pre-wrap">{thread.resolutionNote}</p> : null}
          </li>
        ) : null}
      </ol>
      {thread.status === "open" ? (
        <form className="space-y-2" noValidate onSubmit={submit}>
          <Field form={form} name="body" label={t("reply")}>
            {(control) => <textarea {...control} {...form.register("body")} rows={3} maxLength={5000} className={textareaClass} />}
          </Field>
          <SubmitButton form={form} tone="secondary" disabled={replying || form.formState.isSubmitting}>
            {t("send")}
          </SubmitButton>
          <FormError form={form} />
        </form>
      ) : null}
    </div>
  );
}
