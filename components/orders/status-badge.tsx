import { statusTone } from "./format";

/** A pharmacy order status by its spec name. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${statusTone(status)}`}>{status}</span>;
}
