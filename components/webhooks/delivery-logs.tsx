"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { Pager } from "@/components/ui/pager";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { dateInputToUnix, unixToDateInput, useFormat } from "@/components/ui/format";
import { pageOfQuery, queryOfPage, useUrlQuery, type UrlUpdates } from "@/components/ui/use-url-state";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { DELIVERY_LOG_STATES } from "@/server/domain/webhooks/delivery-log-states";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { FailingTargetsNotice, useTargetHealth, type WebhookPortal } from "./target-health";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";

const PAGE_SIZE = 25;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | "" => (value && (values as readonly string[]).includes(value) ? (value as T) : "");

/** An attempt's outcome in a few words: the HTTP status, or what went wrong before one (the error class as the server names it). */
function attemptResult(a: { responseStatus: number | null; errorClass: string | null }): string {
  if (a.responseStatus !== null) return `HTTP ${a.responseStatus}`;
  return a.errorClass ? a.errorClass.replaceAll("_", " ") : "—";
}

/**
 * The procedures of a portal's logs: one router under both portals (server/trpc/routers/delivery-logs.ts),
 * the same inputs and outputs; only the scope differs.
 */
function useLogsApi(portal: WebhookPortal) {
  const trpc = useTRPC();
  return trpc[portal].deliveryLogs;
}

const PORTAL = {
  pharmacy: { eventTypes: PHARMACY_EVENT_TYPES as readonly string[], webhooks: "/pharmacy/api-access/webhooks" },
  admin: { eventTypes: EVENT_TYPES as readonly string[], webhooks: "/admin/webhooks" },
} satisfies Record<WebhookPortal, unknown>;

/** What an event is about, for the log (messages webhooks.logs.subject): a pharmacy order, an order, a prescription, a pharmacy SKU, an appointment or a meeting. */
function subjectOf(eventType: string): "order" | "shopOrder" | "prescription" | "sku" | "appointment" | "meeting" {
  if (eventType.startsWith("pharmacy_order")) return "order";
  if (eventType.startsWith("order_")) return "shopOrder";
  if (eventType.startsWith("prescription_")) return "prescription";
  if (eventType === "pharmacy_sku_stock_updated") return "sku";
  if (eventType === "appointment_reminder_due") return "appointment";
  return "meeting";
}

