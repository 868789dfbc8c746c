"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button, SelectField } from "@/components/ui/controls";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { AppointmentList } from "./appointment-list";
import { useCalendarRange } from "./calendar-range";
import { useAppointmentProcedures, type AppointmentDoor } from "./procedures";
import { ScheduleForm } from "./schedule-form";

/** Reminders are sent and colleagues book meanwhile: the list is read again every minute. */
const REFRESH_MS = 60_000;

/**
 * The appointments of a day or a week, in the user's time zone: previous, next and today, the view,
 * for an administrator a doctor filter; "Schedule appointment"; each appointment with its patient,
 * time, status and reminders, to reschedule or cancel. The admin tool and the doctors' workspace
 * show the same page through their own door (`door`).
 */
export function Appointments({ door }: { door: AppointmentDoor }) {
  const t = useTranslations("appointments");
  const format = useFormat();
  const procedures = useAppointmentProcedures(door);
  const range = useCalendarRange();
  const [scheduling, setScheduling] = useState(false);
  const [scheduled, setScheduled] = useState<string | null>(null);
  const doctors = useQuery(procedures.doctors.queryOptions(undefined, { enabled: door === "admin" }));
  const input = { from: range.from, to: range.to, ...(door === "admin" && range.doctorUid ? { doctorUid: range.doctorUid } : {}) };
  const list = useQuery(procedures.list.queryOptions(input, { refetchInterval: REFRESH_MS }));
  const unit = range.view === "day" ? "day" : "week";
  const heading = range.view === "day" ? format.day(range.day) : t("weekOf", { first: format.day(range.first, "short"), last: format.day(range.last, "short") });

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label={t("view")} className="inline-flex rounded-md shadow-sm">
            {(["day", "week"] as const).map((view) => (
              <Button key={view} tone={range.view === view ? "primary" : "secondary"} aria-pressed={range.view === view} onClick={() => range.setView(view)}>
                {t(`views.${view}`)}
              </Button>
            ))}
          </div>
          <Button tone="secondary" aria-label={t(`previous.${unit}`)} onClick={range.previous}>
            <span aria-hidden>←</span>
          </Button>
          <Button tone="secondary" disabled={range.isToday} onClick={range.today}>
            {t("today")}
          </Button>
          <Button tone="secondary" aria-label={t(`next.${unit}`)} onClick={range.next}>
            <span aria-hidden>→</span>
          </Button>
        </div>
        {door === "admin" ? (
          <div className="w-full sm:w-64">
            <SelectField label={t("doctorFilter")} value={range.doctorUid ?? ""} onChange={(e) => range.setDoctor(e.target.value || undefined)}>
              <option value="">{t("allDoctors")}</option>
              {(doctors.data ?? []).map((d) => (
                <option key={d.uid} value={d.uid}>
                  {d.name}
                </option>
              ))}
            </SelectField>
          </div>
        ) : null}
        <Button
          onClick={() => {
            setScheduled(null);
            setScheduling(true);
          }}
          disabled={scheduling}
        >
          {t("schedule.open")}
        </Button>
      </div>

      {scheduled ? <Notice>{scheduled}</Notice> : null}
      {scheduling ? (
        <ScheduleForm
          door={door}
          day={range.day}
          zone={range.zone}
          doctorUid={range.doctorUid}
          onCancel={() => setScheduling(false)}
          onDone={(message) => {
            setScheduling(false);
            setScheduled(message);
          }}
        />
      ) : null}

      <section aria-labelledby="appointments-range" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="appointments-range" className="text-base font-semibold text-slate-900">
            {heading}
          </h2>
          <p className="text-xs text-slate-500">{t("timesIn", { zone: range.zone })}</p>
        </div>
        <QueryView
          query={list}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.items.length === 0}
          empty={<EmptyState title={t(`empty.${unit}`)}>{t("emptyHint")}</EmptyState>}
        >
          {(data) => (
            <>
              {data.more ? <Notice tone="warning">{t("more")}</Notice> : null}
              <AppointmentList door={door} appointments={data.items} zone={range.zone} showDay={range.view === "week"} />
            </>
          )}
        </QueryView>
      </section>
    </div>
  );
}
