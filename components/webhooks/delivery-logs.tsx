"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Fragment, useState } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { Pager } from "@/components/ui/pager";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { dateInputToUnix, unixToDateInput, useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { DELIVERY_LOG_STATES, type DeliveryLogState } from "@/server/domain/webhooks/delivery-log-states";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { FailingTargetsNotice, useTargetHealth, type WebhookPortal } from "./target-health";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";

const PAGE_SIZE = 25;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | "" => (value && (values as readonly string[]).includes(value) ? (value as T) : "");

/** An attempt's outcome in a few words: the HTTP status, or what went wrong before one. */
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
  pharmacy: { eventTypes: PHARMACY_EVENT_TYPES as readonly string[], webhooks: "/pharmacy/api-access/webhooks", whose: "your" },
  admin: { eventTypes: EVENT_TYPES as readonly string[], webhooks: "/admin/webhooks", whose: "the organisation's" },
} satisfies Record<WebhookPortal, unknown>;

/** What an event is about, for the log: a pharmacy order, a pharmacy SKU, an appointment or a meeting. */
function subjectLabel(eventType: string): string {
  if (eventType.startsWith("pharmacy_order")) return "Order";
  if (eventType === "pharmacy_sku_stock_updated") return "SKU";
  if (eventType === "appointment_reminder_due") return "Appointment";
  return "Meeting";
}

