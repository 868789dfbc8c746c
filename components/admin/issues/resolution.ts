import { useTranslations } from "next-intl";
import { useStatusLabel } from "@/components/ui/status";

type Outcome = { resolved: boolean; releasedTo: string | null; keptOnHold: "not_on_hold" | "other_open_threads" | null };

/** What resolving did, in words (resolveIssueThread's outcome), in the page's language. */
export function useResolutionText(): (outcome: Outcome, orderName: string) => { tone: "success" | "warning"; text: string } {
  const t = useTranslations("admin.issues.resolution");
  const statusLabel = useStatusLabel();
  return (outcome, name) => {
    if (!outcome.resolved) return { tone: "warning", text: t("alreadyResolved", { name }) };
    if (outcome.releasedTo) return { tone: "success", text: t("releasedTo", { name, status: statusLabel("pharmacyOrder", outcome.releasedTo) }) };
    if (outcome.keptOnHold === "other_open_threads") return { tone: "warning", text: t("otherOpenThreads", { name }) };
    if (outcome.keptOnHold === "not_on_hold") return { tone: "success", text: t("notOnHold", { name }) };
    return { tone: "success", text: t("staysOnHold", { name }) };
  };
}
