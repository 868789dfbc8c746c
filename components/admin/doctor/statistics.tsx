"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { TextField } from "@/components/ui/controls";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { statisticsInput } from "@/server/trpc/routers/doctor.schemas";

/** A day (YYYY-MM-DD, the doctor's time zone) as Unix seconds: its first second, or its last. */
function dayToUnix(day: string, end: boolean): number | null {
  const [y, m, d] = day.split("-").map(Number);
  if (!y || !m || !d) return null;
  const date = end ? new Date(y, m - 1, d, 23, 59, 59) : new Date(y, m - 1, d, 0, 0, 0);
  return Number.isNaN(date.getTime()) ? null : Math.floor(date.getTime() / 1000);
}

const isoDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/** The doctor's own statistics over a range of days (default: the last 30 days, today included). */
export function DoctorStatistics() {
  const trpc = useTRPC();
  const [from, setFrom] = useState(() => isoDay(new Date(Date.now() - 29 * 24 * 3600_000)));
  const [to, setTo] = useState(() => isoDay(new Date()));
  const range = statisticsInput.safeParse({ from: dayToUnix(from, false), to: dayToUnix(to, true) });
  const issues = (field: string) => (range.success ? undefined : range.error.issues.filter((i) => i.path[0] === field).map((i) => i.message));
  const stats = useQuery(trpc.doctor.statistics.get.queryOptions(range.success ? range.data : { from: 0, to: 0 }, { enabled: range.success }));

  return (
    <div className="space-y-6">
      <form className="flex flex-wrap items-start gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" onSubmit={(e) => e.preventDefault()}>
        <div className="w-48">
          <TextField label="From" type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} errors={issues("from") ?? fieldErrors(stats.error, "from")} required />
        </div>
        <div className="w-48">
          <TextField label="To" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} errors={issues("to") ?? fieldErrors(stats.error, "to")} required />
        </div>
        <p className="basis-full text-xs text-slate-500">Both days included, in your time zone. Decisions count on the day they were made.</p>
      </form>

      {!range.success ? null : stats.isPending ? (
        <LoadingState label="Loading your statistics…" />
      ) : stats.isError ? (
        <ErrorState message={errorMessage(stats.error)} onRetry={() => void stats.refetch()} />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Stat label="Prescriptions signed" value={stats.data.signed} />
          <Stat label="Prescriptions declined" value={stats.data.declined} />
          <Stat label="Still to decide (assigned to you)" value={stats.data.pending} />
          <Stat label="Consultations completed" value={stats.data.consultationsCompleted} />
          <Stat
            label="Average consultation"
            value={averageLabel(stats.data.averageConsultationMinutes)}
          />
        </dl>
      )}
    </div>
  );
}

const averageLabel = (minutes: number | null) => (minutes === null ? "—" : minutes < 1 ? "under 1 min" : `${minutes} min`);

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
