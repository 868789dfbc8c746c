"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Card, DetailRow } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel, useSystemNote } from "@/components/ui/status";
import { useSourceLabel } from "./format";
import { PrescriptionActions, PrescriptionPdf, SIGNED } from "./prescription-actions";

export type Prescription = inferRouterOutputs<AppRouter>["admin"]["prescriptions"]["get"];

/** While a requested rendering is under way, the prescription is read again this often. */
const RENDER_POLL_MS = 2_000;

/** One prescription: who and what, its history, its PDF, and render / external sign. */
export function PrescriptionDetail({ uid }: { uid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.prescriptions.detail");
  const format = useFormat();
  const sourceLabel = useSourceLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [awaitingRender, setAwaitingRender] = useState(false);
  const prescription = useQuery({
    ...trpc.admin.prescriptions.get.queryOptions({ uid }),
    refetchInterval: (query) => (awaitingRender && !query.state.data?.rendered ? RENDER_POLL_MS : false),
  });
  const rendered = prescription.data?.rendered;
  useEffect(() => {
    if (awaitingRender && rendered) {
      setAwaitingRender(false);
      void queryClient.invalidateQueries({ queryKey: trpc.admin.prescriptions.pdf.queryKey({ uid }) });
    }
  }, [awaitingRender, rendered, queryClient, trpc, uid]);

  if (prescription.isPending) return <LoadingState label={t("loading")} />;
  if (prescription.isError) {
    return prescription.error.data?.code === "NOT_FOUND" ? (
      <EmptyState title={t("notFound")}>
        {t("notFoundHint")}{" "}
        <Link prefetch={false} href="/admin/prescriptions" className="text-brand-700 hover:underline">
          {t("all")}
        </Link>
      </EmptyState>
    ) : (
      <ErrorState message={errorMessage(prescription.error)} onRetry={() => void prescription.refetch()} />
    );
  }
  const p = prescription.data;
  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <Link prefetch={false} href="/admin/prescriptions" className="text-brand-700 hover:underline">
          ← {t("all")}
        </Link>
        <StatusBadge kind="prescription" status={p.status} />
        <span>{sourceLabel(p.source)}</span>
        <span>{t("created", { date: format.dateTime(p.createdAt) })}</span>
        {p.signedAt ? <span>{t("signed", { date: format.dateTime(p.signedAt) })}</span> : null}
        <span className="font-mono text-xs break-all text-slate-500">{p.uid}</span>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title={t("patient")}>
          <dl className="space-y-1 text-sm break-words">
            <DetailRow label={t("name")}>{p.patient.name}</DetailRow>
            <DetailRow label={t("email")}>
              <span className="break-all">{p.patient.email ?? "—"}</span>
            </DetailRow>
            <DetailRow label={t("dateOfBirth")}>{format.calendarDate(p.patient.dateOfBirth)}</DetailRow>
          </dl>
        </Card>
        <Card title={t("doctor")}>
          <p className="text-sm text-slate-800">
            {p.doctor ? (
              <Link prefetch={false} href={`/admin/doctors/${encodeURIComponent(p.doctor.uid)}`} className="text-brand-700 hover:underline">
                {p.doctor.name}
              </Link>
            ) : (
              t("noDoctor")
            )}
          </p>
        </Card>
        <Card title={t("order")}>
          {p.order ? (
            <dl className="space-y-1 text-sm">
              <DetailRow label={t("order")}>
                <Link prefetch={false} href={`/admin/orders/${p.order.uid}`} className="break-all text-brand-700 hover:underline">
                  {p.order.name}
                </Link>
              </DetailRow>
              <DetailRow label={t("status")}>
                <StatusBadge kind="order" status={p.order.status} />
              </DetailRow>
            </dl>
          ) : (
            <p className="text-sm text-slate-600">{t("noOrder")}</p>
          )}
        </Card>
      </div>
      <Lines prescription={p} />
      <PrescriptionActions prescription={p} onRenderRequested={() => setAwaitingRender(true)} awaitingRender={awaitingRender} />
      <Card title={SIGNED.includes(p.status) ? t("signedPdf") : t("renderedPdf")}>
        <PrescriptionPdf uid={uid} />
      </Card>
      <History prescription={p} />
    </div>
  );
}

function Lines({ prescription }: { prescription: Prescription }) {
  const t = useTranslations("admin.prescriptions.detail");
  const format = useFormat();
  return (
    <Card title={t("lines")}>
      <DataTable
        label={t("lines")}
        rows={prescription.lines}
        rowKey={(l) => l.uid}
        empty={<EmptyState title={t("noLines")} />}
        columns={[
          { header: t("sku"), key: true, cell: (l) => <span className="font-medium text-slate-900">{l.sku.displayName}</span> },
          { header: t("pzn"), cell: (l) => l.sku.pzn ?? "—", className: "tabular-nums" },
          { header: t("quantity"), cell: (l) => format.number(l.quantity), className: "tabular-nums" },
          { header: t("redeemed"), cell: (l) => format.number(l.redeemed), className: "tabular-nums" },
          { header: t("remaining"), cell: (l) => format.number(l.remaining), className: "tabular-nums" },
          { header: t("dosage"), cell: (l) => l.dosage ?? "—" },
          { header: t("anamnesis"), cell: (l) => (l.anamnesisUid ? <span className="font-mono text-xs">{l.anamnesisUid.slice(0, 8)}</span> : t("none")) },
        ]}
      />
      {/* A prescription is redeemed once, up to its quantity: which orders used it (docs/decisions/prescriptions.md#prescription-redemption). */}
      <p className="mt-3 text-sm text-slate-700">
        {prescription.redeemedBy.length === 0 ? (
          t("notRedeemed")
        ) : (
          <>
            {t("redeemedBy")}{" "}
            {prescription.redeemedBy.map((o, i) => (
              <span key={o.uid}>
                {i > 0 ? ", " : null}
                <Link prefetch={false} href={`/admin/orders/${o.uid}`} className="break-all text-brand-700 hover:underline">
                  {o.name}
                </Link>
              </span>
            ))}
          </>
        )}
      </p>
    </Card>
  );
}

function History({ prescription }: { prescription: Prescription }) {
  const t = useTranslations("admin.prescriptions.detail");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const systemNote = useSystemNote();
  const who = (by: Prescription["history"][number]["by"]) =>
    by.type === "SYSTEM" ? t("system") : t(by.type === "USER" ? "byUser" : "byApiKey", { name: by.name ?? t("unknown") });
  return (
    <Card title={t("history")}>
      <DataTable
        label={t("history")}
        rows={prescription.history}
        rowKey={(h) => h.uid}
        rowClassName={() => "align-top"}
        columns={[
          { header: t("when"), key: true, cell: (h) => format.dateTime(h.at), className: "md:whitespace-nowrap text-slate-600" },
          {
            header: t("change"),
            cell: (h) =>
              h.fromStatus
                ? t("changed", { from: statusLabel("prescription", h.fromStatus), to: statusLabel("prescription", h.toStatus) })
                : t("createdAs", { status: statusLabel("prescription", h.toStatus) }),
          },
          { header: t("who"), cell: (h) => who(h.by), className: "text-slate-700" },
          { header: t("note"), cell: (h) => (h.note ? systemNote("prescription", h.note) : "—"), className: "text-slate-700" },
        ]}
      />
    </Card>
  );
}
