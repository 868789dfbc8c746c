"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PharmacyForm } from "./pharmacy-form";

/** The organisation's pharmacies, adding one, and its pharmacy groups. */
export function Pharmacies() {
  return (
    <div className="space-y-10">
      <PharmacyList />
      <AddPharmacy />
      <PharmacyGroups />
    </div>
  );
}

function PharmacyList() {
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.admin.pharmacies.list.queryOptions());
  return (
    <section aria-labelledby="pharmacies-heading">
      <h2 id="pharmacies-heading" className="text-lg font-semibold text-slate-900">
        All pharmacies
      </h2>
      <div className="mt-3">
        {pharmacies.isPending ? (
          <LoadingState label="Loading pharmacies…" />
        ) : pharmacies.isError ? (
          <ErrorState message={errorMessage(pharmacies.error)} onRetry={() => pharmacies.refetch()} />
        ) : pharmacies.data.length === 0 ? (
          <EmptyState title="No pharmacies yet">Add the first one below.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Address</th>
                  <th scope="col" className="px-4 py-3">Group</th>
                  <th scope="col" className="px-4 py-3">Location id</th>
                  <th scope="col" className="px-4 py-3">System connector</th>
                  <th scope="col" className="px-4 py-3">Users</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {pharmacies.data.map((p) => (
                  <tr key={p.uid} className="align-top">
                    <td className="px-4 py-3">
                      <Link href={`/admin/pharmacies/${p.uid}`} className="font-medium text-brand-700 hover:text-brand-800">
                        {p.displayName}
                      </Link>
                      {p.email ? <p className="text-xs text-slate-500">{p.email}</p> : null}
                    </td>
                    <td className="px-4 py-3 text-slate-700">
                      {p.address ? `${p.address.line1}, ${p.address.postal_code} ${p.address.city}, ${p.address.country}` : <span className="text-slate-400">—</span>}
                    </td>
                    <td className="px-4 py-3 text-slate-700">{p.group?.name ?? <span className="text-slate-400">—</span>}</td>
                    <td className="px-4 py-3 font-mono text-xs text-slate-700">{p.locationId ?? <span className="font-sans text-slate-400">—</span>}</td>
                    <td className="max-w-56 truncate px-4 py-3 text-xs text-slate-700" title={p.connector?.url}>
                      {p.connector ? p.connector.url : <span className="text-slate-400">None</span>}
                    </td>
                    <td className="px-4 py-3 text-slate-700">{p.userCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

function AddPharmacy() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.admin.pharmacyGroups.list.queryOptions());
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [created, setCreated] = useState<{ uid: string; displayName: string } | null>(null);
  const create = useMutation(
    trpc.admin.pharmacies.create.mutationOptions({
      onSuccess: async (p) => {
        setCreated(p);
        setFormKey((k) => k + 1);
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacies.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacyGroups.pathKey() });
      },
    }),
  );
  return (
    <section aria-labelledby="add-pharmacy-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-center justify-between gap-4">
        <h2 id="add-pharmacy-heading" className="text-lg font-semibold text-slate-900">
          Add a pharmacy
        </h2>
        {open ? null : (
          <Button tone="secondary" onClick={() => setOpen(true)}>
            New pharmacy
          </Button>
        )}
      </div>
      {created ? (
        <div className="mt-3">
          <Notice>
            Added <Link href={`/admin/pharmacies/${created.uid}`} className="font-medium underline">{created.displayName}</Link>.
          </Notice>
        </div>
      ) : null}
      {open ? (
        <div className="mt-4">
          {groups.isError ? (
            <ErrorState message={errorMessage(groups.error)} onRetry={() => groups.refetch()} />
          ) : (
            <PharmacyForm
              key={formKey}
              initial={null}
              groups={groups.data ?? []}
              submitLabel="Add pharmacy"
              pending={create.isPending}
              error={create.error}
              onSubmit={(fields) => create.mutate(fields)}
            />
          )}
        </div>
      ) : null}
    </section>
  );
}

function PharmacyGroups() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.admin.pharmacyGroups.list.queryOptions());
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacyGroups.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacies.pathKey() });
  };
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.admin.pharmacyGroups.create.mutationOptions({
      onSuccess: async () => {
        setFormKey((k) => k + 1);
        await refresh();
      },
    }),
  );
  function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ displayName: String(new FormData(event.currentTarget).get("displayName") ?? "") });
  }
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading" className="text-lg font-semibold text-slate-900">
        Pharmacy groups
      </h2>
      <p className="mt-1 text-sm text-slate-500">A group&apos;s pharmacists and API keys act for every pharmacy of the group. Assign a pharmacy on its page.</p>
      <div className="mt-3 space-y-3">
        {groups.isPending ? (
          <LoadingState label="Loading pharmacy groups…" />
        ) : groups.isError ? (
          <ErrorState message={errorMessage(groups.error)} onRetry={() => groups.refetch()} />
        ) : groups.data.length === 0 ? (
          <EmptyState title="No pharmacy groups yet">Create one below.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
            {groups.data.map((g) => (
              <li key={g.uid} className="px-4 py-3">
                <GroupRow group={g} onRenamed={refresh} />
              </li>
            ))}
          </ul>
        )}
        <form key={formKey} onSubmit={onCreate} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="w-72">
            <TextField label="New group name" name="displayName" required errors={fieldErrors(create.error, "displayName")} />
          </div>
          <Button type="submit" disabled={create.isPending}>
            Create group
          </Button>
        </form>
        {create.error && !fieldErrors(create.error, "displayName") ? <ErrorState message={errorMessage(create.error)} /> : null}
      </div>
    </section>
  );
}

function GroupRow({ group, onRenamed }: { group: { uid: string; displayName: string; pharmacies: { uid: string; name: string }[] }; onRenamed: () => Promise<void> }) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const rename = useMutation(
    trpc.admin.pharmacyGroups.rename.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await onRenamed();
      },
    }),
  );
  if (editing) {
    return (
      <form
        className="flex flex-wrap items-end gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate({ groupUid: group.uid, displayName: String(new FormData(e.currentTarget).get("displayName") ?? "") });
        }}
      >
        <div className="w-72">
          <TextField label={`Name of ${group.displayName}`} name="displayName" defaultValue={group.displayName} errors={fieldErrors(rename.error, "displayName")} />
        </div>
        <Button type="submit" disabled={rename.isPending}>
          Save
        </Button>
        <Button tone="secondary" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </form>
    );
  }
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p className="font-medium text-slate-900">{group.displayName}</p>
        <p className="text-xs text-slate-500">{group.pharmacies.length === 0 ? "No pharmacies" : group.pharmacies.map((p) => p.name).join(", ")}</p>
      </div>
      <Button tone="secondary" aria-label={`Rename ${group.displayName}`} onClick={() => setEditing(true)}>
        Rename
      </Button>
    </div>
  );
}