/** A portal's Webhook Delivery Logs: the pharmacy portal's (its pharmacies' subscriptions) or the admin tool's (the organisation's). */
export function DeliveryLogs({ portal }: { portal: WebhookPortal }) {
  const t = useTranslations("webhooks.logs");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const api = useLogsApi(portal);
  const url = useUrlQuery();
  const { eventTypes, webhooks } = PORTAL[portal];
  // The filters and page live in the query string (`?state=failed&eventType=…&subscription=…&from=…&to=…&page=2`):
  // a deep link (the home page links to recent failures), reload and back keep them. `from` and `to` are days
  // (YYYY-MM-DD); a `from` in Unix seconds (the home page's link) is read as its day.
  const state = oneOf(DELIVERY_LOG_STATES, url.get("state") ?? null);
  const eventType = oneOf(eventTypes, url.get("eventType") ?? null);
  const subscriptionUid = url.get("subscription") ?? "";
  const fromParam = url.get("from") ?? "";
  const fromDate = /^\d+$/.test(fromParam) && Number(fromParam) > 0 ? unixToDateInput(Number(fromParam)) : fromParam;
  const toDate = url.get("to") ?? "";
  const page = pageOfQuery(url.get("page"));
  const setPage = (next: number) => url.set({ page: queryOfPage(next) });
  const filter = (updates: UrlUpdates) => url.set({ ...updates, page: undefined });
  const subscriptions = useQuery(api.subscriptions.queryOptions({}));
  const health = useTargetHealth(portal);
  const [open, setOpen] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);

  const from = dateInputToUnix(fromDate, "start");
  const to = dateInputToUnix(toDate, "end");
  const reversed = from !== undefined && to !== undefined && from > to;
  const input = {
    ...(state ? { state } : {}),
    ...(eventType ? { eventType: eventType as (typeof EVENT_TYPES)[number] } : {}),
    ...(subscriptionUid ? { subscriptionUid } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined && !reversed ? { to } : {}),
    page,
    limit: PAGE_SIZE,
  };
  const deliveries = useQuery({
    ...api.list.queryOptions(input),
    // Deliveries still being attempted change by themselves: keep them current.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.state === "pending" || d.state === "retrying") ? 5_000 : false),
  });

  const filtered = Boolean(state || eventType || subscriptionUid || from || to);
  const columns: Column<NonNullable<typeof deliveries.data>["items"][number]>[] = [
    {
      header: t("event"),
      key: true,
      cell: (d) => (
        <>
          <p className="font-mono text-slate-900">{d.eventType}</p>
          <p className="font-mono text-xs font-normal text-slate-500">{t(`subject.${subjectOf(d.eventType)}`, { uid: d.subjectUid })}</p>
          <p className="text-xs font-normal text-slate-500">{format.dateTime(d.createdAt)}</p>
        </>
      ),
    },
    {
      header: t("target"),
      className: "md:min-w-48 md:max-w-xs break-all text-slate-700",
      cell: (d) => (
        <>
          {d.subscription.target}
          {d.subscription.deleted ? <span className="ml-1 text-xs text-slate-500">{t("subscriptionDeleted")}</span> : null}
        </>
      ),
    },
    {
      header: t("state"),
      cell: (d) => (
        <>
          <StatusBadge kind="delivery" status={d.state} />
          {d.state === "failed" ? <p className="mt-1 text-xs text-slate-500">{t("permanentFailure")}</p> : null}
        </>
      ),
    },
    {
      header: t("attempts"),
      className: "text-slate-700",
      cell: (d) => (
        <>
          <p>
            {t("attemptCount", { count: d.attemptCount, max: d.maxAttempts })}
            {d.lastAttempt ? ` · ${t("lastAttempt", { result: attemptResult(d.lastAttempt) })}` : ""}
          </p>
          {d.nextAttemptAt !== null ? <p className="text-xs text-slate-500">{t("nextAttempt", { at: format.dateTime(d.nextAttemptAt) })}</p> : null}
        </>
      ),
    },
    {
      header: t("actions"),
      headerHidden: true,
      cell: (d) => (
        <div className="flex flex-col gap-2 whitespace-nowrap md:items-end">
          <Button tone="secondary" aria-expanded={open === d.uid} onClick={() => setOpen(open === d.uid ? null : d.uid)}>
            {open === d.uid ? t("hideAttempts") : t("showAttempts")}
          </Button>
          {d.state === "failed" && !d.subscription.deleted ? (
            <ResendButton
              portal={portal}
              deliveryUid={d.uid}
              onResent={() => {
                // Re-sent, it is no longer failed: under the "failed" filter it would vanish from sight.
                if (state === "failed") filter({ state: undefined });
                setOpen(d.uid);
                setResent(t("resent", { event: d.eventType, target: d.subscription.target }));
              }}
            />
          ) : null}
        </div>
      ),
    },
  ];


  return (
    <div className="space-y-4">
      <FailingTargetsNotice health={health.data} />
      <form
        aria-label={t("filters")}
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-5"
      >
        <SelectField label={t("state")} value={state} onChange={(e) => filter({ state: e.target.value })}>
          <option value="">{t("allStates")}</option>
          {DELIVERY_LOG_STATES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("delivery", s)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("eventType")} value={eventType} onChange={(e) => filter({ eventType: e.target.value })}>
          <option value="">{t("allEventTypes")}</option>
          {eventTypes.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("webhook")} value={subscriptionUid} onChange={(e) => filter({ subscription: e.target.value })}>
          <option value="">{t("allWebhooks")}</option>
          {(subscriptions.data ?? []).map((sub) => (
            <option key={sub.uid} value={sub.uid}>
              {t("subscriptionOption", { target: sub.target, event: sub.notificationType, deleted: String(sub.deleted) })}
            </option>
          ))}
        </SelectField>
        <TextField label={t("from")} type="date" value={fromDate} onChange={(e) => filter({ from: e.target.value })} />
        <TextField
          label={t("to")}
          type="date"
          value={toDate}
          onChange={(e) => filter({ to: e.target.value })}
          errors={reversed ? [t("reversed")] : undefined}
        />
      </form>

      {resent ? <Notice>{resent}</Notice> : null}
      <QueryView
        query={deliveries}
        loadingLabel={t("loading")}
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState title={filtered ? t("emptyFiltered") : t("empty")}>
            {filtered
              ? t("emptyFilteredHint")
              : t.rich("emptyHint", {
                  portal,
                  link: (chunks) => (
                    <Link prefetch={false} href={webhooks} className="font-medium text-brand-700 hover:underline">
                      {chunks}
                    </Link>
                  ),
                })}
          </EmptyState>
        }
      >
        {(data) => (
          <DataTable
            label={t("tableLabel")}
            columns={columns}
            rows={data.items}
            rowKey={(d) => d.uid}
            rowClassName={() => "align-top"}
            detail={(d) => (open === d.uid ? <DeliveryDetail portal={portal} deliveryUid={d.uid} /> : null)}
            pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("deliveryNoun"), t("deliveriesNoun")]} onPage={setPage} />}
          />
        )}
      </QueryView>
    </div>
  );
}

