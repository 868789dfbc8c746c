/**
 * An audit-log entry in the reader's language: its message admin.audit.entries.<key> worded with its
 * values (statuses and history notes named by their labels), its action by admin.audit.actions.<action>;
 * an entry with no values or no message (rows written before,
 * docs/decisions/portals.md#every-word-in-the-readers-language) as written.
 */
import type { StatusLabel } from "@/components/ui/status";

type Translator = { (key: string, values?: Record<string, string | number>): string; has(key: string): boolean };
export type AuditWords = { key: string; values: Record<string, string | number | null> } | null;

/** Values whose content is a status: named by the status label of the entry's kind. */
const STATUS_KIND: Record<string, "pharmacyOrder" | "prescription"> = { pharmacy_order: "pharmacyOrder", prescription: "prescription" };

/** A note the system wrote, in words (components/ui/status.ts systemNoteOf); a person's own note as written. */
type SystemNote = (kind: "prescription" | "pharmacyOrder", note: string) => string;

export function auditTextOf(t: Translator, statusLabel: StatusLabel, noteLabel: (label: string) => string, systemNote?: SystemNote) {
  return (entry: { summary: string; words: AuditWords }): string => {
    const words = entry.words;
    if (!words || !t.has(`entries.${words.key}`)) return entry.summary;
    const statusKind = STATUS_KIND[words.key.split(".")[0] ?? ""];
    const values: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(words.values)) {
      const text = value ?? "";
      const isStatus = statusKind && (name === "from" || name === "to") && typeof text === "string" && text;
      // A pharmacy order's status named by another kind's entry (an issue thread's order went back to it).
      if (name === "orderStatus" && typeof text === "string" && text) values[name] = statusLabel("pharmacyOrder", text);
      // The changed fields, as the summary lists them in English: each named by admin.audit.fieldWords.
      else if (name === "fields" && typeof text === "string") values[name] = text.split(", ").map((w) => (t.has(`fieldWords.${w}`) ? t(`fieldWords.${w}`) : w)).join(", ");
      else values[name] = isStatus ? (words.key === "pharmacy_order.note" ? noteLabel(text) : statusLabel(statusKind, text)) : text;
    }
    const text = t(`entries.${words.key}`, values);
    // A history entry's comment or note is the person's own text, quoted as written; one the system wrote is worded.
    const note = words.values.note;
    if (typeof note !== "string" || !note) return text;
    const worded = statusKind && systemNote ? systemNote(statusKind, note) : note;
    return worded !== note ? t("withSystemNote", { text, note: worded }) : t("withNote", { text, note });
  };
}

/** What happened, in a word ("created" → "erstellt"); an action with no message readable as it is. */
export function auditActionOf(t: Translator) {
  return (action: string): string => (t.has(`actions.${action}`) ? t(`actions.${action}`) : action.replaceAll("_", " "));
}
