"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { dayInZone, useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Notice } from "@/components/ui/states";
import { APPOINTMENT_STATUS } from "@/server/domain/meetings/statuses";
import { CancelAppointment } from "./cancel-appointment";
import type { Appointment, AppointmentDoor } from "./procedures";
import { RescheduleForm } from "./reschedule-form";
import { useReminderText } from "./reminders";

/**
 * The appointments of the range, by start: when, the patient, (for an administrator) the doctor, the
 * status with what became of a moved or cancelled one, the reminders; a confirmed one can be
 * rescheduled (a form under its row) or cancelled (asks once, with the reason).
 */
export function AppointmentList({ door, appointments, zone, showDay }: { door: AppointmentDoor; appointments: Appointment[]; zone: string; showDay: boolean }) {
  const t = useTranslations("appointments");
  const format = useFormat();
  const reminderText = useReminderText(zone);
  const [moving, setMoving] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const when = (a: Appointment) => {
    const times = a.endsAt ? t("timeRange", { start: format.time(a.startsAt, zone), end: format.time(a.endsAt, zone) }) : format.time(a.startsAt, zone);
    return showDay ? t("dayAndTime", { day: format.day(dayInZone(a.startsAt, zone), "short"), time: times }) : times;
  };

  const columns: Column<Appointment>[] = [
    { header: t("columns.when"), key: true, className: "md:whitespace-nowrap tabular-nums text-slate-900", cell: when },
    {
      header: t("columns.patient"),
      className: "text-slate-900",
      cell: (a) => (
        <>
          {a.patient.name}
          {a.patient.email ? <div className="text-xs text-slate-500 wrap-anywhere">{a.patient.email}</div> : null}
        </>
      ),
    },
    ...(door === "admin" ? [{ header: t("columns.doctor"), className: "text-slate-700", cell: (a: Appointment) => a.doctor.name }] : []),
    {
      header: t("columns.status"),
      cell: (a) => (
        <>
          <StatusBadge kind="appointment" status={a.status} />
          {a.rebookedAs ? (
            <div className="mt-1 text-xs text-slate-500">{t("movedTo", { when: format.dateTimeIn(a.rebookedAs.startsAt, zone) })}</div>
          ) : a.rebookedFrom ? (
            <div className="mt-1 text-xs text-slate-500">{t("movedFrom", { when: format.dateTimeIn(a.rebookedFrom.startsAt, zone) })}</div>
          ) : null}
          {a.cancelReason ? <div className="mt-1 text-xs text-slate-500 wrap-anywhere">{t("reasonWas", { reason: a.cancelReason })}</div> : null}
        </>
      ),
    },
    {
      header: t("columns.reminders"),
      className: "text-slate-700",
      cell: (a) =>
        a.reminders.length === 0 ? (
          <span className="text-slate-500">{t("noReminders")}</span>
        ) : (
          <ul className="space-y-0.5 text-xs">
            {a.reminders.map((r) => (
              <li key={`${r.recipientRole}-${r.dueAt}`}>{reminderText(r)}</li>
            ))}
          </ul>
        ),
    },
    {
      header: t("columns.actions"),
      headerHidden: true,
      className: "md:text-right",
      cell: (a) =>
        a.status === APPOINTMENT_STATUS.confirmed ? (
          <div className="flex flex-wrap gap-2 md:flex-nowrap md:justify-end">
            <Button
              tone="secondary"
              aria-expanded={moving === a.uid}
              aria-label={t("reschedule.openFor", { patient: a.patient.name, when: format.dateTimeIn(a.startsAt, zone) })}
              onClick={() => {
                setDone(null);
                setMoving(moving === a.uid ? null : a.uid);
              }}
            >
              {t("reschedule.open")}
            </Button>
            <CancelAppointment door={door} appointment={a} zone={zone} onDone={() => setDone(t("cancel.done", { patient: a.patient.name }))} />
          </div>
        ) : null,
    },
  ];

  return (
    <div className="space-y-3">
      {done ? <Notice>{done}</Notice> : null}
      <DataTable
        label={t("tableLabel")}
        columns={columns}
        rows={appointments}
        rowKey={(a) => a.uid}
        rowClassName={(a) => `align-top ${a.status === APPOINTMENT_STATUS.confirmed ? "" : "text-slate-500"}`}
        detail={(a) =>
          moving === a.uid ? (
            <RescheduleForm
              door={door}
              appointment={a}
              zone={zone}
              onCancel={() => setMoving(null)}
              onDone={(message) => {
                setMoving(null);
                setDone(message);
              }}
            />
          ) : null
        }
      />
    </div>
  );
}