function ResendButton({ portal, deliveryUid, onResent }: { portal: WebhookPortal; deliveryUid: string; onResent: () => void }) {
  const errorMessage = useErrorMessage();
  const api = useLogsApi(portal);
  const t = useTranslations("webhooks.logs");
  const queryClient = useQueryClient();
  const resend = useMutation(
    api.resend.mutationOptions({
      onSuccess: async () => {
        onResent();
        await queryClient.invalidateQueries({ queryKey: api.pathKey() });
      },
    }),
  );
  return (
    <div className="whitespace-nowrap text-right">
      <Button disabled={resend.isPending} onClick={() => resend.mutate({ deliveryUid })}>
        {resend.isPending ? t("resending") : t("resend")}
      </Button>
      {resend.error ? <p className="mt-1 max-w-xs whitespace-normal text-xs text-red-700">{errorMessage(resend.error)}</p> : null}
    </div>
  );
}

function DeliveryDetail({ portal, deliveryUid }: { portal: WebhookPortal; deliveryUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("webhooks.logs");
  const format = useFormat();
  const api = useLogsApi(portal);
  const detail = useQuery({
    ...api.get.queryOptions({ deliveryUid }),
    refetchInterval: (query) => (query.state.data?.state === "pending" || query.state.data?.state === "retrying" ? 5_000 : false),
  });
  if (detail.isPending) return <LoadingState label={t("loadingAttempts")} />;
  if (detail.isError) return <ErrorState message={errorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const d = detail.data;
  return (
    <div className="space-y-3">
      {d.attempts.length === 0 ? (
        <p className="text-sm text-slate-600">{d.nextAttemptAt ? t("noAttemptDue", { at: format.dateTime(d.nextAttemptAt) }) : t("noAttempt")}</p>
      ) : (
        <DataTable
          label={t("attempts")}
          rows={d.attempts}
          rowKey={(a) => String(a.attemptNumber)}
          columns={[
            { header: t("attempt"), key: true, cell: (a) => `#${a.attemptNumber}` },
            { header: t("time"), cell: (a) => format.dateTime(a.startedAt) },
            { header: t("duration"), cell: (a) => t("ms", { ms: a.durationMs }) },
            {
              header: t("result"),
              cell: (a) => (
                <>
                  <span className={a.responseStatus !== null && a.responseStatus < 300 ? "text-emerald-800" : "text-red-800"}>{attemptResult(a)}</span>
                  {a.errorMessage && a.responseStatus === null ? <span className="ml-2 text-xs text-slate-500">{a.errorMessage}</span> : null}
                </>
              ),
            },
            { header: t("next"), cell: (a) => format.dateTime(a.nextAttemptAt) },
          ]}
        />
      )}
      {d.resends.length > 0 ? (
        <ul className="space-y-1">
          {d.resends.map((r, i) => (
            <li key={i}>
              <Notice tone="warning">
                {t("resentBy", { at: format.dateTime(r.createdAt), type: r.by.type, name: ("name" in r.by ? r.by.name : null) ?? "none" })}
              </Notice>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
