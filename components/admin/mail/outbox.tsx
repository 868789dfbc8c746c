"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { SelectField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useStatusLabel } from "@/components/ui/status";
import { StatusBadge } from "@/components/ui/status-badge";
import { pageOfQuery, queryOfPage, useUrlQuery } from "@/components/ui/use-url-state";
import { useTRPC } from "@/components/trpc/react";
import { MAIL_KINDS, MAIL_STATUSES, type MailKind } from "@/server/domain/mail/kinds";
import type { AppRouter } from "@/server/trpc/router";

type Mail = inferRouterOutputs<AppRouter>["admin"]["mail"]["list"]["items"][number];

const PAGE_SIZE = 25;

/** Where the thing a message is about is shown in the admin tool, where there is such a page. */
function subjectLink(mail: Mail): string | null {
  if (!mail.subjectUid) return null;
  if (mail.kind === "invitation" || mail.kind === "password_reset") return "/admin/users";
  return null;
}

/** Settings → E-mail: the organisation's outbox, newest first, its status filter and page in the URL; a failed message can be sent again. */
export function Outbox() {
  const t = useTranslations("admin.mail");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const url = useUrlQuery();
  const status = MAIL_STATUSES.find((s) => s === url.get("status"));
  const page = pageOfQuery(url.get("page"));
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({
    ...trpc.admin.mail.list.queryOptions({ ...(status ? { status } : {}), page, limit: PAGE_SIZE }),
    // Messages on their way change by themselves: keep them current.
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === "pending") ? 5_000 : false),
  });
  const kindLabel = (kind: string) => ((MAIL_KINDS as readonly string[]).includes(kind) ? t(`kinds.${kind as MailKind}`) : kind);

  const columns: Column<Mail>[] = [
    {
      header: t("columns.message"),
      key: true,
      className: "md:min-w-64 md:max-w-md",
      cell: (m) => {
        const href = subjectLink(m);
        return (
          <>
            <p className="wrap-break-word font-medium text-slate-900">{m.subject}</p>
            <p className="text-xs font-normal text-slate-500">
              {href ? (
                <Link prefetch={false} href={href} className="hover:text-brand-700 hover:underline">
                  {kindLabel(m.kind)}
                </Link>
              ) : (
                kindLabel(m.kind)
              )}
            </p>
          </>
        );
      },
    },
    { header: t("columns.recipient"), className: "break-all text-slate-700", cell: (m) => m.recipient },
    {
      header: t("columns.status"),
      cell: (m) => (
        <>
          <StatusBadge kind="mail" status={m.status} />
          <p className="mt-1 text-xs text-slate-500">{t("attempts", { count: m.attempts })}</p>
          {m.lastError ? (
            <p className="mt-1 max-w-xs wrap-break-word text-xs text-red-800">{t(m.status === "failed" ? "failedBecause" : "lastAttempt", { reason: m.lastError })}</p>
          ) : null}
        </>
      ),
    },
    {
      header: t("columns.time"),
      className: "md:whitespace-nowrap text-slate-700",
      cell: (m) => (
        <>
          <p>{format.dateTime(m.createdAt)}</p>
          {m.sentAt !== null ? <p className="text-xs text-slate-500">{t("sentAt", { at: format.dateTime(m.sentAt) })}</p> : null}
        </>
      ),
    },
    {
      header: t("columns.actions"),
      headerHidden: true,
      cell: (m) =>
        m.status === "failed" ? (
          <ResendButton mail={m} onResent={() => setNotice(t("resent", { recipient: m.recipient }))} />
        ) : null,
    },
  ];

  return (
    <div className="space-y-4">
      <form aria-label={t("filters")} onSubmit={(e) => e.preventDefault()} className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3">
        <SelectField label={t("status")} value={status ?? ""} onChange={(e) => url.set({ status: e.target.value, page: undefined })}>
          <option value="">{t("allStatuses")}</option>
          {MAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("mail", s)}
            </option>
          ))}
        </SelectField>
      </form>
      {list.data && !list.data.mailerConfigured ? <Notice tone="warning">{t("noMailer")}</Notice> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <QueryView
        query={list}
        loadingLabel={t("loading")}
        isEmpty={(data) => data.items.length === 0}
        empty={<EmptyState title={status ? t("emptyFiltered") : t("empty")}>{status ? t("emptyFilteredHint") : t("emptyHint")}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("tableLabel")}
            columns={columns}
            rows={data.items}
            rowKey={(m) => m.uid}
            rowClassName={() => "align-top"}
            pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("mailNoun"), t("mailsNoun")]} onPage={(next) => url.set({ page: queryOfPage(next) })} />}
          />
        )}
      </QueryView>
    </div>
  );
}

function ResendButton({ mail, onResent }: { mail: Mail; onResent: () => void }) {
  const t = useTranslations("admin.mail");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resend = useMutation(trpc.admin.mail.resend.mutationOptions());
  return (
    <div className="md:text-right">
      <ConfirmButton
        className="whitespace-nowrap"
        buttonTone="secondary"
        buttonLabel={t("resendLabel", { recipient: mail.recipient })}
        title={t("resendTitle", { recipient: mail.recipient })}
        confirmLabel={t("confirmResend")}
        pendingLabel={t("resending")}
        tone="primary"
        onConfirm={async () => {
          await resend.mutateAsync({ mailUid: mail.uid });
          onResent();
          await queryClient.invalidateQueries({ queryKey: trpc.admin.mail.pathKey() });
        }}
        consequence={<p>{t("resendConsequence")}</p>}
      >
        {t("resend")}
      </ConfirmButton>
    </div>
  );
}
