"use client";

import { ApiKeyList } from "@/components/api-key-list";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { ErrorState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { FieldErrors } from "@/server/domain/errors";
import { toFieldErrors } from "@/server/wire/field-errors";
import { createApiKeyInput, PHARMACY_KEY_PERMISSIONS } from "@/server/trpc/routers/api-keys.schemas";

/** What each permission allows, beside its spec name. */
const PERMISSION_HINTS: Record<(typeof PHARMACY_KEY_PERMISSIONS)[number], string> = {
  orders_read: "List and read pharmacy orders",
  orders_write: "Change status, complete orders, add shipments",
  stock_read: "List pharmacy SKUs with stock and prices",
  stock_write: "Change stock and prices",
  webhooks_read: "List webhook subscriptions",
  webhooks_write: "Register and delete webhook subscriptions",
};

const GROUP = "group";

export function ApiKeysSettings() {
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
  const scopes = useQuery(trpc.pharmacy.apiKeys.scopes.queryOptions());
  const [displayName, setDisplayName] = useState("");
  const [permissions, setPermissions] = useState<string[]>([]);
  const [scope, setScope] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.pharmacy.apiKeys.create.mutationOptions({
      onSuccess: async () => {
        setDisplayName("");
        setPermissions([]);
        await queryClient.invalidateQueries({ queryKey: trpc.pharmacy.apiKeys.list.pathKey() });
      },
    }),
  );

  const group = scopes.data?.group ?? null;
  const pharmacies = scopes.data?.pharmacies ?? [];
  // A group pharmacist picks the group or one pharmacy; a single-pharmacy pharmacist has nothing to pick.
  const chosenScope = scope || (group ? GROUP : "");

  const errorsOf = (field: string) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : fieldErrors(create.error, field);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = {
      displayName,
      permissions,
      ...(group ? (chosenScope === GROUP ? { groupWide: true } : { pharmacyUid: chosenScope }) : {}),
    };
    const parsed = createApiKeyInput.safeParse(input);
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
      <p className="mt-1 text-sm text-slate-600">
        A key of the External Pharmacy API for your systems (for example your ERP). It may do only what you tick below.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Display name"
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            maxLength={200}
            errors={errorsOf("displayName")}
            hint="So you can tell your keys apart, e.g. “ERP connector”."
          />
          {group ? (
            <SelectField label="Key scope" value={chosenScope} onChange={(e) => setScope(e.target.value)} errors={errorsOf("scope")}>
              <option value={GROUP}>Whole group: {group.displayName}</option>
              {pharmacies.map((p) => (
                <option key={p.uid} value={p.uid}>
                  Pharmacy: {p.displayName}
                </option>
              ))}
            </SelectField>
          ) : null}
        </div>
        <fieldset aria-describedby={permissionErrors?.length ? "permission-errors" : undefined}>
          <legend className="text-sm font-medium text-slate-700">Permissions</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {PHARMACY_KEY_PERMISSIONS.map((permission) => (
              <div key={permission} className="flex items-start gap-3 rounded-md border border-slate-200 px-3 py-2">
                <input
                  id={`permission-${permission}`}
                  type="checkbox"
                  checked={permissions.includes(permission)}
                  onChange={(e) => toggle(permission, e.target.checked)}
                  aria-describedby={`permission-${permission}-hint`}
                  className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
                />
                <div>
                  <label htmlFor={`permission-${permission}`} className="font-mono text-sm text-slate-900">
                    {permission}
                  </label>
                  <p id={`permission-${permission}-hint`} className="text-xs text-slate-500">
                    {PERMISSION_HINTS[permission]}
                  </p>
                </div>
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
        <Button type="submit" disabled={create.isPending || scopes.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {create.data ? (
        <div className="mt-6 space-y-2">
          <SecretBox
            label="New API key"
            value={create.data.apiKey}
            note={`Shown only this once: store it now in your system. “${create.data.displayName}” sends it as the X-API-Key header.`}
          />
        </div>
      ) : null}
    </section>
  );
}

function KeyList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.pharmacy.apiKeys.list.queryOptions());
  const revoke = useMutation(
    trpc.pharmacy.apiKeys.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.pharmacy.apiKeys.list.pathKey() }),
    }),
  );
  return (
    <ApiKeyList
      keys={keys}
      revoke={revoke}
      scope={{ title: "Scope", of: (key) => (key.scope.type === "group" ? `Group: ${key.scope.displayName}` : key.scope.displayName) }}
      emptyText="Create one above to connect your systems to the External Pharmacy API."
    />
  );
}
