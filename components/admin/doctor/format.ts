import { useTranslations } from "next-intl";
import { useFormat } from "@/components/ui/format";

/** "2 h 5 min", "12 min", "less than a minute": how long someone has waited, in the page's language. */
export function useWaitedFor() {
  const t = useTranslations("doctor.waited");
  return (sinceUnixSeconds: number, nowMs: number): string => {
    const minutes = Math.max(0, Math.floor((nowMs / 1000 - sinceUnixSeconds) / 60));
    if (minutes < 1) return t("underMinute");
    if (minutes < 60) return t("minutes", { minutes });
    const hours = Math.floor(minutes / 60);
    if (hours < 48) return t("hours", { hours, minutes: minutes % 60 });
    return t("days", { days: Math.floor(hours / 24) });
  };
}

/** A calendar day as the wire gives it (YYYY-MM-DD: a date of birth) in the page's format; `none` when there is none. */
export function useDay() {
  const format = useFormat();
  return (day: string | null | undefined, none?: string): string => format.calendarDate(day, none);
}
