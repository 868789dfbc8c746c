"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button } from "@/components/ui/controls";
import { useFormat } from "@/components/ui/format";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import type { presentBatch, presentSignCentre } from "@/server/trpc/routers/doctor.presenters";
import { useDay } from "./format";
import { SignDialog } from "./sign-dialog";

type Item = ReturnType<typeof presentSignCentre>["items"][number];
type Outcome = ReturnType<typeof presentBatch>["outcomes"][number];

const signable = (item: Item) => item.missing.length === 0 && !item.beingSigned && !item.order?.onHold;

/**
 * The Sign centre: the doctor's approved, unsigned prescriptions, each as it will be signed
 * (patient, date of birth, items with dosage; what a prescription lacks is shown and it cannot be
 * chosen). The doctor chooses some or all and signs them with one authorisation (one one-time
 * password or PIN outside the sandbox); a running batch shows its progress, and each prescription
 * its own outcome after.
 */
export function SignCentre() {
  const t = useTranslations("doctor.signCentre");
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.doctor.signCentre.list.queryOptions());
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState(false);
  const [batchUid, setBatchUid] = useState<string | null>(null);
  const [result, setResult] = useState<{ outcomes: Outcome[]; names: Map<string, string> } | null>(null);
  const sign = useMutation(trpc.doctor.signCentre.sign.mutationOptions());
  const progress = useQuery({
    ...trpc.doctor.signCentre.progress.queryOptions({ batchUid: batchUid ?? "00000000-0000-4000-8000-000000000000" }),
    enabled: sign.isPending && batchUid !== null,
    refetchInterval: 500,
  });

  if (list.isPending) return <LoadingState label={t("loading")} />;
  if (list.isError) return <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />;
  const items = list.data.items;
  const selectable = items.filter(signable);
  const selected = items.filter((item) => chosen.has(item.uid) && signable(item));
  const allChosen = selectable.length > 0 && selected.length === selectable.length;
  const toggle = (uid: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(uid)) next.delete(uid);
      else next.add(uid);
      return next;
    });

  const signChosen = async (authorisation: { otp?: string; pin?: string }) => {
    const uid = crypto.randomUUID();
    setBatchUid(uid);
    const names = new Map(selected.map((item) => [item.uid, item.patient.name]));
    try {
      const done = await sign.mutateAsync({ prescriptionUids: selected.map((item) => item.uid), batchUid: uid, ...authorisation });
      setResult({ outcomes: done.outcomes, names });
      setChosen(new Set());
    } finally {
      setBatchUid(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.doctor.signCentre.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.doctor.requests.pathKey() }),
      ]);
    }
  };

  return (
    <div className="space-y-4">
      {result ? <Outcomes outcomes={result.outcomes} names={result.names} onDismiss={() => setResult(null)} /> : null}
      {items.length === 0 ? (
        <EmptyState title={t("empty")}>{t("emptyHint")}</EmptyState>
      ) : (
        <section aria-label={t("listLabel")} className="space-y-3">
          <div className="flex flex-wrap items-center gap-3 rounded-xl border border-brand-100 bg-white p-3 shadow-sm sm:p-4">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={allChosen}
                disabled={selectable.length === 0}
                onChange={() => setChosen(allChosen ? new Set() : new Set(selectable.map((item) => item.uid)))}
              />
              {t("selectAll", { count: selectable.length })}
            </label>
            <span className="text-sm text-slate-600">{t("chosen", { count: selected.length, total: list.data.total })}</span>
            <Button className="ml-auto" disabled={selected.length === 0 || sign.isPending} onClick={() => setOpen(true)}>
              {t("signChosen", { count: selected.length })}
            </Button>
          </div>
          {list.data.total > items.length ? <Notice tone="warning">{t("limited", { shown: items.length, total: list.data.total })}</Notice> : null}
          <ul className="space-y-2">
            {items.map((item) => (
              <SignCentreRow key={item.uid} item={item} chosen={chosen.has(item.uid)} onToggle={() => toggle(item.uid)} />
            ))}
          </ul>
        </section>
      )}

      <SignDialog
        open={open}
        title={t("confirmTitle", { count: selected.length })}
        onSign={signChosen}
        onClose={() => setOpen(false)}
      >
        <p>{t("confirmSummary", { count: selected.length })}</p>
        <ul aria-label={t("chosenLabel")} className="max-h-48 list-disc overflow-y-auto pl-5">
          {selected.map((item) => (
            <li key={item.uid}>
              {item.patient.name}: {item.items.map((line) => t("itemWithDosage", { quantity: line.quantity, medicine: line.medicine, dosage: line.dosage ?? "" })).join("; ")}
            </li>
          ))}
        </ul>
        <p>{t("confirmConsequence")}</p>
        {sign.isPending ? <Progress progress={progress.data ?? null} count={selected.length} /> : null}
      </SignDialog>
    </div>
  );
}

