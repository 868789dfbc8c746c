"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { OrderStatusBadge } from "@/components/admin/orders/order-list";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { EmptyState, LoadingState, Notice } from "@/components/ui/states";
import { StatusBadge } from "@/components/ui/status-badge";
import { pageOfQuery, queryOfPage, useUrlQuery } from "@/components/ui/use-url-state";
import { isNotFound } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";
import type { AdminPatientDetailView } from "@/server/trpc/routers/admin-patients.presenters";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["patients"];
type WalletPass = AdminPatientDetailView["walletPasses"][number];
type Field = AdminPatientDetailView["fields"][number];
type PatientOrder = Outputs["orders"]["items"][number];
/** Who set a profile field's value (server/domain/patients/profile-fields.ts); another value shows as it is. */
type Source = "shop" | "survey" | "user";

const ORDERS_PAGE_SIZE = 10;


/** One patient: what the Management API shows an admin of them, their orders, and "Revoke pass" for a live wallet pass. */
export function PatientDetail({ uid }: { uid: string }) {
  const t = useTranslations("admin.patients");
  const format = useFormat();
  const trpc = useTRPC();
  const detail = useQuery(trpc.admin.patients.get.queryOptions({ uid }, { retry: (n, e) => n < 1 && !isNotFound(e) }));
  const [notice, setNotice] = useState<string | null>(null);

  if (detail.isPending) return <LoadingState label={t("detail.loading")} />;
  if (detail.isError) {
    return <RecordLoadError error={detail.error} notFound={t("detail.notFound")} back={{ href: "/admin/patients", label: t("detail.backToSearch") }} onRetry={() => void detail.refetch()} />;
  }
  const patient = detail.data;

  return (
    <div className="min-w-0 space-y-6">
      <Link prefetch={false} href="/admin/patients" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t("detail.patients")}
      </Link>
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-xl font-semibold break-words text-slate-900">{patient.displayName || t("unnamed")}</h2>
        <p className="mt-1 text-xs break-words text-slate-500">
          {t("detail.times", { created: format.dateTime(patient.createdAt), changed: format.dateTime(patient.updatedAt) })} ·{" "}
          <span className="font-mono break-all">{patient.uid}</span>
        </p>
      </div>

      {notice ? <Notice>{notice}</Notice> : null}

      <div className="grid gap-6 md:grid-cols-2">
        <Card level={3} title={t("detail.profile")}>
          <dl className="space-y-2 text-sm">
            <Row label={t("detail.email")}>{patient.email ?? "—"}</Row>
            <Row label={t("detail.firstName")}>{patient.firstName ?? "—"}</Row>
            <Row label={t("detail.lastName")}>{patient.lastName ?? "—"}</Row>
            <Row label={t("detail.dateOfBirth")}>{format.calendarDate(patient.dateOfBirth)}</Row>
          </dl>
        </Card>
        <Card level={3} title={t("detail.shopCustomers")}>
          {patient.shopCustomers.length === 0 ? (
            <p className="text-sm text-slate-600">{t("detail.noShopCustomers")}</p>
          ) : (
            <ul className="space-y-3 text-sm">
              {patient.shopCustomers.map((c) => (
                <li key={`${c.shopUid}/${c.shopCustomerId}`}>
                  <p className="font-medium break-all text-slate-900">{t("shopCustomer", { shop: c.shopIdentifier, customer: c.shopCustomerId })}</p>
                  <p className="break-all text-slate-600">{c.email ?? t("detail.noEmail")}</p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <Card level={3} title={t("detail.fields")}>
          <ProfileFields fields={patient.fields} />
        </Card>
        <Card level={3} title={t("detail.intents")}>
          {patient.intents.length === 0 ? (
            <p className="text-sm text-slate-600">{t("detail.noIntents")}</p>
          ) : (
            <dl className="space-y-2 text-sm">
              {patient.intents.map((i) => (
                <div key={i.intent} className="flex flex-wrap items-center justify-between gap-2">
                  <dt className="font-mono break-all text-slate-900">{i.intent}</dt>
                  <dd>
                    <StatusBadge kind="intent" status={i.returnCode} />
                  </dd>
                </div>
              ))}
            </dl>
          )}
          <p className="mt-3 text-xs text-slate-500">{t("detail.intentsHint")}</p>
        </Card>
      </div>

      <WalletPasses passes={patient.walletPasses} onRevoked={(pass) => setNotice(t("passes.revoked", { template: pass.templateName, customer: pass.shopCustomerId }))} />
      <PatientOrders uid={patient.uid} />
    </div>
  );
}

function ProfileFields({ fields }: { fields: Field[] }) {
  const t = useTranslations("admin.patients");
  const format = useFormat();
  if (fields.length === 0) return <p className="text-sm text-slate-600">{t("detail.noFields")}</p>;
  return (
    <dl className="space-y-3 text-sm">
      {fields.map((f) => (
        <div key={f.field}>
          <dt className="text-xs text-slate-500">
            {f.displayName} <span className="font-mono">({f.field})</span>
          </dt>
          <dd className="break-words text-slate-900">{f.value}</dd>
          <dd className="text-xs text-slate-500">
            {t("detail.fieldSource", { source: t.has(`sources.${f.source as Source}`) ? t(`sources.${f.source as Source}`) : f.source, at: format.dateTime(f.updatedAt) })}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The patient's wallet passes, revoked ones included; a live one can be revoked (asks once). */
function WalletPasses({ passes, onRevoked }: { passes: WalletPass[]; onRevoked: (pass: WalletPass) => void }) {
  const t = useTranslations("admin.patients");
  const format = useFormat();
  const columns: Column<WalletPass>[] = [
    {
      header: t("passes.pass"),
      key: true,
      cell: (p) => (
        <>
          <p className="font-medium break-words text-slate-900">{p.templateName}</p>
          <p className="text-xs font-normal break-all text-slate-500">{t("shopCustomer", { shop: p.shopIdentifier, customer: p.shopCustomerId })}</p>
        </>
      ),
    },
    {
      header: t("passes.status"),
      cell: (p) => (
        <>
          <StatusBadge kind="walletPass" status={p.status} />
          {p.revokedAt !== null ? <p className="mt-1 text-xs text-slate-500">{t("passes.revokedAt", { at: format.dateTime(p.revokedAt) })}</p> : null}
        </>
      ),
    },
    { header: t("passes.issued"), className: "md:whitespace-nowrap text-slate-700", cell: (p) => format.dateTime(p.createdAt) },
    { header: t("passes.lastMessage"), className: "md:max-w-xs wrap-break-word text-slate-700", cell: (p) => p.lastMessage ?? "—" },
    {
      header: t("passes.actions"),
      headerHidden: true,
      cell: (p) => (p.revokedAt === null ? <RevokePass pass={p} onRevoked={onRevoked} /> : null),
    },
  ];
  return (
    <section aria-labelledby="wallet-passes-heading" className="space-y-3">
      <h2 id="wallet-passes-heading" className="text-lg font-semibold text-slate-900">
        {t("passes.heading")}
      </h2>
      <DataTable
        label={t("passes.heading")}
        columns={columns}
        rows={passes}
        rowKey={(p) => p.uid}
        rowClassName={() => "align-top"}
        empty={<EmptyState title={t("passes.none")}>{t("passes.noneHint")}</EmptyState>}
      />
    </section>
  );
}

function RevokePass({ pass, onRevoked }: { pass: WalletPass; onRevoked: (pass: WalletPass) => void }) {
  const t = useTranslations("admin.patients.passes");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(trpc.admin.patients.revokeWalletPass.mutationOptions());
  const names = { template: pass.templateName, customer: pass.shopCustomerId };
  return (
    <div className="md:text-right">
      <ConfirmButton
        className="whitespace-nowrap"
        buttonTone="secondary"
        buttonLabel={t("revokeLabel", names)}
        title={t("revokeTitle", names)}
        confirmLabel={t("confirmRevoke")}
        pendingLabel={t("revoking")}
        onConfirm={async () => {
          await revoke.mutateAsync({ passUid: pass.uid });
          onRevoked(pass);
          await queryClient.invalidateQueries({ queryKey: trpc.admin.patients.get.pathKey() });
        }}
        consequence={
          <>
            <p>{t("revokeConsequence")}</p>
            <p>{t("revokeFinal")}</p>
          </>
        }
      >
        {t("revoke")}
      </ConfirmButton>
    </div>
  );
}

/** The patient's orders, newest first, each linking to its order page; the page of the list is in the URL (`page`). */
function PatientOrders({ uid }: { uid: string }) {
  const t = useTranslations("admin.patients");
  const format = useFormat();
  const trpc = useTRPC();
  const url = useUrlQuery();
  const page = pageOfQuery(url.get("page"));
  const orders = useQuery(trpc.admin.patients.orders.queryOptions({ uid, page, limit: ORDERS_PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const columns: Column<PatientOrder>[] = [
    {
      header: t("orders.order"),
      key: true,
      cell: (o) => (
        <Link prefetch={false} href={`/admin/orders/${o.uid}`} className="font-medium text-brand-700 hover:underline">
          {o.name}
        </Link>
      ),
    },
    { header: t("orders.status"), cell: (o) => <OrderStatusBadge status={o.status} onHold={o.onHold} pharmacyOrderStatuses={o.pharmacyOrderStatuses} /> },
    { header: t("orders.shop"), className: "text-slate-700", cell: (o) => o.shop ?? "—" },
    { header: t("orders.items"), className: "md:text-right tabular-nums", cell: (o) => format.number(o.itemCount) },
    { header: t("orders.created"), className: "md:whitespace-nowrap text-slate-600", cell: (o) => format.dateTime(o.createdAt) },
  ];
  return (
    <section aria-labelledby="patient-orders-heading" className="space-y-3">
      <h2 id="patient-orders-heading" className="text-lg font-semibold text-slate-900">
        {t("orders.heading")}
      </h2>
      <QueryView
        query={orders}
        loadingLabel={t("orders.loading")}
        isEmpty={(data) => data.items.length === 0}
        empty={<EmptyState title={t("orders.none")} />}
      >
        {(data) => (
          <DataTable
            label={t("orders.heading")}
            columns={columns}
            rows={data.items}
            rowKey={(o) => o.uid}
            pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("orders.one"), t("orders.other")]} onPage={(next) => url.set({ page: queryOfPage(next) })} />}
          />
        )}
      </QueryView>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}
