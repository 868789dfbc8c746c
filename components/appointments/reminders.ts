"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/components/ui/format";
import type { Appointment } from "./procedures";

type Reminder = Appointment["reminders"][number];

/** "Patient · 1 h 30 min before · sent 09:31": a reminder in words, its lead time in days, hours and minutes. */
export function useReminderText(zone: string) {
  const t = useTranslations("appointments.reminders");
  const format = useFormat();
  const lead = useLeadTime();
  return (r: Reminder) => {
    const role = t(`roles.${r.recipientRole as "patient" | "doctor" | "admin"}`);
    const before = t("before", { lead: lead(r.minutesBefore) });
    return r.sentAt === null ? t("due", { role, before }) : t("sent", { role, before, at: format.time(r.sentAt, zone) });
  };
}

/** Minutes as "2 d 3 h", "1 h 30 min", "15 min", "0 min". */
export function useLeadTime() {
  const t = useTranslations("appointments.reminders");
  return (minutes: number) => {
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const rest = minutes % 60;
    const parts = [days ? t("days", { days }) : null, hours ? t("hours", { hours }) : null, rest || minutes === 0 ? t("minutes", { minutes: rest }) : null];
    return parts.filter(Boolean).join(" ");
  };
}