function SignCentreRow({ item, chosen, onToggle }: { item: Item; chosen: boolean; onToggle: () => void }) {
  const t = useTranslations("doctor.signCentre");
  const day = useDay();
  const format = useFormat();
  const can = signable(item);
  return (
    <li className={`rounded-xl border bg-white p-3 shadow-sm sm:p-4 ${can ? "border-slate-200" : "border-amber-300"}`}>
      <div className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={can && chosen}
          disabled={!can}
          onChange={onToggle}
          aria-label={t("choose", { patient: item.patient.name })}
        />
        <div className="min-w-0 flex-1 space-y-1 text-sm">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <Link prefetch={false} href={`/admin/doctor/requests/${item.uid}`} className="font-medium text-brand-800 hover:underline">
              {item.patient.name}
            </Link>
            <span className="text-slate-600">{t("born", { day: day(item.patient.dateOfBirth, t("notGiven")) })}</span>
            <span className="text-slate-500">{t("requested", { when: format.dateTime(item.createdAt) })}</span>
            {item.order ? <span className="text-slate-500">{t("order", { order: item.order.name })}</span> : null}
          </div>
          <ul aria-label={t("itemsOf", { patient: item.patient.name })} className="list-disc pl-5 text-slate-800">
            {item.items.map((line) => (
              <li key={line.uid}>
                {line.dosage
                  ? t("itemWithDosage", { quantity: line.quantity, medicine: line.medicine, dosage: line.dosage })
                  : t("itemNoDosage", { quantity: line.quantity, medicine: line.medicine })}
              </li>
            ))}
          </ul>
          {item.missing.length > 0 ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
              <p className="font-medium">{t("incomplete")}</p>
              <ul className="list-disc pl-5">
                {item.missing.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {item.beingSigned ? <p className="text-amber-900">{t("beingSigned")}</p> : null}
          {item.order?.onHold ? <p className="text-amber-900">{t("orderOnHold")}</p> : null}
        </div>
      </div>
    </li>
  );
}

function Progress({ progress, count }: { progress: { phase: string; total: number; claimed: number; rendered: number; stored: number } | null; count: number }) {
  const t = useTranslations("doctor.signCentre");
  const phase = progress?.phase ?? "claiming";
  const total = progress?.total ?? count;
  // Rendering is most of the work: it fills the bar to 80 %, storing the rest.
  const share = progress ? (phase === "claiming" ? 0 : phase === "rendering" ? (progress.rendered / total) * 0.8 : phase === "signing" ? 0.8 : 0.8 + (progress.stored / total) * 0.2) : 0;
  const text =
    phase === "rendering"
      ? t("progress.rendering", { done: progress?.rendered ?? 0, total })
      : phase === "signing"
        ? t("progress.signing", { total })
        : phase === "storing" || phase === "done"
          ? t("progress.storing", { done: progress?.stored ?? 0, total })
          : t("progress.claiming", { total });
  return (
    <div role="status" className="space-y-1">
      <progress className="h-2 w-full" max={100} value={Math.round(share * 100)} aria-label={t("progress.label")} />
      <p className="text-slate-700">{text}</p>
    </div>
  );
}

function Outcomes({ outcomes, names, onDismiss }: { outcomes: Outcome[]; names: Map<string, string>; onDismiss: () => void }) {
  const t = useTranslations("doctor.signCentre");
  const signed = outcomes.filter((o) => o.outcome === "signed").length;
  return (
    <section aria-label={t("outcomesLabel")} className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="font-medium text-slate-900">
          {t("outcomeSummary", { signed, total: outcomes.length })}
        </p>
        <Button tone="secondary" className="ml-auto" onClick={onDismiss}>
          {t("dismiss")}
        </Button>
      </div>
      <ul className="space-y-1 text-sm">
        {outcomes.map((o) => (
          <li key={o.uid} className="flex flex-wrap gap-x-2">
            <span className="font-medium text-slate-900">{names.get(o.uid) ?? o.uid}:</span>
            <span className={o.outcome === "signed" ? "text-emerald-800" : "text-amber-900"}>{t(`outcome.${o.outcome === "not signed" ? "notSigned" : o.outcome}`)}</span>
            {o.reason ? <span className="text-slate-600">{o.reason}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
