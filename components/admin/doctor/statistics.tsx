"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { TextField } from "@/components/ui/controls";
import { useZodErrorMap } from "@/components/ui/form";
import { dateInputToUnix, unixToDateInput, useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { useUrlQuery } from "@/components/ui/use-url-state";
import { fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { statisticsInput } from "@/server/trpc/routers/doctor.schemas";

/** The doctor's own statistics over a range of days (default: the last 30 days, today included), the range in the URL. */
export function DoctorStatistics() {
  const t = useTranslations("doctor.statistics");
  const zodErrors = useZodErrorMap();
  const format = useFormat();
  const trpc = useTRPC();
  const query = useUrlQuery();
  const nowSeconds = Math.floor(Date.now() / 1000);
  const from = query.get("from") ?? unixToDateInput(nowSeconds - 29 * 24 * 3600);
  const to = query.get("to") ?? unixToDateInput(nowSeconds);
  const range = statisticsInput.safeParse({ from: dateInputToUnix(from, "start") ?? null, to: dateInputToUnix(to, "end") ?? null }, { error: zodErrors });
  const issues = (field: string) => (range.success ? undefined : range.error.issues.filter((i) => i.path[0] === field).map((i) => i.message));
  const stats = useQuery(trpc.doctor.statistics.get.queryOptions(range.success ? range.data : { from: 0, to: 0 }, { enabled: range.success }));
  const minutes = (value: number | null) => (value === null ? "—" : value < 1 ? t("underMinute") : t("minutes", { minutes: format.number(value) }));

  return (
    <div className="space-y-6">
      <form className="flex flex-wrap items-start gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" onSubmit={(e) => e.preventDefault()}>
        <div className="w-full sm:w-48">
          <TextField label={t("from")} type="date" value={from} max={to} onChange={(e) => query.set({ from: e.target.value, to })} errors={issues("from") ?? fieldErrors(stats.error, "from")} required />
        </div>
        <div className="w-full sm:w-48">
          <TextField label={t("to")} type="date" value={to} min={from} onChange={(e) => query.set({ from, to: e.target.value })} errors={issues("to") ?? fieldErrors(stats.error, "to")} required />
        </div>
        <p className="basis-full text-xs text-slate-500">{t("rangeHint")}</p>
      </form>

      {!range.success ? null : (
        <QueryView query={stats} loadingLabel={t("loading")}>
          {(data) => (
            <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <Stat label={t("signed")} value={format.number(data.signed)} />
              <Stat label={t("declined")} value={format.number(data.declined)} />
              <Stat label={t("pending")} value={format.number(data.pending)} />
              <Stat label={t("consultations")} value={format.number(data.consultationsCompleted)} />
              <Stat label={t("average")} value={minutes(data.averageConsultationMinutes)} />
            </dl>
          )}
        </QueryView>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
