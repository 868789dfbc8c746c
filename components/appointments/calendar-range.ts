"use client";

import { addDays, dayInZone, mondayOf, zonedToUnix } from "@/components/ui/format";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { useUrlQuery } from "@/components/ui/use-url-state";

export type CalendarView = "day" | "week";

/**
 * The calendar's place, kept in the URL (`view`, `day`, `doctor`): a day or the week (Monday to
 * Sunday) around `day`, today when none, in the user's time zone. `from`/`to` are that range's
 * first moment and the next range's, as Unix seconds (UTC on the wire).
 */
export function useCalendarRange() {
  const query = useUrlQuery();
  const zone = useTimeZone();
  const today = dayInZone(Math.floor(Date.now() / 1000), zone);
  const view: CalendarView = query.get("view") === "week" ? "week" : "day";
  const asked = query.get("day");
  const day = asked && addDays(asked, 0) === asked ? asked : today;
  const first = view === "week" ? mondayOf(day)! : day;
  const length = view === "week" ? 7 : 1;
  const last = addDays(first, length - 1)!;
  const from = zonedToUnix(first, zone)!;
  const to = zonedToUnix(addDays(first, length)!, zone)!;
  const move = (steps: number) => query.set({ day: addDays(day, steps * length) });
  return {
    zone,
    view,
    day,
    first,
    last,
    from,
    to,
    isToday: view === "day" ? day === today : first <= today && today <= last,
    doctorUid: query.get("doctor"),
    setView: (next: CalendarView) => query.set({ view: next === "day" ? undefined : next }),
    previous: () => move(-1),
    next: () => move(1),
    today: () => query.set({ day: undefined }),
    setDoctor: (uid: string | undefined) => query.set({ doctor: uid }),
  };
}
