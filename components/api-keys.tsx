"use client";

import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEventHandler, type ReactNode } from "react";
import type { FieldValues, Path } from "react-hook-form";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { SecretBox } from "@/components/ui/controls";
import { FormError, SubmitButton, type AnyForm } from "@/components/ui/form";
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

/**
 * A portal's "Create an API key" card: the caller's inputs (name, family or scope, permissions), the
 * button, and the new key, shown this once.
 */
export function CreateKeyCard<V extends FieldValues>({
  form,
  onSubmit,
  intro,
  created,
  createdNote,
  busy,
  children,
}: {
  form: AnyForm<V>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  intro: string;
  created: { apiKey: string } | undefined;
  createdNote: string;
  /** Also not ready while what the form offers is loading. */
  busy?: boolean;
  children: ReactNode;
}) {
  const t = useTranslations("apiKeys");
  const submitting = form.formState.isSubmitting;
  return (
    <section aria-labelledby="create-key-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="create-key-heading" className="text-lg font-semibold text-slate-900">
        {t("createHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{intro}</p>
      <form onSubmit={onSubmit} noValidate className="mt-5 space-y-5">
        {children}
        <FormError form={form} />
        <SubmitButton form={form} disabled={submitting || busy}>
          {submitting ? t("creating") : t("create")}
        </SubmitButton>
      </form>
      {created ? (
        <div className="mt-6">
          <SecretBox label={t("newKey")} value={created.apiKey} note={createdNote} />
        </div>
      ) : null}
    </section>
  );
}

/** The permissions a new key may have, one checkbox each (registered as the form's `permissions`), each with its hint when given. */
export function PermissionPicker<V extends FieldValues>({
  form,
  permissions,
  hint,
}: {
  form: AnyForm<V>;
  permissions: readonly string[];
  hint?: (permission: string) => string;
}) {
  const t = useTranslations("apiKeys");
  const error = form.formState.errors.permissions?.message;
  return (
    <fieldset aria-describedby={error ? "permission-errors" : undefined}>
      <legend className="text-sm font-medium text-slate-700">{t("permissions")}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {permissions.map((permission) => (
          <div key={permission} className="flex items-start gap-3 rounded-md border border-slate-200 px-3 py-2">
            <input
              id={`permission-${permission}`}
              type="checkbox"
              value={permission}
              {...form.register("permissions" as Path<V>)}
              aria-describedby={hint ? `permission-${permission}-hint` : undefined}
              className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
            />
            <div className="min-w-0">
              <label htmlFor={`permission-${permission}`} className="break-all font-mono text-sm text-slate-900">
                {permission}
              </label>
              {hint ? (
                <p id={`permission-${permission}-hint`} className="text-xs text-slate-500">
                  {hint(permission)}
                </p>
              ) : null}
            </div>
          </div>
        ))}
      </div>
      {error ? (
        <p id="permission-errors" className="mt-1 text-xs text-red-700">
          {String(error)}
        </p>
      ) : null}
    </fieldset>
  );
}
