"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

/** The organisation's questionnaires (anamnesis forms), and creating one, which opens it in the editor. */
export function QuestionnaireList() {
  return (
    <div className="space-y-10">
      <CreateForm />
      <List />
    </div>
  );
}

function CreateForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [displayName, setDisplayName] = useState("");
  const create = useMutation(trpc.admin.questionnaires.create.mutationOptions({ onSuccess: ({ uid }) => router.push(`/admin/questionnaires/${uid}`) }));
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ displayName });
  }
  return (
    <section aria-labelledby="create-questionnaire-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="create-questionnaire-heading" className="text-lg font-semibold text-slate-900">
        Create a questionnaire
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        It starts with one question; edit its model in the editor. The intent a patient answers it for (e.g. “consultation”) is given with each
        submission, not here.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 flex flex-wrap items-end gap-4">
        <div className="min-w-72 flex-1">
          <TextField label="Questionnaire name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={200} errors={fieldErrors(create.error, "displayName")} />
        </div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create questionnaire"}
        </Button>
      </form>
      {create.error && !create.error.data?.fieldErrors ? (
        <div className="mt-3">
          <ErrorState message={errorMessage(create.error)} />
        </div>
      ) : null}
    </section>
  );
}

function List() {
  const format = useFormat();
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.questionnaires.list.queryOptions());
  return (
    <section aria-labelledby="questionnaires-heading">
      <h2 id="questionnaires-heading" className="text-lg font-semibold text-slate-900">
        Questionnaires
      </h2>
      <div className="mt-3">
        {list.isPending ? (
          <LoadingState label="Loading questionnaires…" />
        ) : list.isError ? (
          <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState title="No questionnaires yet">Create one above, or publish one through the Management API.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Published</th>
                  <th scope="col" className="px-4 py-3">Unpublished draft</th>
                  <th scope="col" className="px-4 py-3">Responses</th>
                  <th scope="col" className="px-4 py-3">Last change</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.data.map((q) => (
                  <tr key={q.uid}>
                    <td className="px-4 py-3">
                      <Link href={`/admin/questionnaires/${q.uid}`} className="font-medium text-brand-700 hover:underline">
                        {q.displayName}
                      </Link>
                      <p className="font-mono text-xs text-slate-500">{q.uid}</p>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(q.publishedAt, "Not yet")}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{q.draftSavedAt ? `Saved ${format.dateTime(q.draftSavedAt)}` : "None"}</td>
                    <td className="px-4 py-3 text-slate-700">{q.responses}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(q.updatedAt)}</td>
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
