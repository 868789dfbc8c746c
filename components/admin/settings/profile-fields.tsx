"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { cardClass, SettingsSection, tableClass, theadClass } from "./section";

type Field = { uid: string; key: string; displayName: string; type: string; source: string; valueCount: number };
type Options = { types: string[]; sources: string[] };

/** Patient profile fields: what the Management API's `fields` and the patient-data endpoints accept by key. */
export function ProfileFields() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.settings.profileFields.list.queryOptions());
  return (
    <SettingsSection
      id="profile-fields"
      title="Patient profile fields"
      description={
        <>
          The data kept per patient. Integrations set values by key (<code>fields</code> of <code>POST /v1/management/patients</code>, the patient-data
          properties); each value is checked against its field&apos;s type.
        </>
      }
    >
      {list.isPending ? (
        <LoadingState label="Loading profile fields…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : (
        <>
          <AddForm options={list.data} />
          {list.data.fields.length === 0 ? (
            <EmptyState title="No profile fields yet">Add one above.</EmptyState>
          ) : (
            <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
              <table className={tableClass}>
                <thead className={theadClass}>
                  <tr>
                    <th scope="col" className="px-4 py-3">Key</th>
                    <th scope="col" className="px-4 py-3">Label</th>
                    <th scope="col" className="px-4 py-3">Type</th>
                    <th scope="col" className="px-4 py-3">Source</th>
                    <th scope="col" className="px-4 py-3">Patients with a value</th>
                    <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.data.fields.map((field) => (
                    <FieldRow key={field.uid} field={field} options={list.data} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </SettingsSection>
  );
}

function AddForm({ options }: { options: Options }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [key, setKey] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [type, setType] = useState(options.types[0] ?? "text");
  const [source, setSource] = useState(options.sources[0] ?? "shop");
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(
    trpc.admin.settings.profileFields.add.mutationOptions({
      onSuccess: async (_, variables) => {
        setAdded(variables.key);
        setKey("");
        setDisplayName("");
        await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.profileFields.list.pathKey() });
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(null);
    add.mutate({ key, displayName, type, source });
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-field-heading" className={cardClass}>
      <h3 id="add-field-heading" className="text-sm font-semibold text-slate-900">
        Add a profile field
      </h3>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <TextField label="Field key" value={key} onChange={(e) => setKey(e.target.value)} maxLength={64} errors={fieldErrors(add.error, "key")} hint="e.g. shoe_size; cannot change later." />
        <TextField label="Field label" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={200} errors={fieldErrors(add.error, "displayName")} />
        <SelectField label="Field type" value={type} onChange={(e) => setType(e.target.value)} errors={fieldErrors(add.error, "type")}>
          {options.types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField label="Field source" value={source} onChange={(e) => setSource(e.target.value)} errors={fieldErrors(add.error, "source")}>
          {options.sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add field"}
        </Button>
        {added ? <Notice>Added “{added}”.</Notice> : null}
      </div>
      {add.error && !add.error.data?.fieldErrors ? <ErrorState message={errorMessage(add.error)} /> : null}
    </form>
  );
}

function FieldRow({ field, options }: { field: Field; options: Options }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"view" | "edit">("view");
  const [displayName, setDisplayName] = useState(field.displayName);
  const [type, setType] = useState(field.type);
  const [source, setSource] = useState(field.source);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.profileFields.list.pathKey() });
  const change = useMutation(trpc.admin.settings.profileFields.change.mutationOptions({ onSuccess: async () => (setMode("view"), await refresh()) }));
  const remove = useMutation(trpc.admin.settings.profileFields.remove.mutationOptions({ onSuccess: refresh }));

  if (mode === "edit") {
    return (
      <tr className="bg-slate-50 align-top">
        <td className="px-4 py-3 font-mono text-slate-900">{field.key}</td>
        <td colSpan={5} className="px-4 py-3">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate({ fieldUid: field.uid, displayName, type, source });
            }}
            noValidate
            aria-label={`Edit ${field.key}`}
            className="grid gap-3 sm:grid-cols-4"
          >
            <TextField label="Label" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={200} errors={fieldErrors(change.error, "displayName")} />
            <SelectField label="Type" value={type} onChange={(e) => setType(e.target.value)} errors={fieldErrors(change.error, "type")}>
              {[...new Set([...options.types, field.type])].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </SelectField>
            <SelectField label="Source" value={source} onChange={(e) => setSource(e.target.value)} errors={fieldErrors(change.error, "source")}>
              {[...new Set([...options.sources, field.source])].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
            <div className="flex items-end gap-2">
              <Button type="submit" disabled={change.isPending}>
                Save field
              </Button>
              <Button tone="secondary" onClick={() => (setMode("view"), change.reset())}>
                Cancel
              </Button>
            </div>
            {change.error && !change.error.data?.fieldErrors ? (
              <div className="sm:col-span-4">
                <ErrorState message={errorMessage(change.error)} />
              </div>
            ) : null}
          </form>
        </td>
      </tr>
    );
  }
  return (
    <tr className="align-top">
      <td className="px-4 py-3 font-mono text-slate-900">{field.key}</td>
      <td className="px-4 py-3 text-slate-900">{field.displayName}</td>
      <td className="px-4 py-3 text-slate-700">{field.type}</td>
      <td className="px-4 py-3 text-slate-700">{field.source}</td>
      <td className="px-4 py-3 text-slate-700">{field.valueCount}</td>
      <td className="px-4 py-3 text-right">
        <div className="flex justify-end gap-2">
          <Button tone="secondary" aria-label={`Edit ${field.key}`} onClick={() => setMode("edit")}>
            Edit
          </Button>
          <ConfirmButton
            buttonLabel={`Remove ${field.key}`}
            title={`Remove the profile field ${field.key}?`}
            confirmLabel="Confirm remove"
            pendingLabel="Removing…"
            onConfirm={() => remove.mutateAsync({ fieldUid: field.uid })}
            consequence={
              <p>
                {field.valueCount > 0
                  ? `The values ${field.valueCount} patient${field.valueCount === 1 ? " has" : "s have"} for it are removed too. They cannot be restored.`
                  : "No patient has a value for it."}
              </p>
            }
          >
            Remove
          </ConfirmButton>
        </div>
      </td>
    </tr>
  );
}
