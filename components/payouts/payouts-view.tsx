"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import type { inferRouterOutputs } from "@trpc/server";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { usePayoutDescription, usePayoutReviewReason, useStatusLabel } from "@/components/ui/status";
import { EmptyState } from "@/components/ui/states";
import { QueryView } from "@/components/ui/query-view";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery, type UrlUpdates } from "@/components/ui/use-url-state";
import type { AppRouter } from "@/server/trpc/router";

/** Both portals' procedure is one router (server/trpc/routers/payouts.ts): one shape. */
type Payouts = inferRouterOutputs<AppRouter>["pharmacy"]["payouts"]["list"];
const STATUSES = ["projected", "routed"] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string | undefined): value is Status => STATUSES.includes(value as Status);

const PAGE_SIZE = 50;

/**
 * Which payouts: a pharmacy's, in the pharmacy portal (the pharmacy its pharmacist works for or
 * picked); the organisation's, in the admin tool, with a pharmacy filter and a pharmacy column.
 */
export type PayoutsScope = { portal: "pharmacy"; pharmacyUid: string } | { portal: "admin" };

/**
 * The payouts page of both portals: rows with filters and the totals of every row they match.
 * Search, status, dates, the admin's pharmacy and the page live in the query string
 * (`?q=…&status=routed&from=2026-01-01&to=…&pharmacy=…&page=2`): a deep link, reload and back keep them.
 */
export function PayoutsView({ scope }: { scope: PayoutsScope }) {
  const t = useTranslations("payouts");
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const url = useUrlQuery();
  const admin = scope.portal === "admin";
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const statusParam = url.get("status");
  const status = isStatus(statusParam) ? statusParam : undefined;
  const fromDay = url.get("from") ?? "";
  const toDay = url.get("to") ?? "";
  const pharmacyParam = admin ? (url.get("pharmacy") ?? "") : "";
  const pharmacies = useQuery({ ...trpc.admin.catalogue.pharmacies.queryOptions(), enabled: admin });
  // A new filter starts at the first page.
  const filter = (updates: UrlUpdates) => url.set({ ...updates, page: undefined });
  const input = {
    pharmacyUid: scope.portal === "pharmacy" ? scope.pharmacyUid : pharmacyParam || undefined,
    status,
    search,
    from: dateInputToUnix(fromDay, "start"),
    to: dateInputToUnix(toDay, "end"),
    page,
    limit: PAGE_SIZE,
  };
  const payouts = useQuery(trpc[scope.portal].payouts.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const filtered = Boolean(status || fromDay || toDay || search || pharmacyParam);
  const filterError = (field: string) => fieldErrors(payouts.error, field);
  const anyFilterError = Boolean(filterError("from") || filterError("to"));

  return (
    <div className="space-y-6">
      <div className={`grid gap-4 sm:grid-cols-2 ${admin ? "lg:grid-cols-3 2xl:grid-cols-6" : "lg:grid-cols-5"}`}>
        <TextField label={t("search")} type="search" placeholder={t("searchPlaceholder")} maxLength={100} value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        {admin ? (
          <SelectField label={t("pharmacy")} value={pharmacyParam} onChange={(e) => filter({ pharmacy: e.target.value || undefined })}>
            <option value="">{t("allPharmacies")}</option>
            {/* A deep link's pharmacy shows before the list has loaded. */}
            {pharmacyParam && !pharmacies.data?.some((p) => p.uid === pharmacyParam) ? <option value={pharmacyParam}>{pharmacyParam}</option> : null}
            {(pharmacies.data ?? []).map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
        ) : null}
        <SelectField label={t("status")} value={status ?? ""} onChange={(e) => filter({ status: e.target.value })}>
          <option value="">{t("all")}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("payout", s)}
            </option>
          ))}
        </SelectField>
        <TextField label={t("from")} type="date" value={fromDay} errors={filterError("from")} onChange={(e) => filter({ from: e.target.value })} />
        <TextField label={t("to")} type="date" value={toDay} errors={filterError("to")} onChange={(e) => filter({ to: e.target.value })} />
        <div className="flex items-end">
          <Button
            tone="secondary"
            disabled={!filtered && !searchText}
            onClick={() => {
              setSearchText("");
              url.set({ q: undefined, status: undefined, from: undefined, to: undefined, pharmacy: undefined, page: undefined });
            }}
          >
            {t("clear")}
          </Button>
        </div>
      </div>
      <p className="text-xs text-slate-500">{t("datesHint")}</p>
      {payouts.isError && anyFilterError ? null : (
        <QueryView
          query={payouts}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.items.length === 0 && data.total === 0}
          empty={
            <EmptyState title={filtered ? t("emptyFiltered") : t("empty")}>
              {filtered ? t("emptyFilteredHint") : t(admin ? "emptyHintAdmin" : "emptyHint")}
            </EmptyState>
          }
        >
          {(data) => <PayoutsResult data={data} filtered={filtered} page={page} onPage={setPage} showPharmacy={admin} />}
        </QueryView>
      )}
    </div>
  );
}

type PayoutRow = Payouts["items"][number];

