"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { cardClass, SettingsSection, tableClass, theadClass } from "./section";

/** Patient token secrets: a partner's backend signs patient tokens for the patient-data endpoints with one. */
export function PatientTokenSecrets() {
  return (
    <SettingsSection
      id="patient-token-secrets"
      title="Patient token secrets"
      description={
        <>
          Your backend signs patient tokens (HS256 JWT, the secret&apos;s uid as <code>kid</code>) with a secret; the patient-data endpoints accept them. A
          secret is shown once; revoking it refuses its tokens from the next request on.
        </>
      }
    >
      <CreateForm />
      <SecretList />
    </SettingsSection>
  );
}

function CreateForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState("");
  const [audience, setAudience] = useState("");
  const create = useMutation(
    trpc.admin.settings.patientTokenSecrets.create.mutationOptions({
      onSuccess: async () => {
        setDisplayName("");
        setAudience("");
        await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.patientTokenSecrets.list.pathKey() });
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ displayName, ...(audience.trim() ? { audience } : {}) });
  }
  return (
    <div className={cardClass}>
      <form onSubmit={submit} noValidate aria-label="Create a patient token secret" className="grid items-start gap-4 sm:grid-cols-[1fr_1fr_auto]">
        <TextField
          label="Secret name"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          maxLength={200}
          errors={fieldErrors(create.error, "displayName")}
        />
        <TextField
          label="Audience"
          value={audience}
          onChange={(e) => setAudience(e.target.value)}
          maxLength={200}
          placeholder="patient-data"
          hint="The aud claim its tokens must carry (default patient-data)."
          errors={fieldErrors(create.error, "audience")}
        />
        <div className="pt-6">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create secret"}
          </Button>
        </div>
      </form>
      {create.error && !create.error.data?.fieldErrors ? <ErrorState message={errorMessage(create.error)} /> : null}
      {create.data ? (
        <div className="mt-4 space-y-2">
          <SecretBox
            label="New patient token secret"
            value={create.data.secret}
            note={`Shown only this once: store it in your backend now. Sign tokens with kid “${create.data.uid}” and aud “${create.data.audience}”.`}
          />
        </div>
      ) : null}
    </div>
  );
}

function SecretList() {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.settings.patientTokenSecrets.list.queryOptions());
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.admin.settings.patientTokenSecrets.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.patientTokenSecrets.list.pathKey() }),
    }),
  );
  if (list.isPending) return <LoadingState label="Loading patient token secrets…" />;
  if (list.isError) return <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />;
  if (list.data.length === 0) return <EmptyState title="No patient token secrets yet">Create one above for your backend.</EmptyState>;
  return (
    <div className="space-y-3">
      {revokedName ? <Notice>Revoked “{revokedName}”: its tokens are refused.</Notice> : null}
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className={tableClass}>
          <thead className={theadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">Name</th>
              <th scope="col" className="px-4 py-3">Audience</th>
              <th scope="col" className="px-4 py-3">Created</th>
              <th scope="col" className="px-4 py-3">Last used</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.data.map((s) => (
              <tr key={s.uid} className="align-top">
                <td className="px-4 py-3">
                  <p className="font-medium text-slate-900">{s.displayName}</p>
                  <p className="font-mono text-xs text-slate-500">kid {s.uid}</p>
                </td>
                <td className="px-4 py-3 font-mono text-xs text-slate-700">{s.audience}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(s.createdAt)}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(s.lastUsedAt, "Never")}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700">{s.revokedAt ? `Revoked ${format.dateTime(s.revokedAt)}` : "Active"}</td>
                <td className="px-4 py-3 text-right">
                  {s.revokedAt ? null : (
                    <ConfirmButton
                      buttonLabel={`Revoke ${s.displayName}`}
                      title={`Revoke the patient token secret “${s.displayName}”?`}
                      confirmLabel="Confirm revoke"
                      pendingLabel="Revoking…"
                      onConfirm={async () => {
                        await revoke.mutateAsync({ secretUid: s.uid });
                        setRevokedName(s.displayName);
                      }}
                      consequence={<p>Every token signed with this secret is refused (401) from now on, including tokens already handed out. A revoked secret cannot be restored.</p>}
                    >
                      Revoke
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
