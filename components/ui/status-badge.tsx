"use client";

import { statusTone, TONE_CLASSES, useStatusLabel, type StatusKind } from "./status";

/** A status value of `kind` as its label in its tone (components/ui/status.ts); the spec's value stays in `data-status`. */
export function StatusBadge({ kind, status }: { kind: StatusKind; status: string }) {
  const label = useStatusLabel();
  return (
    <span data-status={status} className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE_CLASSES[statusTone(kind, status)]}`}>
      {label(kind, status)}
    </span>
  );
}