/** A portal's Webhook Delivery Logs: the pharmacy portal's (its pharmacies' subscriptions) or the admin tool's (the organisation's). */
export function DeliveryLogs({ portal }: { portal: WebhookPortal }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const api = useLogsApi(portal);
  const search = useSearchParams();
  const { eventTypes, webhooks, whose } = PORTAL[portal];
  // Filters start from the link that led here (the home page links to recent failures).
  const [state, setState] = useState<DeliveryLogState | "">(oneOf(DELIVERY_LOG_STATES, search.get("state")));
  const [eventType, setEventType] = useState(oneOf(eventTypes, search.get("eventType")));
  const [subscriptionUid, setSubscriptionUid] = useState(search.get("subscription") ?? "");
  const subscriptions = useQuery(api.subscriptions.queryOptions({}));
  const health = useTargetHealth(portal);
  const fromParam = Number(search.get("from"));
  const [fromDate, setFromDate] = useState(Number.isInteger(fromParam) && fromParam > 0 ? unixToDateInput(fromParam) : "");
  const [toDate, setToDate] = useState("");
  const [page, setPage] = useState(0);
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

  const changeFilter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(0);
  };

  return (
    <div className="space-y-4">
      <FailingTargetsNotice health={health.data} />
      <form
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-5"
      >
        <SelectField label="State" value={state} onChange={(e) => changeFilter(setState)(e.target.value as DeliveryLogState | "")}>
          <option value="">All states</option>
          {DELIVERY_LOG_STATES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("delivery", s)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Event type" value={eventType} onChange={(e) => changeFilter(setEventType)(e.target.value as typeof eventType)}>
          <option value="">All event types</option>
          {eventTypes.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField label="Webhook" value={subscriptionUid} onChange={(e) => changeFilter(setSubscriptionUid)(e.target.value)}>
          <option value="">All webhooks</option>
          {(subscriptions.data ?? []).map((sub) => (
            <option key={sub.uid} value={sub.uid}>
              {sub.target} ({sub.notificationType}){sub.deleted ? ", deleted" : ""}
            </option>
          ))}
        </SelectField>
        <TextField label="From date" type="date" value={fromDate} onChange={(e) => changeFilter(setFromDate)(e.target.value)} />
        <TextField
          label="To date"
          type="date"
          value={toDate}
          onChange={(e) => changeFilter(setToDate)(e.target.value)}
          errors={reversed ? ["Must not be before the from date."] : undefined}
        />
      </form>

      {resent ? <Notice>{resent}</Notice> : null}
      {deliveries.isPending ? (
        <LoadingState label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <ErrorState message={errorMessage(deliveries.error)} onRetry={() => deliveries.refetch()} />
      ) : deliveries.data.items.length === 0 ? (
        <EmptyState title={state || eventType || subscriptionUid || from || to ? "No deliveries match these filters" : "No webhook deliveries yet"}>
          {state || eventType || subscriptionUid || from || to ? (
            "Try other filters."
          ) : (
            <>
              Deliveries appear here once an event happens for one of {whose}{" "}
              <Link href={webhooks} className="font-medium text-brand-700 hover:underline">
                webhooks
              </Link>
              .
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Event (created)</th>
                  <th scope="col" className="px-4 py-3">Target</th>
                  <th scope="col" className="px-4 py-3">State</th>
                  <th scope="col" className="px-4 py-3">Attempts</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {deliveries.data.items.map((d) => (
                  <Fragment key={d.uid}>
                    <tr className="align-top" data-delivery={d.uid}>
                      <td className="px-4 py-3">
                        <p className="font-mono text-slate-900">{d.eventType}</p>
                        <p className="font-mono text-xs text-slate-500">
                          {subjectLabel(d.eventType)} {d.subjectUid}
                        </p>
                        <p className="text-xs text-slate-500">{format.dateTime(d.createdAt)}</p>
                      </td>
                      <td className="min-w-48 max-w-xs break-all px-4 py-3 text-slate-700">
                        {d.subscription.target}
                        {d.subscription.deleted ? <span className="ml-1 text-xs text-slate-500">(subscription deleted)</span> : null}
                      </td>
                      <td className="px-4 py-3">
                        <StatusBadge kind="delivery" status={d.state} />
                        {d.state === "failed" ? <p className="mt-1 text-xs text-slate-500">permanent failure</p> : null}
                      </td>
                      <td className="px-4 py-3 text-slate-700">
                        <p>
                          {d.attemptCount} of {d.maxAttempts}
                          {d.lastAttempt ? ` · last: ${attemptResult(d.lastAttempt)}` : ""}
                        </p>
                        {d.nextAttemptAt !== null ? <p className="text-xs text-slate-500">next: {format.dateTime(d.nextAttemptAt)}</p> : null}
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex flex-col items-end gap-2 whitespace-nowrap">
                          <Button tone="secondary" aria-expanded={open === d.uid} onClick={() => setOpen(open === d.uid ? null : d.uid)}>
                            {open === d.uid ? "Hide attempts" : "Show attempts"}
                          </Button>
                          {d.state === "failed" && !d.subscription.deleted ? (
                            <ResendButton
                              portal={portal}
                              deliveryUid={d.uid}
                              onResent={() => {
                                // Re-sent, it is no longer failed: under the "failed" filter it would vanish from sight.
                                if (state === "failed") changeFilter(setState)("");
                                setOpen(d.uid);
                                setResent(`Re-sent the ${d.eventType} delivery to ${d.subscription.target}: it is being attempted again.`);
                              }}
                            />
                          ) : null}
                        </div>
                      </td>
                    </tr>
                    {open === d.uid ? (
                      <tr>
                        <td colSpan={5} className="bg-slate-50 px-4 py-4">
                          <DeliveryDetail portal={portal} deliveryUid={d.uid} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={deliveries.data.totalPages} total={deliveries.data.total} noun={["delivery", "deliveries"]} onPage={setPage} />
        </>
      )}
    </div>
  );
}

function ResendButton({ portal, deliveryUid, onResent }: { portal: WebhookPortal; deliveryUid: string; onResent: () => void }) {
  const api = useLogsApi(portal);
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
        {resend.isPending ? "Re-sending…" : "Re-send"}
      </Button>
      {resend.error ? <p className="mt-1 max-w-xs whitespace-normal text-xs text-red-700">{errorMessage(resend.error)}</p> : null}
    </div>
  );
}

function DeliveryDetail({ portal, deliveryUid }: { portal: WebhookPortal; deliveryUid: string }) {
  const format = useFormat();
  const api = useLogsApi(portal);
  const detail = useQuery({
    ...api.get.queryOptions({ deliveryUid }),
    refetchInterval: (query) => (query.state.data?.state === "pending" || query.state.data?.state === "retrying" ? 5_000 : false),
  });
  if (detail.isPending) return <LoadingState label="Loading attempts…" />;
  if (detail.isError) return <ErrorState message={errorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const d = detail.data;
  return (
    <div className="space-y-3">
      {d.attempts.length === 0 ? (
        <p className="text-sm text-slate-600">No attempt recorded yet{d.nextAttemptAt ? `; the first is due ${format.dateTime(d.nextAttemptAt)}` : ""}.</p>
      ) : (
        <table className="min-w-full text-sm" aria-label="Attempts">
          <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-4">Attempt</th>
              <th scope="col" className="py-1 pr-4">Time</th>
              <th scope="col" className="py-1 pr-4">Duration</th>
              <th scope="col" className="py-1 pr-4">Result</th>
              <th scope="col" className="py-1 pr-4">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a) => (
              <tr key={a.attemptNumber} className="border-t border-slate-200">
                <td className="py-1.5 pr-4">#{a.attemptNumber}</td>
                <td className="py-1.5 pr-4">{format.dateTime(a.startedAt)}</td>
                <td className="py-1.5 pr-4">{a.durationMs} ms</td>
                <td className="py-1.5 pr-4">
                  <span className={a.responseStatus !== null && a.responseStatus < 300 ? "text-emerald-800" : "text-red-800"}>{attemptResult(a)}</span>
                  {a.errorMessage && a.responseStatus === null ? <span className="ml-2 text-xs text-slate-500">{a.errorMessage}</span> : null}
                </td>
                <td className="py-1.5 pr-4">{format.dateTime(a.nextAttemptAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {d.resends.length > 0 ? (
        <ul className="space-y-1">
          {d.resends.map((r, i) => (
            <li key={i}>
              <Notice tone="warning">
                Re-sent {format.dateTime(r.createdAt)} by {r.by.type === "SYSTEM" ? "the system" : (r.by.name ?? (r.by.type === "USER" ? "a user" : "an API key"))}
              </Notice>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
