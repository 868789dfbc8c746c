"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { AUDIT_LOG_KINDS, type AuditLogKind } from "@/server/domain/audit/kinds";
import type { ListAuditLogInput } from "@/server/trpc/routers/admin-audit.schemas";
import { useHistoryText, useStatusLabel, useSystemNote } from "@/components/ui/status";
import { AuditFilterForm, useAuditFilters, type AuditFilters } from "./audit-filters";
import { auditActionOf, auditTextOf, type AuditWords } from "./audit-text";

const PAGE_SIZE = 50;

type ActorRef = { type: "USER" | "API_KEY"; uid: string; name: string | null } | { type: "SYSTEM" };
type Entry = {
  source: string;
  uid: string;
  at: number;
  kind: string;
  action: string;
  summary: string;
  words: AuditWords;
  actor: unknown;
  entityUid: string | null;
  orderUid: string | null;
};

/** The admin page an entry's entity lives on, where there is one. */
function linkOf(entry: Entry): string | null {
  if (entry.orderUid) return `/admin/orders/${encodeURIComponent(entry.orderUid)}`;
  switch (entry.kind as AuditLogKind) {
    case "prescription":
      return entry.entityUid ? `/admin/prescriptions/${encodeURIComponent(entry.entityUid)}` : null;
    case "api_key":
      return "/admin/api-keys";
    case "user":
      return "/admin/users";
    case "webhook_subscription":
      return "/admin/webhooks";
    case "webhook_delivery":
      return "/admin/webhooks/logs";
    case "telemedicine_provider":
      return "/admin/telemedicine-providers";
    case "questionnaire":
      return "/admin/questionnaires";
    case "setting":
    case "patient_token_secret":
    case "wallet_pass_template":
      return "/admin/settings";
    case "product":
    case "sku":
    case "shop_sku":
      return "/admin/catalogue";
    case "pharmacy":
    case "pharmacy_group":
      return "/admin/pharmacies";
    case "shop":
      return "/admin/shops";
    case "issue_thread":
      return "/admin/issues";
    case "mail_message":
      return "/admin/email";
    case "wallet_pass":
      return "/admin/patients";
    case "appointment":
      return "/admin/appointments";
    case "payout":
      return "/admin/payouts";
    case "doctor":
      return entry.entityUid ? `/admin/doctors/${encodeURIComponent(entry.entityUid)}` : null;
    default:
      return null;
  }
}

/** The list's input from the URL's filters (an unknown kind or actor in a hand-edited link is no filter). */
function inputOf(filters: AuditFilters) {
  const from = dateInputToUnix(filters.from ?? "", "start");
  const to = dateInputToUnix(filters.to ?? "", "end");
  const reversed = from !== undefined && to !== undefined && from > to;
  const kind = AUDIT_LOG_KINDS.find((k) => k === filters.kind);
  const [actorType, actorUid] = (filters.actor ?? "").split(":");
  const input: ListAuditLogInput = {
    ...(kind ? { kinds: [kind] } : {}),
    ...(actorType === "SYSTEM" ? { actor: { type: "SYSTEM" as const } } : {}),
    ...((actorType === "USER" || actorType === "API_KEY") && actorUid ? { actor: { type: actorType, uid: actorUid } } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined && !reversed ? { to } : {}),
    ...(filters.entity ? { entityUid: filters.entity } : {}),
    ...(filters.text ? { text: filters.text } : {}),
    limit: PAGE_SIZE,
  };
  const filtered = Boolean(kind || input.actor || from !== undefined || to !== undefined || filters.entity || filters.text);
  return { input, reversed, filtered };
}

/** Settings → Audit log: every state change of the organisation, newest first, filterable (the filters in the URL). */
export function AuditLog() {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.audit");
  const format = useFormat();
  const trpc = useTRPC();
  const [filters, setFilters] = useAuditFilters();
  const { input, reversed, filtered } = inputOf(filters);
  const log = useInfiniteQuery(trpc.admin.audit.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const entries: Entry[] = log.data?.pages.flatMap((p) => p.entries) ?? [];

  const actorName = (actor: ActorRef): string => {
    if (actor.type === "SYSTEM") return t("system");
    if (actor.type === "USER") return actor.name ?? t("removedUser");
    return actor.name ? t("apiKeyNamed", { name: actor.name }) : t("anApiKey");
  };
  const statusLabel = useStatusLabel();
  // The entries' message keys are stored, so not typed.
  const historyText = useHistoryText();
  const systemNote = useSystemNote();
  const text = auditTextOf(t as never, statusLabel, (label) => historyText({ isStatusChange: false, fromStatus: null, toStatus: label }), systemNote);
  const actionLabel = auditActionOf(t as never);
  const kindLabel = (kind: string) => (AUDIT_LOG_KINDS.includes(kind as AuditLogKind) ? t(`kinds.${kind as AuditLogKind}`) : kind);

  const columns: Column<Entry>[] = [
    {
      header: t("what"),
      key: true,
      className: "md:min-w-64 md:max-w-md text-slate-900",
      cell: (e) => {
        const href = linkOf(e);
        return href ? (
          <Link prefetch={false} href={href} className="wrap-break-word hover:text-brand-700 hover:underline">
            {text(e)}
          </Link>
        ) : (
          <span className="wrap-break-word">{text(e)}</span>
        );
      },
    },
    { header: t("when"), className: "md:whitespace-nowrap text-slate-700", cell: (e) => format.dateTime(e.at) },
    { header: t("who"), className: "text-slate-700", cell: (e) => actorName(e.actor as ActorRef) },
    {
      header: t("kind"),
      className: "md:whitespace-nowrap text-slate-600",
      cell: (e) => (
        <>
          {kindLabel(e.kind)}
          <span className="block text-xs text-slate-500">{actionLabel(e.action)}</span>
        </>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <AuditFilterForm filters={filters} onChange={setFilters} reversed={reversed} />
      {log.isPending ? (
        <LoadingState label={t("loading")} />
      ) : log.isError ? (
        <ErrorState message={errorMessage(log.error)} onRetry={() => log.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title={filtered ? t("noMatchTitle") : t("emptyTitle")}>{filtered ? t("noMatchHint") : t("emptyHint")}</EmptyState>
      ) : (
        <DataTable
          label={t("title")}
          columns={columns}
          rows={entries}
          rowKey={(e) => `${e.source}:${e.uid}`}
          rowClassName={() => "align-top"}
          pager={
            <nav aria-label={t("pages")} className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
              <span>{t("shown", { count: entries.length })}</span>
              {log.hasNextPage ? (
                <Button tone="secondary" disabled={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
                  {log.isFetchingNextPage ? t("loadingMore") : t("loadOlder")}
                </Button>
              ) : (
                <span>{t("thatIsAll")}</span>
              )}
            </nav>
          }
        />
      )}
    </div>
  );
}
