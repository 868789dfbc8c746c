"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useFormat } from "@/components/ui/format";
import { Button } from "@/components/ui/controls";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { FieldValues, Path } from "react-hook-form";
import { Field, FormError, SubmitOrCancel, useZodForm, submitWith, type AnyForm } from "@/components/ui/form";
import { Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { declineInput, holdInput } from "@/server/trpc/routers/doctor.schemas";
import type { presentRequest } from "@/server/trpc/routers/doctor.presenters";
import { useStatusLabel } from "@/components/ui/status";
import { useDay } from "./format";
import { SignDialog } from "./sign-dialog";
import { TextAreaControl } from "./text-area-field";

type Mode = "actions" | "approve" | "sign" | "decline" | "hold";
export type Request = ReturnType<typeof presentRequest>;

/**
 * The doctor's decision: approve (signed later in the Sign centre, with others), sign at once
 * (approve and sign; after a summary of what is signed, and of what is missing), decline with a
 * reason, or put on hold with a note. Each asks once before it acts.
 */
export function Decision({ request, hasAnamnesis }: { request: Request; hasAnamnesis: boolean }) {
  const t = useTranslations("doctor.decision");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const { uid, status, awaitingDecision, signedAt } = request;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>("actions");
  const [done, setDone] = useState<string | null>(null);
  const after = async (message: string) => {
    setMode("actions");
    setDone(message);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.doctor.requests.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.doctor.signCentre.pathKey() }),
    ]);
  };
  const approve = useMutation(trpc.doctor.requests.approve.mutationOptions({ onSuccess: () => after(t("approved")) }));
  const approved = status === "approved";
  const sign = useMutation(
    trpc.doctor.requests.sign.mutationOptions({ onSuccess: (r) => after(r.status === "NON_QES_SIGNED" ? t("signedNonQes") : t("signed")) }),
  );
  const start = (next: Mode) => () => {
    setDone(null);
    sign.reset();
    setMode(next);
  };

  if (awaitingDecision && request.order?.onHold) {
    return (
      <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 shadow-sm">
        {t("orderOnHold", { order: request.order.name })}
      </p>
    );
  }

  if (!awaitingDecision) {
    return (
      <div className="space-y-3">
        {done ? <Notice>{done}</Notice> : null}
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm">
          {signedAt ? t("signedAt", { when: format.dateTime(signedAt) }) : t("nothingLeft", { status: statusLabel("prescription", status) })}
        </p>
      </div>
    );
  }

  return (
    <section aria-label={t("label")} className="space-y-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:p-5">
      {done ? <Notice>{done}</Notice> : null}
      {mode === "actions" ? (
        <div className="flex flex-wrap items-center gap-3">
          {approved ? null : (
            <Button tone="secondary" disabled={approve.isPending} onClick={start("approve")}>
              {t("approve")}
            </Button>
          )}
          <Button disabled={sign.isPending} onClick={start("sign")}>
            {sign.isPending ? t("signing") : t("sign")}
          </Button>
          <Button tone="secondary" onClick={start("hold")}>
            {t("hold")}
          </Button>
          <Button tone="danger" onClick={start("decline")}>
            {t("decline")}
          </Button>
          <p className="text-xs text-slate-500">{approved ? t("signApprovedHint") : t("signHint")}</p>
        </div>
      ) : null}
      {approved ? (
        <p className="text-sm text-slate-700">
          {t("approvedWaits")}{" "}
          <Link prefetch={false} href="/admin/doctor/sign-centre" className="font-medium text-brand-800 underline">
            {t("toSignCentre")}
          </Link>
        </p>
      ) : null}

      <ConfirmDialog
        open={mode === "approve"}
        title={t("approveTitle", { patient: request.patient.name })}
        confirmLabel={t("confirmApprove")}
        pendingLabel={t("approving")}
        tone="primary"
        onConfirm={() => approve.mutateAsync({ prescriptionUid: uid })}
        onClose={() => setMode((m) => (m === "approve" ? "actions" : m))}
      >
        <SignSummary request={request} hasAnamnesis={hasAnamnesis} consequence={t("approveConsequence")} />
      </ConfirmDialog>

      <SignDialog
        open={mode === "sign"}
        title={t("signTitle", { patient: request.patient.name })}
        onSign={(authorisation) => sign.mutateAsync({ prescriptionUid: uid, ...authorisation })}
        onClose={() => setMode((m) => (m === "sign" ? "actions" : m))}
      >
        <SignSummary request={request} hasAnamnesis={hasAnamnesis} />
      </SignDialog>

      {mode === "decline" ? <DeclineForm uid={uid} onCancel={() => setMode("actions")} onDone={() => after(t("declined"))} /> : null}
      {mode === "hold" ? <HoldForm uid={uid} onCancel={() => setMode("actions")} onDone={() => after(t("held"))} /> : null}
    </section>
  );
}

