"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { useUrlQuery } from "@/components/ui/use-url-state";
import { useTRPC } from "@/components/trpc/react";
import { AUDIT_LOG_KINDS } from "@/server/domain/audit/kinds";

/** The audit log's filters, as the query string holds them: a deep link, a reload and back keep them. */
export const FILTER_KEYS = ["kind", "actor", "from", "to", "entity", "text"] as const;
export type AuditFilters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

export function useAuditFilters(): [AuditFilters, (changes: AuditFilters) => void] {
  const query = useUrlQuery();
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, query.get(key)])) as AuditFilters;
  return [filters, query.set];
}

/**
 * The filter form: kind, who and the dates apply at once; the entity uid and the text on "Apply"
 * (so a keystroke is not a query). Typed drafts follow the URL when it changes under them (back).
 */
export function AuditFilterForm({ filters, onChange, reversed }: { filters: AuditFilters; onChange: (changes: AuditFilters) => void; reversed: boolean }) {
  const t = useTranslations("admin.audit");
  const people = useTranslations("admin.people.roles");
  const families = useTranslations("admin.apiKeys.families");
  const word = (translate: { has: (key: never) => boolean; (key: never): string }, key: string) => (translate.has(key as never) ? translate(key as never) : key);
  const detailOf = (a: { role: string | null; family: string | null; revoked: boolean }) =>
    a.role !== null ? word(people as never, a.role) : t("keyDetail", { family: word(families as never, a.family ?? ""), revoked: String(a.revoked) });
  const trpc = useTRPC();
  const actors = useQuery(trpc.admin.audit.actors.queryOptions());
  const [entityDraft, setEntityDraft] = useState(filters.entity ?? "");
  const [textDraft, setTextDraft] = useState(filters.text ?? "");
  const [shown, setShown] = useState({ entity: filters.entity, text: filters.text });
  if (shown.entity !== filters.entity || shown.text !== filters.text) {
    setShown({ entity: filters.entity, text: filters.text });
    setEntityDraft(filters.entity ?? "");
    setTextDraft(filters.text ?? "");
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    onChange({ entity: entityDraft.trim(), text: textDraft.trim() });
  }

  return (
    <form aria-label={t("filters")} onSubmit={apply} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField label={t("kind")} value={filters.kind ?? ""} onChange={(e) => onChange({ kind: e.target.value })}>
          <option value="">{t("allKinds")}</option>
          {AUDIT_LOG_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("who")} value={filters.actor ?? ""} onChange={(e) => onChange({ actor: e.target.value })}>
          <option value="">{t("anyone")}</option>
          <option value="SYSTEM">{t("system")}</option>
          {(actors.data ?? []).map((a) => (
            <option key={`${a.type}:${a.uid}`} value={`${a.type}:${a.uid}`}>
              {t("actorOption", { name: a.type === "API_KEY" ? t("apiKeyNamed", { name: a.name }) : a.name, detail: detailOf(a) })}
            </option>
          ))}
        </SelectField>
        <TextField label={t("fromDate")} type="date" value={filters.from ?? ""} onChange={(e) => onChange({ from: e.target.value })} />
        <TextField
          label={t("toDate")}
          type="date"
          value={filters.to ?? ""}
          onChange={(e) => onChange({ to: e.target.value })}
          errors={reversed ? [t("toBeforeFrom")] : undefined}
        />
      </div>
      <div className="grid items-end gap-4 sm:grid-cols-[1fr_1fr_auto]">
        <TextField label={t("entity")} placeholder={t("entityPlaceholder")} value={entityDraft} onChange={(e) => setEntityDraft(e.target.value)} />
        <TextField label={t("text")} placeholder={t("textPlaceholder")} value={textDraft} onChange={(e) => setTextDraft(e.target.value)} />
        <Button type="submit">{t("apply")}</Button>
      </div>
    </form>
  );
}
