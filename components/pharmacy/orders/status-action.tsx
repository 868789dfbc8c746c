"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, FormError, SubmitButton, inputClass, useZodForm } from "@/components/ui/form";
import { useStatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS, SETTABLE_PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { changeStatusInput } from "@/server/trpc/routers/pharmacy-orders.schemas";
import { runAction, TextArea, type Order, type Settle } from "./order-action-kit";
import { GoodsReturnedChoice, useStatusConfirmations, type StatusConfirmation } from "./status-confirmation";

type ChangeStatus = z.output<typeof changeStatusInput>;

/** The Status card: the select shows the order's current status (even completed, which it cannot be set to); moving out of completed or cancelling asks first. */
export function StatusAction({ order, settle }: { order: Order; settle: Settle }) {
  const t = useTranslations("pharmacy.order.status");
  const tc = useTranslations("pharmacy.confirm");
  const statusLabel = useStatusLabel();
  const confirmations = useStatusConfirmations();
  const trpc = useTRPC();
  const mutation = useMutation(trpc.pharmacy.orders.changeStatus.mutationOptions());
  const form = useZodForm(changeStatusInput, {
    uid: order.uid,
    status: order.status as ChangeStatus["status"],
    comment: "",
    expectedStatus: order.status as ChangeStatus["expectedStatus"],
  });
  const [confirming, setConfirming] = useState<{ input: ChangeStatus; confirmation: StatusConfirmation } | null>(null);
  const [goodsReturned, setGoodsReturned] = useState(false);
  const asksGoodsReturned = confirming?.input.status === PHARMACY_ORDER_STATUS.cancelled && order.holdsStock;
  const change = (input: ChangeStatus) =>
    runAction(form, mutation.mutateAsync({ ...input, comment: input.comment?.trim() ? input.comment : null }), settle, () =>
      t("changed", { status: statusLabel("pharmacyOrder", input.status) }),
    ).then((done) => done && form.reset({ ...form.getValues(), comment: "" }));

  const chosen = form.watch("status");
  const allowed = new Set<string>(order.statusChanges);
  const final = order.statusChanges.length === 0;
  const settable = (SETTABLE_PHARMACY_ORDER_STATUSES as readonly string[]).includes(order.status);
  const submit = form.handleSubmit((input) => {
    const confirmation = confirmations.single(order.name, order.status, input.status);
    if (confirmation) {
      setGoodsReturned(false);
      setConfirming({ input, confirmation });
    }
    else return change(input);
  });
  return (
    <Card level={3} title={t("title")}>
      <form className="space-y-3" onSubmit={submit} noValidate>
        <Field form={form} name="status" label={t("label")}>
          {(control) => (
            <select {...form.register("status")} {...control} disabled={final} className={inputClass}>
              {settable ? null : (
                <option value={order.status} disabled>
                  {statusLabel("pharmacyOrder", order.status)}
                </option>
              )}
              {SETTABLE_PHARMACY_ORDER_STATUSES.map((s) => (
                <option key={s} value={s} disabled={s !== order.status && !allowed.has(s)}>
                  {statusLabel("pharmacyOrder", s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {chosen === PHARMACY_ORDER_STATUS.onHold && order.status !== PHARMACY_ORDER_STATUS.onHold ? (
          <Field form={form} name="comment" label={t("comment")} hint={t("commentHint")}>
            {(control) => <TextArea form={form} name="comment" control={control} />}
          </Field>
        ) : null}
        <SubmitButton form={form} disabled={final || form.formState.isSubmitting || chosen === order.status}>
          {form.formState.isSubmitting ? t("updating") : t("update")}
        </SubmitButton>
        {final ? <p className="text-xs text-slate-500">{t("cancelledIsFinal")}</p> : null}
        <p className="text-xs text-slate-500">{t("completedBy")}</p>
        <FormError form={form} />
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.confirmation.title ?? ""}
        confirmLabel={confirming?.confirmation.confirmLabel ?? ""}
        tone={confirming?.confirmation.tone}
        onConfirm={() => confirming && change({ ...confirming.input, goodsReturned: asksGoodsReturned ? goodsReturned : undefined })}
        onClose={() => setConfirming(null)}
      >
        {confirming?.confirmation.consequence}
        {asksGoodsReturned ? <GoodsReturnedChoice label={tc("goodsReturned")} checked={goodsReturned} onChange={setGoodsReturned} /> : null}
      </ConfirmDialog>
    </Card>
  );
}
