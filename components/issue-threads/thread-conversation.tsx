"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/controls";
import { ErrorState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useFormat } from "@/components/ui/format";
import type { IssueThreadView } from "@/server/trpc/routers/admin-issues.presenters";

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
  replyError: unknown;
}) {
  const format = useFormat();
  const [body, setBody] = useState("");
  const id = useId();
  const errors = fieldErrors(replyError, "body");
  const bubble = (side: "admin" | "pharmacy") =>
    side === viewerSide ? "ml-auto border-brand-200 bg-brand-50" : "mr-auto border-slate-200 bg-white";
  return (
    <div className="space-y-3">
      <ol className="space-y-3" aria-label="Messages">
        <li className={`max-w-2xl rounded-lg border p-3 ${bubble("pharmacy")}`}>
          <p className="text-xs text-slate-500">
            {thread.openedBy} · pharmacy · {format.dateTime(thread.createdAt)} · opened the thread
          </p>
          <p className="mt-1 whitespace-pre-wrap text-sm text-slate-900">{thread.description}</p>
        </li>
        {thread.messages.map((m) => (
          <li key={m.uid} className={`max-w-2xl rounded-lg border p-3 ${bubble(m.side)}`}>
            <p className="text-xs text-slate-500">
              {m.author} · {m.side === "admin" ? "admin team" : "pharmacy"} · {format.dateTime(m.createdAt)}
            </p>
            <p className="mt-1 whitespace-pre-wrap text-sm text-slate-900">{m.body}</p>
          </li>
        ))}
        {thread.status === "resolved" ? (
          <li className="max-w-2xl rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            Resolved by {thread.resolvedBy ?? "an admin"} · {format.dateTime(thread.resolvedAt)}
            {thread.resolutionNote ? <p className="mt-1 whitespace-pre-wrap">{thread.resolutionNote}</p> : null}
          </li>
        ) : null}
      </ol>
      {thread.status === "open" ? (
        <form
          className="space-y-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await onReply(body)) setBody("");
          }}
        >
          <label htmlFor={id} className="block text-sm font-medium text-slate-700">
            Reply
          </label>
          <textarea
            id={id}
            value={body}
            rows={3}
            maxLength={5000}
            onChange={(e) => setBody(e.target.value)}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={errors?.length ? `${id}-errors` : undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
          {errors?.length ? (
            <p id={`${id}-errors`} className="text-xs text-red-700">
              {errors.join(" ")}
            </p>
          ) : null}
          <Button type="submit" tone="secondary" disabled={replying}>
            Send reply
          </Button>
          {replyError && !errors ? <ErrorState message={errorMessage(replyError)} /> : null}
        </form>
      ) : null}
    </div>
  );
}
