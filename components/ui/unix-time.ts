/** Unix seconds (the portals' wire dates) for people: the browser's time zone, one fixed format. */
const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

export const formatUnixTime = (seconds: number | null | undefined, none = "—"): string =>
  seconds === null || seconds === undefined ? none : dateTime.format(new Date(seconds * 1000));

/** A `<input type="date">` value (local day) as Unix seconds at its start or end, for inclusive filters. */
export function dateInputToUnix(value: string, end: "start" | "end"): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = end === "start" ? new Date(y, m - 1, d, 0, 0, 0) : new Date(y, m - 1, d, 23, 59, 59);
  return Math.floor(date.getTime() / 1000);
}

/** Unix seconds as a `<input type="date">` value (local day). */
export function unixToDateInput(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
