import type { StatusLabel } from "@/components/ui/status";

/** What resolving did, in words (resolveIssueThread's outcome). */
export function resolutionText(
  outcome: { resolved: boolean; releasedTo: string | null; keptOnHold: "not_on_hold" | "other_open_threads" | null },
  orderName: string,
  statusLabel: StatusLabel,
): { tone: "success" | "warning"; text: string } {
  if (!outcome.resolved) return { tone: "warning", text: `The thread of ${orderName} was already resolved by someone else.` };
  if (outcome.releasedTo) return { tone: "success", text: `Resolved. ${orderName} went back to “${statusLabel("pharmacyOrder", outcome.releasedTo)}”.` };
  if (outcome.keptOnHold === "other_open_threads") return { tone: "warning", text: `Resolved. ${orderName} stays on hold: another of its threads is still open.` };
  if (outcome.keptOnHold === "not_on_hold") return { tone: "success", text: `Resolved. ${orderName} was no longer on hold.` };
  return { tone: "success", text: `Resolved. ${orderName} stays on hold.` };
}
