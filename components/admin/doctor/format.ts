/** How the doctors' workspace names prescription statuses (as the API spells them) and shows its badges. */
const STATUS_LABELS: Record<string, string> = {
  "waiting for doctor": "Waiting for doctor",
  ON_HOLD: "On hold",
  approved: "Approved, not signed",
  declined: "Declined",
  signed: "Signed (QES)",
  NON_QES_SIGNED: "Signed (without QES)",
  EXTERNALLY_SIGNED: "Signed externally",
  cancelled: "Cancelled",
};

const STATUS_TONES: Record<string, string> = {
  "waiting for doctor": "bg-amber-50 text-amber-800 ring-amber-200",
  ON_HOLD: "bg-orange-50 text-orange-800 ring-orange-200",
  approved: "bg-sky-50 text-sky-800 ring-sky-200",
  declined: "bg-red-50 text-red-800 ring-red-200",
  signed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  NON_QES_SIGNED: "bg-emerald-50 text-emerald-800 ring-emerald-200",
};

export const prescriptionStatusLabel = (status: string) => STATUS_LABELS[status] ?? status;
export const prescriptionStatusTone = (status: string) => STATUS_TONES[status] ?? "bg-slate-100 text-slate-700 ring-slate-200";

/** "2 h 5 min", "12 min", "less than a minute": how long someone has waited. */
export function waitedFor(sinceUnixSeconds: number, nowMs: number): string {
  const minutes = Math.max(0, Math.floor((nowMs / 1000 - sinceUnixSeconds) / 60));
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}
