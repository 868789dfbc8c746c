"use client";

import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";

/** What both portals show of a key: never the key itself, only its prefix. */
export type ListedApiKey = {
  uid: string;
  displayName: string;
  prefix: string;
  permissions: string[];
  createdAt: number;
  /** A deactivated creator's keys keep working (they belong to the pharmacy or the organisation): said next to the name. */
  createdBy: { name: string; deactivated: boolean } | null;
  lastUsedAt: number | null;
};

/**
 * The active keys of a portal (pharmacy portal, admin tool) with a confirmed revoke per key. The
 * caller owns the queries; `scope` is the one column that differs (a key's pharmacy or family).
 */
export function ApiKeyList<K extends ListedApiKey>({
  keys,
  revoke,
  scope,
  emptyText,
}: {
  keys: UseQueryResult<K[], unknown>;
  revoke: UseMutationResult<unknown, unknown, { keyUid: string }>;
  scope: { title: string; of: (key: K) => ReactNode };
  emptyText: string;
}) {
  const t = useTranslations("apiKeys");
  const format = useFormat();
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const revokeKey = async (key: K) => {
    await revoke.mutateAsync({ keyUid: key.uid });
    setRevokedName(key.displayName);
  };

  const columns: Column<K>[] = [
    {
      header: t("name"),
      key: true,
      cell: (key) => (
        <>
          <p className="font-medium text-slate-900">{key.displayName}</p>
          <p className="font-mono text-xs text-slate-500">{key.prefix}…</p>
        </>
      ),
    },
    { header: scope.title, cell: scope.of, className: "text-slate-700" },
    {
      header: t("permissions"),
      className: "md:min-w-56",
      cell: (key) => (
        <ul className="flex flex-wrap gap-1">
          {key.permissions.map((p) => (
            <li key={p} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
              {p}
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: t("created"),
      className: "whitespace-nowrap text-slate-700",
      cell: (key) => (
        <div>
          <p>{format.dateTime(key.createdAt)}</p>
          <p className="text-xs text-slate-500">
            {key.createdBy ? t("by", { name: key.createdBy.name }) : t("bySystem")}
            {key.createdBy?.deactivated && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-800">{t("creatorDeactivated")}</span>}
          </p>
        </div>
      ),
    },
    { header: t("lastUsed"), className: "whitespace-nowrap text-slate-700", cell: (key) => format.dateTime(key.lastUsedAt, t("never")) },
    {
      header: t("actions"),
      headerHidden: true,
      className: "md:text-right",
      cell: (key) => (
        <ConfirmButton
          buttonLabel={t("revokeLabel", { name: key.displayName })}
          title={t("revokeTitle", { name: key.displayName })}
          confirmLabel={t("revokeConfirm")}
          pendingLabel={t("revoking")}
          onConfirm={() => revokeKey(key)}
          consequence={<p>{t("revokeConsequence")}</p>}
        >
          {t("revoke")}
        </ConfirmButton>
      ),
    },
  ];

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <div className="mt-3 space-y-3">
        {revokedName ? <Notice>{t("revoked", { name: revokedName })}</Notice> : null}
        <QueryView
          query={keys}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState title={t("empty")}>{emptyText}</EmptyState>}
        >
          {(data) => <DataTable label={t("heading")} columns={columns} rows={data} rowKey={(key) => key.uid} rowClassName={() => "align-top"} />}
        </QueryView>
        <p className="text-xs text-slate-500">{t("footnote")}</p>
      </div>
    </section>
  );
}
