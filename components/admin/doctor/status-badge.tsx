import { prescriptionStatusLabel, prescriptionStatusTone } from "./format";

export function PrescriptionStatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${prescriptionStatusTone(status)}`}>
      {prescriptionStatusLabel(status)}
    </span>
  );
}
