"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { cardClass, SettingsSection, tableClass, theadClass } from "./section";

type Shop = { uid: string; identifier: string; displayName: string };
type Template = { uid: string; displayName: string; passType: string; requiresSignedPrescription: boolean; shop: Shop; livePasses: number };

/** Wallet pass templates per shop, as the Management API's GET /wallet-passes/templates lists them. */
export function WalletPassTemplates() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.settings.walletPassTemplates.list.queryOptions());
  return (
    <SettingsSection
      id="wallet-pass-templates"
      title="Wallet pass templates"
      description="The passes your shops issue to patients (Apple and Google Wallet). A template that requires a signed prescription is issued only to patients with one."
    >
      {list.isPending ? (
        <LoadingState label="Loading wallet pass templates…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : (
        <>
          {list.data.shops.length === 0 ? (
            <EmptyState title="No shops yet">A template belongs to a shop: add a shop first.</EmptyState>
          ) : (
            <CreateForm shops={list.data.shops} />
          )}
          {list.data.templates.length === 0 ? (
            <EmptyState title="No wallet pass templates yet">Create one above.</EmptyState>
          ) : (
            <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
              <table className={tableClass}>
                <thead className={theadClass}>
                  <tr>
                    <th scope="col" className="px-4 py-3">Template</th>
                    <th scope="col" className="px-4 py-3">Shop</th>
                    <th scope="col" className="px-4 py-3">Requires a signed prescription</th>
                    <th scope="col" className="px-4 py-3">Live passes</th>
                    <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.data.templates.map((t) => (
                    <TemplateRow key={t.uid} template={t} />
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

function CreateForm({ shops }: { shops: Shop[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [shopUid, setShopUid] = useState(shops[0].uid);
  const [displayName, setDisplayName] = useState("");
  const [requires, setRequires] = useState(false);
  const create = useMutation(
    trpc.admin.settings.walletPassTemplates.create.mutationOptions({
      onSuccess: async () => {
        setDisplayName("");
        setRequires(false);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.walletPassTemplates.list.pathKey() });
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ shopUid, displayName, requiresSignedPrescription: requires });
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Create a wallet pass template" className={cardClass}>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <SelectField label="Shop" value={shopUid} onChange={(e) => setShopUid(e.target.value)} errors={fieldErrors(create.error, "shopUid")}>
          {shops.map((s) => (
            <option key={s.uid} value={s.uid}>
              {s.displayName} ({s.identifier})
            </option>
          ))}
        </SelectField>
        <TextField label="Template name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={200} errors={fieldErrors(create.error, "displayName")} />
        <div className="flex items-center gap-3 pt-7">
          <input
            id="template-requires"
            type="checkbox"
            checked={requires}
            onChange={(e) => setRequires(e.target.checked)}
            className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
          />
          <label htmlFor="template-requires" className="text-sm text-slate-900">
            Requires a signed prescription
          </label>
        </div>
      </div>
      <div className="mt-4">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create template"}
        </Button>
      </div>
      {create.error && !create.error.data?.fieldErrors ? <ErrorState message={errorMessage(create.error)} /> : null}
    </form>
  );
}

function TemplateRow({ template }: { template: Template }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"view" | "edit">("view");
  const [displayName, setDisplayName] = useState(template.displayName);
  const [requires, setRequires] = useState(template.requiresSignedPrescription);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.walletPassTemplates.list.pathKey() });
  const change = useMutation(trpc.admin.settings.walletPassTemplates.change.mutationOptions({ onSuccess: async () => (setMode("view"), await refresh()) }));
  const remove = useMutation(trpc.admin.settings.walletPassTemplates.delete.mutationOptions({ onSuccess: refresh }));
  const checkboxId = `requires-${template.uid}`;
  return (
    <tr className="align-top">
      <td className="px-4 py-3">
        {mode === "edit" ? (
          <form
            id={`edit-${template.uid}`}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate({ templateUid: template.uid, displayName, requiresSignedPrescription: requires });
            }}
          >
            <TextField label="Template name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={200} errors={fieldErrors(change.error, "displayName")} />
          </form>
        ) : (
          <>
            <p className="font-medium text-slate-900">{template.displayName}</p>
            <p className="font-mono text-xs text-slate-500">
              {template.uid} · {template.passType}
            </p>
          </>
        )}
      </td>
      <td className="px-4 py-3 text-slate-700">
        {template.shop.displayName}
        <p className="font-mono text-xs text-slate-500">{template.shop.identifier}</p>
      </td>
      <td className="px-4 py-3 text-slate-700">
        {mode === "edit" ? (
          <div className="flex items-center gap-2">
            <input
              id={checkboxId}
              form={`edit-${template.uid}`}
              type="checkbox"
              checked={requires}
              onChange={(e) => setRequires(e.target.checked)}
              className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
            />
            <label htmlFor={checkboxId}>Requires a signed prescription</label>
          </div>
        ) : template.requiresSignedPrescription ? (
          "Yes"
        ) : (
          "No"
        )}
      </td>
      <td className="px-4 py-3 text-slate-700">{template.livePasses}</td>
      <td className="px-4 py-3 text-right">
        <div className="flex flex-col items-end gap-2">
          {mode === "edit" ? (
            <div className="flex gap-2">
              <Button type="submit" form={`edit-${template.uid}`} disabled={change.isPending}>
                Save template
              </Button>
              <Button tone="secondary" onClick={() => (setMode("view"), change.reset())}>
                Cancel
              </Button>
            </div>
          ) : (
            <div className="flex gap-2">
              <Button tone="secondary" aria-label={`Edit ${template.displayName}`} onClick={() => setMode("edit")}>
                Edit
              </Button>
              <ConfirmButton
                buttonLabel={`Delete ${template.displayName}`}
                title={`Delete the wallet pass template ${template.displayName}?`}
                confirmLabel="Confirm delete"
                pendingLabel="Deleting…"
                onConfirm={() => remove.mutateAsync({ templateUid: template.uid })}
                consequence={<p>No more passes can be issued from it. A template from which passes were issued cannot be deleted: they keep naming it.</p>}
              >
                Delete
              </ConfirmButton>
            </div>
          )}
          {change.error && !change.error.data?.fieldErrors ? <ErrorState message={errorMessage(change.error)} /> : null}
        </div>
      </td>
    </tr>
  );
}
