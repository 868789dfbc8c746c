/** How the pharmacy portal shows money and times (dates from the server are Unix seconds). */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(cents / 100);
}

export function formatDateTime(unixSeconds: number | null): string {
  if (unixSeconds === null) return "—";
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(new Date(unixSeconds * 1000));
}

/** "12.50" or "12,5" (euros) as cents; null when it is not an amount of money. */
export function parseEuros(text: string): number | null {
  const match = /^\s*(\d{1,10})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

export const euros = (cents: number) => (cents / 100).toFixed(2);
