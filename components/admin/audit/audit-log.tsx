"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { AUDIT_KIND_LABELS, AUDIT_LOG_KINDS, type AuditLogKind } from "@/server/domain/audit/kinds";
import type { ListAuditLogInput } from "@/server/trpc/routers/admin-audit.schemas";

const PAGE_SIZE = 50;

type Entry = { kind: string; entityUid: string | null; orderUid: string | null };

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
    default:
      return null;
  }
}

type ActorRef = { type: "USER" | "API_KEY"; uid: string; name: string | null } | { type: "SYSTEM" };

function actorName(actor: ActorRef): string {
  if (actor.type === "SYSTEM") return "System";
  if (actor.type === "USER") return actor.name ?? "A removed user";
  return actor.name ? `API key “${actor.name}”` : "An API key";
}

/** Settings → Audit log: every state change of the organisation, newest first, filterable. */
export function AuditLog() {
  const format = useFormat();
  const trpc = useTRPC();
  const actors = useQuery(trpc.admin.audit.actors.queryOptions());
  const [kind, setKind] = useState<AuditLogKind | "">("");
  const [actor, setActor] = useState("");
  const [fromDate, setFromDate] = useState("");
  const [toDate, setToDate] = useState("");
  const [entityDraft, setEntityDraft] = useState("");
  const [textDraft, setTextDraft] = useState("");
  // Typed filters apply on submit, so each keystroke is not a query.
  const [typed, setTyped] = useState({ entityUid: "", text: "" });

  const from = dateInputToUnix(fromDate, "start");
  const to = dateInputToUnix(toDate, "end");
  const reversed = from !== undefined && to !== undefined && from > to;
  const [actorType, actorUid] = actor.split(":");
  const input: ListAuditLogInput = {
    ...(kind ? { kinds: [kind] } : {}),
    ...(actorType === "SYSTEM" ? { actor: { type: "SYSTEM" as const } } : {}),
    ...((actorType === "USER" || actorType === "API_KEY") && actorUid ? { actor: { type: actorType, uid: actorUid } } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined && !reversed ? { to } : {}),
    ...(typed.entityUid ? { entityUid: typed.entityUid } : {}),
    ...(typed.text ? { text: typed.text } : {}),
    limit: PAGE_SIZE,
  };
  const log = useInfiniteQuery(trpc.admin.audit.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const filtered = Boolean(kind || actor || from !== undefined || to !== undefined || typed.entityUid || typed.text);

  function applyTyped(event: FormEvent) {
    event.preventDefault();
    setTyped({ entityUid: entityDraft.trim(), text: textDraft.trim() });
  }

  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="space-y-4">
      <form aria-label="Filters" onSubmit={applyTyped} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField label="Kind" value={kind} onChange={(e) => setKind(e.target.value as AuditLogKind | "")}>
            <option value="">All kinds</option>
            {AUDIT_LOG_KINDS.map((k) => (
              <option key={k} value={k}>
                {AUDIT_KIND_LABELS[k]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Who" value={actor} onChange={(e) => setActor(e.target.value)}>
            <option value="">Anyone</option>
            <option value="SYSTEM">System</option>
            {(actors.data ?? []).map((a) => (
              <option key={`${a.type}:${a.uid}`} value={`${a.type}:${a.uid}`}>
                {a.type === "API_KEY" ? `API key “${a.name}”` : a.name} ({a.detail})
              </option>
            ))}
          </SelectField>
          <TextField label="From date" type="date" value={fromDate} onChange={(e) => setFromDate(e.target.value)} />
          <TextField
            label="To date"
            type="date"
            value={toDate}
            onChange={(e) => setToDate(e.target.value)}
            errors={reversed ? ["Must not be before the from date."] : undefined}
          />
        </div>
        <div className="grid items-end gap-4 sm:grid-cols-[1fr_1fr_auto]">
          <TextField label="Entity uid" placeholder="An order, prescription, key … uid" value={entityDraft} onChange={(e) => setEntityDraft(e.target.value)} />
          <TextField label="Text" placeholder="Words in the entry, an order name, a status" value={textDraft} onChange={(e) => setTextDraft(e.target.value)} />
          <Button type="submit">Apply</Button>
        </div>
      </form>

      {log.isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : log.isError ? (
        <ErrorState message={errorMessage(log.error)} onRetry={() => log.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title={filtered ? "No entries match these filters" : "Nothing has happened yet"}>
          {filtered ? "Try other filters." : "Changes to orders, prescriptions, keys, settings and users appear here."}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">When</th>
                  <th scope="col" className="px-4 py-3">Who</th>
                  <th scope="col" className="px-4 py-3">What</th>
                  <th scope="col" className="px-4 py-3">Kind</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {entries.map((e) => {
                  const href = linkOf(e);
                  return (
                    <tr key={`${e.source}:${e.uid}`} className="align-top" data-kind={e.kind}>
                      <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(e.at)}</td>
                      <td className="px-4 py-3 text-slate-700">{actorName(e.actor as ActorRef)}</td>
                      <td className="max-w-xl px-4 py-3 text-slate-900">
                        {href ? (
                          <Link href={href} className="break-words hover:text-brand-700 hover:underline">
                            {e.summary}
                          </Link>
                        ) : (
                          <span className="break-words">{e.summary}</span>
                        )}
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                        {AUDIT_KIND_LABELS[e.kind as AuditLogKind] ?? e.kind}
                        <span className="block text-xs text-slate-500">{e.action.replaceAll("_", " ")}</span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="flex items-center justify-between text-sm text-slate-600">
            <span>
              {entries.length} {entries.length === 1 ? "entry" : "entries"} shown, newest first
            </span>
            {log.hasNextPage ? (
              <Button tone="secondary" disabled={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
                {log.isFetchingNextPage ? "Loading…" : "Load older entries"}
              </Button>
            ) : (
              <span>That is all.</span>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
