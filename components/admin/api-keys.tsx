"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { formatUnixTime } from "@/components/ui/unix-time";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { FieldErrors } from "@/server/domain/errors";
import { toFieldErrors } from "@/server/wire/field-errors";
import { ADMIN_KEY_PERMISSIONS, createAdminApiKeyInput } from "@/server/trpc/routers/admin.schemas";

type Family = keyof typeof ADMIN_KEY_PERMISSIONS;
const FAMILY_LABEL: Record<Family, string> = { MANAGEMENT: "Management", PUBLIC: "Public" };
const FAMILY_HINT: Record<Family, string> = {
  MANAGEMENT: "For your back office: orders, prescriptions, products, patients, providers.",
  PUBLIC: "For your shop's front end: products, checkouts, patient data.",
};

/** Settings → API keys: the organisation's Management and Public keys. */
export function AdminApiKeys() {
  return (
    <div className="space-y-10">
      <CreateKeyForm />
      <KeyList />
    </div>
  );
}

function CreateKeyForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [family, setFamily] = useState<Family>("MANAGEMENT");
  const [displayName, setDisplayName] = useState("");
  const [permissions, setPermissions] = useState<string[]>([]);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.adminApiKeys.create.mutationOptions({
      onSuccess: async () => {
        setDisplayName("");
        setPermissions([]);
        await queryClient.invalidateQueries({ queryKey: trpc.adminApiKeys.list.pathKey() });
      },
    }),
  );

  const errorsOf = (field: string, serverField = field) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : (fieldErrors(create.error, field) ?? fieldErrors(create.error, serverField));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createAdminApiKeyInput.safeParse({ family, displayName, permissions });
    if (!parsed.success) {
      setClientErrors(toFieldErrors(parsed.error.issues));
      return;
    }
    setClientErrors({});
    create.mutate(parsed.data);
  }

  const toggle = (permission: string, on: boolean) =>
    setPermissions((current) => (on ? [...current, permission] : current.filter((p) => p !== permission)));
  const permissionErrors = errorsOf("permissions");

  return (
    <section aria-labelledby="create-key-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="create-key-heading" className="text-lg font-semibold text-slate-900">
        Create an API key
      </h2>
      <p className="mt-1 text-sm text-slate-600">A key may do only what you tick below. It is shown once; only its hash is stored.</p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            label="API family"
            value={family}
            onChange={(e) => {
              // Permissions are per family: a switch starts the picker afresh.
              setFamily(e.target.value as Family);
              setPermissions([]);
            }}
          >
            {(Object.keys(FAMILY_LABEL) as Family[]).map((f) => (
              <option key={f} value={f}>
                {FAMILY_LABEL[f]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Display name"
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            maxLength={200}
            errors={errorsOf("displayName", "display_name")}
            hint="So you can tell your keys apart, e.g. “ERP connector”."
          />
        </div>
        <p className="text-sm text-slate-600">{FAMILY_HINT[family]}</p>
        <fieldset aria-describedby={permissionErrors?.length ? "permission-errors" : undefined}>
          <legend className="text-sm font-medium text-slate-700">Permissions</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {ADMIN_KEY_PERMISSIONS[family].map((permission) => (
              <div key={permission} className="flex items-center gap-3 rounded-md border border-slate-200 px-3 py-2">
                <input
                  id={`permission-${permission}`}
                  type="checkbox"
                  checked={permissions.includes(permission)}
                  onChange={(e) => toggle(permission, e.target.checked)}
                  className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
                />
                <label htmlFor={`permission-${permission}`} className="min-w-0 break-all font-mono text-sm text-slate-900">
                  {permission}
                </label>
              </div>
            ))}
          </div>
          {permissionErrors?.length ? (
            <p id="permission-errors" className="mt-1 text-xs text-red-700">
              {permissionErrors.join(" ")}
            </p>
          ) : null}
        </fieldset>
        {create.error && !create.error.data?.fieldErrors ? <ErrorState message={errorMessage(create.error)} /> : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {create.data ? (
        <div className="mt-6">
          <SecretBox
            label="New API key"
            value={create.data.apiKey}
            note={`Shown only this once: store it now. “${create.data.displayName}” sends it as the X-API-Key header.`}
          />
        </div>
      ) : null}
    </section>
  );
}

function KeyList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.adminApiKeys.list.queryOptions());
  const [confirming, setConfirming] = useState<string | null>(null);
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.adminApiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await queryClient.invalidateQueries({ queryKey: trpc.adminApiKeys.list.pathKey() });
      },
    }),
  );

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading" className="text-lg font-semibold text-slate-900">
        Active keys
      </h2>
      <div className="mt-3 space-y-3">
        {revokedName ? <Notice>Revoked “{revokedName}”: it no longer works.</Notice> : null}
        {revoke.error ? <ErrorState message={errorMessage(revoke.error)} /> : null}
        {keys.isPending ? (
          <LoadingState label="Loading API keys…" />
        ) : keys.isError ? (
          <ErrorState message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState title="No API keys yet">Create one above to connect your systems to the Management or Public API.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Family</th>
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
                    <td className="px-4 py-3 text-slate-700">{FAMILY_LABEL[key.family as Family] ?? key.family}</td>
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
                      <p>{formatUnixTime(key.createdAt)}</p>
                      <p className="text-xs text-slate-500">by {key.createdBy?.name ?? "the system"}</p>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{formatUnixTime(key.lastUsedAt, "Never")}</td>
                    <td className="px-4 py-3 text-right">
                      {confirming === key.uid ? (
                        <div className="flex justify-end gap-2">
                          <Button
                            tone="danger"
                            disabled={revoke.isPending}
                            onClick={() => revoke.mutate({ keyUid: key.uid }, { onSuccess: () => setRevokedName(key.displayName) })}
                          >
                            Confirm revoke
                          </Button>
                          <Button tone="secondary" onClick={() => setConfirming(null)}>
                            Cancel
                          </Button>
                        </div>
                      ) : (
                        <Button tone="danger" aria-label={`Revoke ${key.displayName}`} onClick={() => setConfirming(key.uid)}>
                          Revoke
                        </Button>
                      )}
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
