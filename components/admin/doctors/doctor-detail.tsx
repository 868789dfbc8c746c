"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { useFormat } from "@/components/ui/format";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";
import { PrescriberForm } from "./prescriber-form";
import { SettingsForm } from "./settings-form";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["doctors"];
type DoctorView = Outputs["get"];
type Context = Outputs["context"];

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

/**
 * One doctor of the organisation (the Doctors section): who they are and their rights (the settings
 * form), the prescriber details their prescriptions name, the linked signing credential, their
 * pending requests with Requeue, and Deactivate / Reactivate.
 */
export function DoctorDetail({ doctorUid }: { doctorUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.doctors.detail");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const doctor = useQuery(trpc.admin.doctors.get.queryOptions({ doctorUid }));
  const context = useQuery(trpc.admin.doctors.context.queryOptions({ doctorUid }));
  const [saved, setSaved] = useState<"settings" | "prescriber" | null>(null);
  const store = (result: DoctorView) => {
    queryClient.setQueryData(trpc.admin.doctors.get.queryKey({ doctorUid }), result);
    void queryClient.invalidateQueries({ queryKey: trpc.admin.doctors.list.queryKey() });
  };
  const changePrescriber = useMutation(trpc.admin.doctors.changePrescriberDetails.mutationOptions({ onSuccess: (result) => (setSaved("prescriber"), store(result)) }));
  const changeSettings = useMutation(trpc.admin.doctors.changeSettings.mutationOptions({ onSuccess: (result) => (setSaved("settings"), store(result)) }));

  if (doctor.isPending) return <LoadingState label={t("loading")} />;
  if (doctor.isError) {
    const notFound = doctor.error instanceof TRPCClientError && (doctor.error.data as { code?: string } | undefined)?.code === "NOT_FOUND";
    return <ErrorState message={notFound ? t("notFound") : errorMessage(doctor.error)} onRetry={notFound ? undefined : () => void doctor.refetch()} />;
  }
  const d = doctor.data;

  return (
    <div className="min-w-0 space-y-6">
      <p className="text-sm">
        <Link prefetch={false} href="/admin/doctors" className="text-brand-700 hover:text-brand-800">
          ← {t("back")}
        </Link>
      </p>
      <section aria-labelledby="doctor-heading" className={card}>
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="doctor-heading" className="min-w-0 text-lg font-semibold break-words text-slate-900">
            {d.name}
          </h2>
          {d.active ? (
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">{t("active")}</span>
          ) : (
            <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">{t("deactivated")}</span>
          )}
        </div>
        <p className="text-xs break-words text-slate-500">
          <span className="font-mono break-all">{d.uid}</span>
          {" · "}
          {d.user ? t("user", { email: d.user.email }) : t("noUser")}
        </p>
        <div className="mt-6">
          {saved === "settings" ? (
            <div className="mb-4">
              <Notice>{t("settingsSaved")}</Notice>
            </div>
          ) : null}
          {context.data ? (
            <SettingsForm
              key={`${d.uid}-${d.questionnaireUids.join(",")}`}
              doctor={d}
              questionnaires={context.data.questionnaires}
              onSubmit={(values) => {
                setSaved(null);
                return changeSettings.mutateAsync({ doctorUid, ...values });
              }}
            />
          ) : context.isError ? (
            <ErrorState message={errorMessage(context.error)} onRetry={() => void context.refetch()} />
          ) : (
            <LoadingState label={t("loading")} />
          )}
        </div>
      </section>

      <section aria-labelledby="prescriber-heading" className={card}>
        <h2 id="prescriber-heading" className="text-lg font-semibold text-slate-900">
          {t("prescriberHeading")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
        <div className="mt-4">
          {saved === "prescriber" ? (
            <div className="mb-4">
              <Notice>{t("saved")}</Notice>
            </div>
          ) : null}
          <PrescriberForm
            initial={d.prescriber}
            doctorEmail={d.email}
            onSubmit={(details) => {
              setSaved(null);
              return changePrescriber.mutateAsync({ doctorUid, ...details });
            }}
          />
        </div>
      </section>

      {context.data ? (
        <>
          <Credential context={context.data} />
          <Requeue doctorUid={doctorUid} doctorName={d.name} context={context.data} onDone={() => void context.refetch()} />
        </>
      ) : null}
      <Activation doctorUid={doctorUid} name={d.name} active={d.active} onDone={store} />
    </div>
  );
}

/** The doctor's signing credential at the trust service, as the doctor linked it (read-only here). */
function Credential({ context }: { context: Context }) {
  const t = useTranslations("admin.doctors.detail.credential");
  const format = useFormat();
  const c = context.credential;
  return (
    <section aria-labelledby="credential-heading" className={card}>
      <h2 id="credential-heading" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      {c ? (
        <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-700">{t("subject")}</dt>
          <dd className="min-w-0 break-words text-slate-900">
            {c.subjectName}
            <span className="block font-mono text-xs break-all text-slate-500">{c.subject}</span>
          </dd>
          <dt className="font-medium text-slate-700">{t("issuer")}</dt>
          <dd className="min-w-0 break-words text-slate-900">{c.issuerName}</dd>
          <dt className="font-medium text-slate-700">{t("validity")}</dt>
          <dd className="text-slate-900">{t("validRange", { from: format.dateTime(c.validFrom), to: format.dateTime(c.validTo) })}</dd>
        </dl>
      ) : (
        <p className="mt-1 text-sm text-slate-600">{context.sandbox ? t("sandbox") : context.trustService ? t("none", { service: context.trustService }) : t("noService")}</p>
      )}
    </section>
  );
}

/** Requeue the doctor's requests not decided yet (waiting, on hold): to the pool or to an active colleague. Approved ones stay. */
function Requeue({ doctorUid, doctorName, context, onDone }: { doctorUid: string; doctorName: string; context: Context; onDone: () => void }) {
  const t = useTranslations("admin.doctors.detail.requeue");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const selectId = useId();
  const [target, setTarget] = useState("");
  const [result, setResult] = useState<number | null>(null);
  const requeue = useMutation(
    trpc.admin.doctors.requeue.mutationOptions({
      onSuccess: ({ moved }) => {
        setResult(moved);
        onDone();
        void queryClient.invalidateQueries({ queryKey: trpc.admin.doctors.list.queryKey() });
      },
    }),
  );
  const movable = context.pending.waiting + context.pending.onHold;
  const colleague = context.colleagues.find((c) => c.uid === target);
  return (
    <section aria-labelledby="requeue-heading" className={card}>
      <h2 id="requeue-heading" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {t("counts", { waiting: context.pending.waiting, onHold: context.pending.onHold, approved: context.pending.approved })}
      </p>
      <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      {result !== null ? (
        <div className="mt-3">
          <Notice>{t("done", { count: result })}</Notice>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="w-full min-w-0 sm:w-auto sm:max-w-sm sm:flex-1">
          <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
            {t("target")}
          </label>
          <select
            id={selectId}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
          >
            <option value="">{t("pool")}</option>
            {context.colleagues.map((c) => (
              <option key={c.uid} value={c.uid}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <ConfirmButton
          buttonTone="secondary"
          disabled={movable === 0}
          title={colleague ? t("confirmTitleColleague", { name: doctorName, colleague: colleague.name }) : t("confirmTitlePool", { name: doctorName })}
          confirmLabel={t("confirm")}
          pendingLabel={t("pending")}
          onConfirm={() => requeue.mutateAsync({ doctorUid, toDoctorUid: target || null })}
          consequence={<p>{colleague ? t("consequenceColleague", { count: movable, colleague: colleague.name }) : t("consequencePool", { count: movable })}</p>}
        >
          {t("button")}
        </ConfirmButton>
      </div>
    </section>
  );
}

function Activation({ doctorUid, name, active, onDone }: { doctorUid: string; name: string; active: boolean; onDone: (result: DoctorView) => void }) {
  const t = useTranslations("admin.doctors.detail.activation");
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const setActive = useMutation(trpc.admin.doctors.setActive.mutationOptions({ onSuccess: onDone }));
  return (
    <section aria-labelledby="activation-heading" className={card}>
      <h2 id="activation-heading" className="text-lg font-semibold text-slate-900">
        {active ? t("deactivateHeading") : t("reactivateHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{active ? t("deactivateIntro") : t("reactivateIntro")}</p>
      <div className="mt-4">
        {active ? (
          <ConfirmButton
            title={t("confirmTitle", { name })}
            confirmLabel={t("confirm")}
            pendingLabel={t("pending")}
            onConfirm={() => setActive.mutateAsync({ doctorUid, active: false })}
            consequence={<p>{t("consequence")}</p>}
          >
            {t("deactivate")}
          </ConfirmButton>
        ) : (
          <Button tone="secondary" disabled={setActive.isPending} onClick={() => setActive.mutate({ doctorUid, active: true })}>
            {t("reactivate")}
          </Button>
        )}
        {setActive.isError && !active ? <ErrorState message={errorMessage(setActive.error)} /> : null}
      </div>
    </section>
  );
}