type FormProps = { uid: string; onCancel: () => void; onDone: () => Promise<void> };

/** Declining: the reason is recorded with the decision; the patient's order for these items is cancelled. */
function DeclineForm({ uid, onCancel, onDone }: FormProps) {
  const t = useTranslations("doctor.decision");
  const trpc = useTRPC();
  const form = useZodForm(declineInput, { prescriptionUid: uid, reason: "" });
  const decline = useMutation(trpc.doctor.requests.decline.mutationOptions());
  return (
    <TextDecisionForm
      form={form}
      name="reason"
      onSubmit={submitWith(form, decline.mutateAsync, onDone)}
      onCancel={onCancel}
      tone="danger"
      texts={{ heading: t("declineHeading"), label: t("reason"), hint: t("reasonHint"), confirm: t("confirmDecline") }}
    />
  );
}

/** Putting on hold: a note of what is needed before the doctor can decide. */
function HoldForm({ uid, onCancel, onDone }: FormProps) {
  const t = useTranslations("doctor.decision");
  const trpc = useTRPC();
  const form = useZodForm(holdInput, { prescriptionUid: uid, note: "" });
  const hold = useMutation(trpc.doctor.requests.hold.mutationOptions());
  return (
    <TextDecisionForm
      form={form}
      name="note"
      onSubmit={submitWith(form, hold.mutateAsync, onDone)}
      onCancel={onCancel}
      texts={{ heading: t("holdHeading"), label: t("note"), hint: t("noteHint"), confirm: t("confirmHold") }}
    />
  );
}

/** A decision that takes one text (a reason, a note): its heading, the text, confirm and cancel. */
function TextDecisionForm<V extends FieldValues>({
  form,
  name,
  onSubmit,
  onCancel,
  tone,
  texts,
}: {
  form: AnyForm<V>;
  name: Path<V>;
  onSubmit: () => void;
  onCancel: () => void;
  tone?: "danger";
  texts: { heading: string; label: string; hint: string; confirm: string };
}) {
  return (
    <form className="space-y-3" onSubmit={onSubmit} noValidate>
      <h2 className="text-sm font-semibold text-slate-900">{texts.heading}</h2>
      <Field form={form} name={name} label={texts.label} hint={texts.hint}>
        {(control) => <TextAreaControl {...control} required {...form.register(name)} />}
      </Field>
      <FormError form={form} />
      <SubmitOrCancel form={form} tone={tone} onCancel={onCancel}>
        {texts.confirm}
      </SubmitOrCancel>
    </form>
  );
}

/** What the doctor signs, and the facts the request lacks, said in words before the signature. */
function SignSummary({ request, hasAnamnesis, consequence }: { request: Request; hasAnamnesis: boolean; consequence?: string }) {
  const t = useTranslations("doctor.decision");
  const day = useDay();
  const missing = [
    ...(hasAnamnesis ? [] : [t("missingAnamnesis")]),
    ...(request.patient.dateOfBirth ? [] : [t("missingBirth")]),
    ...request.items.filter((item) => !item.sku.pzn).map((item) => t("missingPzn", { sku: item.sku.name })),
  ];
  return (
    <>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">{t("patient")}</dt>
        <dd className="text-slate-900">{request.patient.name}</dd>
        <dt className="text-slate-500">{t("dateOfBirth")}</dt>
        <dd className="text-slate-900">{day(request.patient.dateOfBirth, t("notGiven"))}</dd>
      </dl>
      <p className="text-slate-500">{t("items")}</p>
      <ul aria-label={t("itemsToSign")} className="list-disc space-y-1 pl-5">
        {request.items.map((item) => (
          <li key={item.uid}>
            {item.dosage
              ? t("itemWithDosage", { quantity: item.quantity, sku: item.sku.name, pzn: item.sku.pzn ?? t("noPzn"), dosage: item.dosage })
              : t("item", { quantity: item.quantity, sku: item.sku.name, pzn: item.sku.pzn ?? t("noPzn") })}
          </li>
        ))}
      </ul>
      {missing.length > 0 ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          <p className="font-medium">{t("missingHeading")}</p>
          <ul aria-label={t("missingLabel")} className="list-disc pl-5">
            {missing.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p>{consequence ?? t("signConsequence")}</p>
    </>
  );
}
