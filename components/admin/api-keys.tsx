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
    trpc.admin.apiKeys.create.mutationOptions({
      onSuccess: async () => {
        setDisplayName("");
        setPermissions([]);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.pathKey() });
      },
    }),
  );

  const errorsOf = (field: string) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : fieldErrors(create.error, field);
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
            errors={errorsOf("displayName")}
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
  const keys = useQuery(trpc.admin.apiKeys.list.queryOptions());
  const revoke = useMutation(
    trpc.admin.apiKeys.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.pathKey() }),
    }),
  );
  return (
    <ApiKeyList
      keys={keys}
      revoke={revoke}
      scope={{ title: "Family", of: (key) => FAMILY_LABEL[key.family as Family] ?? key.family }}
      emptyText="Create one above to connect your systems to the Management or Public API."
    />
  );
}
