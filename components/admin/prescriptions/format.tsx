/** How the admin tool names and colours prescription statuses and sources. */
const STATUS_TONES: Record<string, string> = {
  "waiting for doctor": "bg-sky-50 text-sky-800 ring-sky-200",
  ON_HOLD: "bg-amber-50 text-amber-900 ring-amber-200",
  approved: "bg-violet-50 text-violet-800 ring-violet-200",
  declined: "bg-red-50 text-red-800 ring-red-200",
  signed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  NON_QES_SIGNED: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  EXTERNALLY_SIGNED: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  cancelled: "bg-slate-100 text-slate-600 ring-slate-200",
};

/** A prescription status by its spec name. */
export function PrescriptionStatusBadge({ status }: { status: string }) {
  const tone = STATUS_TONES[status] ?? "bg-slate-100 text-slate-700 ring-slate-200";
  return <span className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>{status}</span>;
}

export const SOURCE_LABELS: Record<string, string> = {
  DOCTOR: "Doctor of the service",
  INLINE_PDF: "Signed PDF at intake",
  EXTERNAL: "Signed outside",
};
