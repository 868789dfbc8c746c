"use client";

import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";

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
  const format = useFormat();
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const revokeKey = async (key: K) => {
    await revoke.mutateAsync({ keyUid: key.uid });
    setRevokedName(key.displayName);
  };

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading" className="text-lg font-semibold text-slate-900">
        Active keys
      </h2>
      <div className="mt-3 space-y-3">
        {revokedName ? <Notice>Revoked “{revokedName}”: it no longer works.</Notice> : null}
        {keys.isPending ? (
          <LoadingState label="Loading API keys…" />
        ) : keys.isError ? (
          <ErrorState message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState title="No API keys yet">{emptyText}</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">{scope.title}</th>
                  <th scope="col" className="px-4 py-3">Permissions</th>
                  <th scope="col" className="px-4 py-3">Created</th>
                  <th scope="col" className="px-4 py-3">Last used</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {keys.data.map((key) => (
                  <tr key={key.uid} className="align-top">
                    <td className="px-4 py-3">
                      <p className="font-medium text-slate-900">{key.displayName}</p>
                      <p className="font-mono text-xs text-slate-500">{key.prefix}…</p>
                    </td>
                    <td className="px-4 py-3 text-slate-700">{scope.of(key)}</td>
                    <td className="px-4 py-3">
                      <ul className="flex flex-wrap gap-1">
                        {key.permissions.map((p) => (
                          <li key={p} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                            {p}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">
                      <p>{format.dateTime(key.createdAt)}</p>
                      <p className="text-xs text-slate-500">
                        by {key.createdBy?.name ?? "the system"}
                        {key.createdBy?.deactivated && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-800">creator deactivated</span>}
                      </p>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(key.lastUsedAt, "Never")}</td>
                    <td className="px-4 py-3 text-right">
                      <ConfirmButton
                        buttonLabel={`Revoke ${key.displayName}`}
                        title={`Revoke the API key “${key.displayName}”?`}
                        confirmLabel="Confirm revoke"
                        pendingLabel="Revoking…"
                        onConfirm={() => revokeKey(key)}
                        consequence={<p>Every request with this key is refused (401) from its next request on. A revoked key cannot be restored: whoever uses it needs a new key.</p>}
                      >
                        Revoke
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="text-xs text-slate-500">Last use is recorded at most once a minute. A revoked key is refused (401) from its next request on.</p>
      </div>
    </section>
  );
}