/** The payout columns in the reader's language and formats; the receiving pharmacy's when the page spans pharmacies. */
function payoutColumns(
  t: ReturnType<typeof useTranslations<"payouts">>,
  format: ReturnType<typeof useFormat>,
  statusLabel: ReturnType<typeof useStatusLabel>,
  showPharmacy: boolean,
  describe: ReturnType<typeof usePayoutDescription>,
  reviewReason: ReturnType<typeof usePayoutReviewReason>,
): Column<PayoutRow>[] {
  const order: Column<PayoutRow> = {
    header: t("order"),
    key: true,
    cell: (row) => (
      <>
        <div className="font-medium text-slate-900">{row.pharmacy_order_name ?? "—"}</div>
        <div className="font-mono text-xs text-slate-500">{row.pharmacy_order_uid}</div>
      </>
    ),
  };
  const pharmacy: Column<PayoutRow> = { header: t("pharmacy"), className: "text-slate-700", cell: (row) => row.pharmacy.displayName };
  return [
    order,
    ...(showPharmacy ? [pharmacy] : []),
    {
      header: t("component"),
      cell: (row) => (
        <>
          <div className="text-slate-900">{statusLabel("payoutComponent", row.component_type)}</div>
          {row.routing_description ? (
            <div className="text-xs text-slate-500">{describe({ componentType: row.component_type, description: row.routing_description })}</div>
          ) : null}
        </>
      ),
    },
    {
      header: t("status"),
      cell: (row) => (
        <>
          <StatusBadge kind="payout" status={row.status} />
          {row.review ? (
            <div className="mt-1">
              <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">{t("needsReview")}</span>
              <div className="mt-1 text-xs text-slate-600">
                {t("flagged", { reason: reviewReason(row.review.reason) ?? t("flaggedNoReason"), at: format.dateTime(row.review.flaggedAt) })}
              </div>
            </div>
          ) : null}
        </>
      ),
    },
    { header: t("amount"), className: "whitespace-nowrap tabular-nums md:text-right", cell: (row) => format.money(row.amount, row.currency) },
    { header: t("orderCreated"), className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.pharmacy_order_created_at) },
    { header: t("routed"), className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.routing_created_at) },
    { header: t("providerRoute"), className: "min-w-40 text-xs text-slate-600", cell: (row) => <ProviderRoute row={row} /> },
  ];
}

/**
 * The row's route id; in the admin tool also its state at the payment provider (pending, failed or
 * not sent, with the reason) and, for a failed route, a Retry.
 */
function ProviderRoute({ row }: { row: PayoutRow }) {
  const t = useTranslations("payouts");
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retry = useMutation(trpc.admin.paymentProvider.retryRoute.mutationOptions());
  const routing = row.providerRouting;
  return (
    <>
      <div className="font-mono break-all">{row.provider_route_id ?? "—"}</div>
      {routing && routing.state !== "routed" ? (
        <div className={`mt-1 ${routing.state === "failed" ? "text-red-800" : "text-slate-600"}`}>
          {t(`providerRouting.${routing.state}`, { error: routing.error ?? "" })}
        </div>
      ) : null}
      {routing?.state === "failed" && row.uid ? (
        <div className="mt-2">
          <ConfirmButton
            buttonTone="secondary"
            buttonLabel={t("providerRouting.retryLabel", { component: statusLabel("payoutComponent", row.component_type), order: row.pharmacy_order_name ?? row.pharmacy_order_uid })}
            title={t("providerRouting.retryTitle")}
            confirmLabel={t("providerRouting.retryConfirm")}
            pendingLabel={t("providerRouting.retrying")}
            tone="primary"
            consequence={t("providerRouting.retryConsequence")}
            onConfirm={async () => {
              await retry.mutateAsync({ payoutUid: row.uid! });
              await queryClient.invalidateQueries({ queryKey: trpc.admin.payouts.pathKey() });
            }}
          >
            {t("providerRouting.retry")}
          </ConfirmButton>
        </div>
      ) : null}
    </>
  );
}

function PayoutsResult({
  data,
  filtered,
  page,
  onPage,
  showPharmacy,
}: {
  data: Payouts;
  filtered: boolean;
  page: number;
  onPage: (page: number) => void;
  showPharmacy: boolean;
}) {
  const t = useTranslations("payouts");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const describe = usePayoutDescription();
  const reviewReason = usePayoutReviewReason();
  return (
    <div className="space-y-4">
      <section aria-label={t("totals")}>
        <h2 className="text-sm font-semibold text-slate-900">{filtered ? t("totalsFiltered") : t("totals")}</h2>
        <dl className="mt-2 flex flex-wrap gap-4">
          {data.totals.map((total) => (
            <div key={`${total.status}-${total.currency}`} className="min-w-44 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
                {statusLabel("payout", total.status)} · {total.currency}
              </dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{format.money(total.amount, total.currency)}</dd>
              <dd className="text-xs text-slate-500">{t("rows", { count: total.count })}</dd>
            </div>
          ))}
        </dl>
      </section>
      <DataTable
        label={t("table")}
        columns={payoutColumns(t, format, statusLabel, showPharmacy, describe, reviewReason)}
        rows={data.items}
        rowKey={(row, i) => `${row.pharmacy_order_uid}-${row.component_type}-${i}`}
        rowClassName={() => "align-top"}
        pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("rowNoun"), t("rowsNoun")]} onPage={onPage} />}
      />
    </div>
  );
}
