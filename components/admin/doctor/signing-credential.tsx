"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { findCredentialsInput, linkCredentialInput } from "@/server/trpc/routers/doctor.schemas";

type Status = inferRouterOutputs<AppRouter>["doctor"]["signing"]["status"];
type Choice = inferRouterOutputs<AppRouter>["doctor"]["signing"]["findCredentials"][number];

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

/**
 * The doctor's own signing credential (docs/decisions/prescriptions.md#remote-qualified-signatures): in the
 * sandbox, what the sandbox signs with; elsewhere the credential linked at the organisation's trust
 * service (unlink after a confirmation), and finding one to link — by the doctor's user id at the
 * service, or by its credential ID. The server links only a qualified certificate in the doctor's
 * own name; the reasons it gives otherwise are shown beside each credential.
 */
export function SigningCredential() {
  const t = useTranslations("doctor.signature");
  const trpc = useTRPC();
  const status = useQuery(trpc.doctor.signing.status.queryOptions());
  return (
    <QueryView query={status} loadingLabel={t("loading")}>
      {(data) =>
        data.sandbox ? (
          <section aria-label={t("sandboxHeading")} className={card}>
            <h2 className="text-sm font-semibold text-slate-900">{t("sandboxHeading")}</h2>
            <p className="mt-2 text-sm text-slate-700">{t("sandbox")}</p>
          </section>
        ) : !data.trustService ? (
          <Notice tone="warning">{t("noTrustService")}</Notice>
        ) : (
          <div className="space-y-6">
            <Linked status={data} service={data.trustService.name} />
            <Find service={data.trustService.name} linked={Boolean(data.credential)} />
          </div>
        )
      }
    </QueryView>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.doctor.signing.pathKey() });
}

function Linked({ status, service }: { status: Status; service: string }) {
  const t = useTranslations("doctor.signature");
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const unlink = useMutation(trpc.doctor.signing.unlink.mutationOptions());
  const credential = status.credential;
  if (!credential) return <Notice tone="warning">{t("notLinked", { service })}</Notice>;
  const factors = credential.authFactors.map((f) => (f === "OTP" ? t("factorOtp") : t("factorPin"))).join(", ");
  return (
    <section aria-label={t("linkedHeading")} className={`${card} space-y-3`}>
      <h2 className="text-sm font-semibold text-slate-900">{t("linkedHeading")}</h2>
      <p className="text-sm break-words text-slate-700">
        {t("linked", {
          subject: credential.subjectName,
          issuer: credential.issuerName,
          serial: credential.serialNumber,
          validTo: format.date(credential.validTo),
          linkedAt: format.dateTime(credential.linkedAt),
        })}
      </p>
      {factors ? <p className="text-sm text-slate-700">{t("factors", { factors })}</p> : null}
      <ConfirmButton
        title={t("unlinkTitle")}
        confirmLabel={t("unlinkConfirm")}
        pendingLabel={t("unlinking")}
        consequence={t("unlinkConsequence")}
        onConfirm={async () => {
          await unlink.mutateAsync();
          await refresh();
        }}
      >
        {t("unlink")}
      </ConfirmButton>
    </section>
  );
}

function Find({ service, linked }: { service: string; linked: boolean }) {
  const t = useTranslations("doctor.signature");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [done, setDone] = useState(false);
  const find = useMutation(trpc.doctor.signing.findCredentials.mutationOptions());
  const link = useMutation(trpc.doctor.signing.link.mutationOptions());
  const userForm = useZodForm(findCredentialsInput, { userId: "" });
  const idForm = useZodForm(linkCredentialInput, { credentialId: "" });
  const linked_ = async () => {
    setDone(true);
    find.reset();
    idForm.reset({ credentialId: "" });
    await refresh();
  };
  return (
    <section aria-label={linked ? t("replaceHeading", { service }) : t("findHeading", { service })} className={`${card} space-y-5`}>
      <h2 className="text-sm font-semibold text-slate-900">{linked ? t("replaceHeading", { service }) : t("findHeading", { service })}</h2>
      {done ? <Notice>{t("linkedNotice")}</Notice> : null}
      <form onSubmit={submitWith(userForm, find.mutateAsync)} noValidate className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]" onChange={() => setDone(false)}>
        <Field form={userForm} name="userId" label={t("userId", { service })} hint={t("userIdHint")} maxLength={200} autoComplete="username" />
        <SubmitButton form={userForm} tone="secondary" className="sm:mb-5">
          {t("find")}
        </SubmitButton>
        <div className="sm:col-span-2">
          <FormError form={userForm} />
        </div>
      </form>
      {find.data ? (
        find.data.length === 0 ? (
          <EmptyState title={t("noneFound")} />
        ) : (
          <ul aria-label={t("credentialsLabel", { service })} className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {find.data.map((choice) => (
              <ChoiceRow key={choice.credentialId} choice={choice} pending={link.isPending} onLink={() => link.mutateAsync({ credentialId: choice.credentialId }).then(linked_)} />
            ))}
          </ul>
        )
      ) : null}
      <form onSubmit={submitWith(idForm, link.mutateAsync, linked_)} noValidate className="space-y-3 border-t border-slate-100 pt-4" onChange={() => setDone(false)}>
        <h3 className="text-sm font-medium text-slate-800">{t("orHeading")}</h3>
        <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <Field form={idForm} name="credentialId" label={t("credentialId")} hint={t("credentialIdHint")} maxLength={200} autoComplete="off" />
          <SubmitButton form={idForm} className="sm:mb-5">
            {t("link")}
          </SubmitButton>
        </div>
        <FormError form={idForm} />
      </form>
    </section>
  );
}

function ChoiceRow({ choice, pending, onLink }: { choice: Choice; pending: boolean; onLink: () => Promise<unknown> }) {
  const t = useTranslations("doctor.signature");
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const [error, setError] = useState<string | null>(null);
  const name = choice.subjectName ?? t("unknownSubject");
  return (
    <li className="space-y-2 p-3 text-sm">
      <p className="font-medium break-words text-slate-900">
        {name}
        {choice.issuerName ? <span className="font-normal text-slate-600"> · {choice.issuerName}</span> : null}
        {choice.validTo ? <span className="font-normal text-slate-600"> · {t("validUntil", { date: format.date(choice.validTo) })}</span> : null}
      </p>
      <p className="break-all text-xs text-slate-500">{choice.credentialId}</p>
      {choice.problems.length > 0 ? (
        <div className="text-amber-900">
          <p className="font-medium">{t("cannotLink")}</p>
          <ul className="list-disc pl-5">
            {choice.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : (
        <Button
          disabled={pending}
          aria-label={t("chooseLabel", { credential: name })}
          onClick={() => {
            setError(null);
            onLink().catch((failure: unknown) => setError(errorMessage(failure)));
          }}
        >
          {t("choose")}
        </Button>
      )}
      {error ? <ErrorState message={error} /> : null}
    </li>
  );
}
