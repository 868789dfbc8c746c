"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { z } from "zod";
import { textareaClass } from "@/components/issue-threads/thread-conversation";
import { errorReason, useErrorMessage } from "@/components/trpc/errors";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useTRPC } from "@/components/trpc/react";
import { Field, FormError, SubmitButton, showServerErrors, useZodForm } from "@/components/ui/form";
import { Notice } from "@/components/ui/states";
import { StatusBadge } from "@/components/ui/status-badge";
import { PHARMACY_ORDER_STATUS, type PharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import type { AdminOrderDetailView } from "@/server/trpc/routers/admin-orders.presenters";
import { clarificationInput } from "@/server/trpc/routers/pharmacy-orders.schemas";

type PharmacyOrder = NonNullable<AdminOrderDetailView["fulfillments"][number]["pharmacyOrder"]>;
type Outcome = { tone: "success" | "warning"; text: string; threadUid?: string };

/**
 * The admin team's clarification requests on the order page: a question per pharmacy order
 * (admin.orders.requestClarification, the rule a pharmacist's request follows). The pharmacy order
 * goes on hold and the pharmacy sees the question on its order page; the admin continues in the
 * thread. A cancelled pharmacy order takes one too, once confirmed (clarification.ts). Reads the order page's own
 * query (same key: no second request) and shows nothing until it has the order.
 */
export function AdminClarificationRequests({ uid }: { uid: string }) {
  const t = useTranslations("adminDoors.clarification");
  const trpc = useTRPC();
  const detail = useQuery(trpc.admin.orders.get.queryOptions({ uid }));
  // Above the forms: a form starts afresh when its order's status changes, and the outcome must stay.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const pharmacyOrders = detail.data?.fulfillments.flatMap((f) => (f.pharmacyOrder ? [f.pharmacyOrder] : [])) ?? [];
  if (pharmacyOrders.length === 0) return null;
  return (
    <section aria-labelledby="clarification-heading" className="mt-6 min-w-0 space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id="clarification-heading" className="text-lg font-semibold text-slate-900">
          {t("heading")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {outcome ? (
        <Notice tone={outcome.tone}>
          {outcome.text}
          {outcome.threadUid ? (
            <>
              {" "}
              <Link prefetch={false} href={`/admin/issues/${outcome.threadUid}`} className="font-medium underline">
                {t("openThread")}
              </Link>
            </>
          ) : null}
        </Notice>
      ) : null}
      {pharmacyOrders.map((po) => (
        <ClarificationForm key={`${po.uid}-${po.status}`} po={po} onOutcome={setOutcome} />
      ))}
    </section>
  );
}

function ClarificationForm({ po, onOutcome }: { po: PharmacyOrder; onOutcome: (outcome: Outcome) => void }) {
  const t = useTranslations("adminDoors.clarification");
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const request = useMutation(trpc.admin.orders.requestClarification.mutationOptions());
  const form = useZodForm(clarificationInput, { uid: po.uid, description: "", expectedStatus: po.status as PharmacyOrderStatus });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.issues.pathKey() }),
    ]);
  // A cancelled pharmacy order goes on hold too (the status table's "any"), once confirmed.
  const cancelled = po.status === PHARMACY_ORDER_STATUS.cancelled;
  const [confirming, setConfirming] = useState<z.output<typeof clarificationInput> | null>(null);
  const ask = async (input: z.output<typeof clarificationInput>) => {
    try {
      const result = await request.mutateAsync(input);
      form.reset({ ...input, description: "" });
      onOutcome({
        tone: "success",
        text: t(result.statusChanged ? "done" : "doneAlreadyOnHold", { name: po.name, pharmacy: po.pharmacy.displayName }),
        threadUid: result.threadUid,
      });
    } catch (error) {
      // The pharmacy order changed since the page showed it: nothing was asked; the page shows it as it is now.
      if (errorReason(error) !== "order_changed") {
        showServerErrors(form, error);
        return;
      }
      onOutcome({ tone: "warning", text: errorMessage(error) });
    }
    await refresh();
  };
  const submit = form.handleSubmit(async (input) => (cancelled ? setConfirming(input) : ask(input)));
  return (
    <form className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4" aria-label={t("formLabel", { name: po.name })} onSubmit={submit} noValidate>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="text-sm font-semibold break-words text-slate-900">
          {t("formHeading", { name: po.name })}
        </h3>
        <StatusBadge kind="pharmacyOrder" status={po.status} />
        <span className="text-sm break-words text-slate-600">{po.pharmacy.displayName}</span>
      </div>
      <Field form={form} name="description" label={t("question")} hint={po.status === PHARMACY_ORDER_STATUS.onHold ? t("hintOnHold") : cancelled ? t("hintCancelled") : t("hint")}>
        {(control) => <textarea {...control} {...form.register("description")} rows={3} maxLength={5000} className={textareaClass} />}
      </Field>
      <SubmitButton form={form} tone="secondary">
        {t("submit")}
      </SubmitButton>
      <FormError form={form} />
      <ConfirmDialog
        open={confirming !== null}
        title={t("cancelledTitle", { name: po.name })}
        confirmLabel={t("cancelledConfirm")}
        onConfirm={() => {
          const input = confirming;
          setConfirming(null);
          if (input) void ask(input);
        }}
        onClose={() => setConfirming(null)}
      >
        <p>{t("cancelledConsequence")}</p>
      </ConfirmDialog>
    </form>
  );
}
