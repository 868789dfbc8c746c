/** How the order pages show values: money from minor units, Unix seconds as local date and time. */
export function formatMoney(amount: number | null | undefined, currency = "EUR"): string {
  if (amount === null || amount === undefined) return "—";
  return new Intl.NumberFormat("de-DE", { style: "currency", currency }).format(amount / 100);
}

export function formatDateTime(unixSeconds: number | null | undefined): string {
  if (!unixSeconds) return "—";
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(new Date(unixSeconds * 1000));
}

/** A date input's value (YYYY-MM-DD, the browser's day) as Unix seconds: its first or its last second. */
export function dayToUnixSeconds(day: string, end: boolean): number | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? "23:59:59" : "00:00:00"}`);
  return Number.isNaN(date.getTime()) ? undefined : Math.floor(date.getTime() / 1000);
}

export const DELIVERY_TYPE_LABELS: Record<string, string> = { shipping: "Shipping", pickup: "Pharmacy pickup" };
