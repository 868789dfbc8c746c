"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

type Method = { uid: string; externalId: string; displayName: string };
type Shop = { uid: string; identifier: string; displayName: string; shippingMethods: Method[] };

const formValue = (event: FormEvent<HTMLFormElement>, name: string) => String(new FormData(event.currentTarget).get(name) ?? "");

/**
 * The organisation's shops and their shipping methods. Identifiers and external ids are fixed once
 * created (integrations address shops and methods by them); names change. Each pharmacy maps the
 * methods to its own identifiers in the pharmacy portal.
 */
export function Shops() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const shops = useQuery(trpc.admin.shops.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.shops.pathKey() });
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.admin.shops.create.mutationOptions({
      onSuccess: async () => {
        setFormKey((k) => k + 1);
        await refresh();
      },
    }),
  );
  return (
    <div className="space-y-8">
      {shops.isPending ? (
        <LoadingState label="Loading shops…" />
      ) : shops.isError ? (
        <ErrorState message={errorMessage(shops.error)} onRetry={() => shops.refetch()} />
      ) : shops.data.length === 0 ? (
        <EmptyState title="No shops yet">Add the first shop below.</EmptyState>
      ) : (
        <ul className="space-y-6">
          {shops.data.map((shop) => (
            <li key={shop.uid}>
              <ShopCard shop={shop} onChanged={refresh} />
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="add-shop-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="add-shop-heading" className="text-lg font-semibold text-slate-900">
          Add a shop
        </h2>
        <form
          key={formKey}
          noValidate
          className="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ identifier: formValue(e, "identifier"), displayName: formValue(e, "displayName") });
          }}
        >
          <TextField label="Shop identifier" name="identifier" required errors={fieldErrors(create.error, "identifier")} hint="The shop_identifier of the APIs; cannot be changed later." />
          <TextField label="Shop name" name="displayName" required errors={fieldErrors(create.error, "displayName")} />
          <Button type="submit" disabled={create.isPending} className="sm:mt-6">
            Add shop
          </Button>
        </form>
        {create.error && create.error.data?.code !== "BAD_REQUEST" ? <ErrorState message={errorMessage(create.error)} /> : null}
      </section>
    </div>
  );
}

function ShopCard({ shop, onChanged }: { shop: Shop; onChanged: () => Promise<void> }) {
  const trpc = useTRPC();
  const [renaming, setRenaming] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const rename = useMutation(
    trpc.admin.shops.rename.mutationOptions({
      onSuccess: async () => {
        setRenaming(false);
        await onChanged();
      },
    }),
  );
  const addMethod = useMutation(
    trpc.admin.shops.createShippingMethod.mutationOptions({
      onSuccess: async () => {
        setFormKey((k) => k + 1);
        await onChanged();
      },
    }),
  );
  return (
    <section aria-labelledby={`shop-${shop.uid}`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      {renaming ? (
        <form
          noValidate
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            rename.mutate({ shopUid: shop.uid, displayName: formValue(e, "displayName") });
          }}
        >
          <div className="w-72">
            <TextField label="Shop name" name="displayName" defaultValue={shop.displayName} errors={fieldErrors(rename.error, "displayName")} />
          </div>
          <Button type="submit" disabled={rename.isPending}>
            Save
          </Button>
          <Button tone="secondary" onClick={() => setRenaming(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={`shop-${shop.uid}`} className="text-lg font-semibold text-slate-900">
              {shop.displayName}
            </h2>
            <p className="font-mono text-xs text-slate-500">{shop.identifier}</p>
          </div>
          <Button tone="secondary" aria-label={`Rename ${shop.displayName}`} onClick={() => setRenaming(true)}>
            Rename
          </Button>
        </div>
      )}
      <h3 className="mt-6 text-sm font-semibold text-slate-900">Shipping methods</h3>
      {shop.shippingMethods.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No shipping methods yet. Order intake adds the ones shop orders name; add others here.</p>
      ) : (
        <div className="mt-2 overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2">Name</th>
                <th scope="col" className="px-4 py-2">External id</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {shop.shippingMethods.map((m) => (
                <MethodRow key={m.uid} method={m} onChanged={onChanged} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        key={formKey}
        noValidate
        className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
        onSubmit={(e) => {
          e.preventDefault();
          addMethod.mutate({ shopUid: shop.uid, externalId: formValue(e, "externalId"), displayName: formValue(e, "displayName") });
        }}
      >
        <TextField label="Shipping method name" name="displayName" errors={fieldErrors(addMethod.error, "displayName")} />
        <TextField label="External id" name="externalId" errors={fieldErrors(addMethod.error, "externalId")} hint="As the shop's orders name it." />
        <Button type="submit" tone="secondary" disabled={addMethod.isPending} className="sm:mt-6">
          Add shipping method
        </Button>
      </form>
      {addMethod.error && addMethod.error.data?.code !== "BAD_REQUEST" ? <ErrorState message={errorMessage(addMethod.error)} /> : null}
    </section>
  );
}

function MethodRow({ method, onChanged }: { method: Method; onChanged: () => Promise<void> }) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const rename = useMutation(
    trpc.admin.shops.renameShippingMethod.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await onChanged();
      },
    }),
  );
  return (
    <tr className="align-top">
      <td className="px-4 py-2">
        {editing ? (
          <form
            id={`method-${method.uid}`}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate({ shippingMethodUid: method.uid, displayName: formValue(e, "displayName") });
            }}
          >
            <TextField label={`Name of ${method.externalId}`} name="displayName" defaultValue={method.displayName} errors={fieldErrors(rename.error, "displayName")} />
          </form>
        ) : (
          <span className="text-slate-900">{method.displayName}</span>
        )}
      </td>
      <td className="px-4 py-2 font-mono text-xs text-slate-700">{method.externalId}</td>
      <td className="px-4 py-2 text-right">
        {editing ? (
          <div className="flex justify-end gap-2">
            <Button type="submit" form={`method-${method.uid}`} disabled={rename.isPending}>
              Save
            </Button>
            <Button tone="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        ) : (
          <Button tone="secondary" aria-label={`Rename ${method.displayName}`} onClick={() => setEditing(true)}>
            Rename
          </Button>
        )}
      </td>
    </tr>
  );
}
