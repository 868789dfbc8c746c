"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, FormError, SubmitButton, inputClass, showServerErrors, useZodForm } from "@/components/ui/form";
import { useStatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS, SETTABLE_PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { bulkChangeStatusInput } from "@/server/trpc/routers/pharmacy-orders.schemas";
import { GoodsReturnedChoice, useStatusConfirmations } from "./status-confirmation";

/** The selected orders to one status, each on its own (bulkChangePharmacyOrderStatus); what was refused is listed. */
export type BulkOutcome = { changed: number; unchanged: number; refused: { uid: string; message: string }[] };

type BulkInput = z.output<typeof bulkChangeStatusInput>;

/** `selected`: the selected orders with their status when selected (the confirmation names completed ones). */
export function BulkStatusChange({ pharmacyUid, selected, onDone }: { pharmacyUid?: string; selected: Map<string, string>; onDone: (outcome: BulkOutcome) => void }) {
  const t = useTranslations("pharmacy.queue.bulk");
  const tc = useTranslations("pharmacy.confirm");
  const statusLabel = useStatusLabel();
  const confirmations = useStatusConfirmations();
  const trpc = useTRPC();
  const mutation = useMutation(trpc.pharmacy.orders.bulkChangeStatus.mutationOptions());
  const form = useZodForm(bulkChangeStatusInput, { pharmacyUid, uids: [], status: "in-progress", comment: "" });
  const [confirming, setConfirming] = useState<BulkInput | null>(null);
  const [goodsReturned, setGoodsReturned] = useState(false);
  const uids = [...selected.keys()];
  // Many orders move at once: always asked first.
  const submit = form.handleSubmit((input) => {
    setGoodsReturned(false);
    setConfirming(input);
  });
  const change = async (input: BulkInput) => {
    try {
      const results = await mutation.mutateAsync({ ...input, comment: input.comment?.trim() ? input.comment : null });
      onDone({
        changed: results.filter((r) => r.ok && r.changed).length,
        unchanged: results.filter((r) => r.ok && !r.changed).length,
        refused: results.filter((r) => !r.ok).map((r) => ({ uid: r.uid, message: "message" in r ? r.message : "" })),
      });
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const completedCount = confirming?.uids.filter((uid) => selected.get(uid) === PHARMACY_ORDER_STATUS.completed).length ?? 0;
  const confirmation = confirming ? confirmations.bulk(confirming.uids.length, completedCount, confirming.status) : null;
  const asksGoodsReturned = confirming?.status === PHARMACY_ORDER_STATUS.cancelled && completedCount > 0;
  return (
    <form
      aria-label={t("label")}
      noValidate
      className="flex flex-wrap items-end gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4"
      onSubmit={(event) => {
        form.setValue("uids", uids);
        form.setValue("pharmacyUid", pharmacyUid);
        return submit(event);
      }}
    >
      <p className="w-full text-sm font-medium text-brand-900">{t("selected", { count: uids.length })}</p>
      <div className="w-full sm:w-56">
        <Field form={form} name="status" label={t("status")}>
          {(control) => (
            <select {...form.register("status")} {...control} className={inputClass}>
              {SETTABLE_PHARMACY_ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel("pharmacyOrder", s)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {form.watch("status") === PHARMACY_ORDER_STATUS.onHold ? (
        <div className="min-w-0 flex-1 sm:min-w-64">
          <Field form={form} name="comment" label={t("reason")} maxLength={5000} />
        </div>
      ) : null}
      <SubmitButton form={form} disabled={mutation.isPending}>
        {mutation.isPending ? t("changing") : t("submit")}
      </SubmitButton>
      <div className="w-full empty:hidden">
        <FormError form={form} />
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title={confirmation?.title ?? ""}
        confirmLabel={confirmation?.confirmLabel ?? ""}
        tone={confirmation?.tone}
        onConfirm={() => confirming && change({ ...confirming, goodsReturned: asksGoodsReturned ? goodsReturned : undefined })}
        onClose={() => setConfirming(null)}
      >
        {confirmation?.consequence}
        {asksGoodsReturned ? <GoodsReturnedChoice label={tc("bulkGoodsReturned")} checked={goodsReturned} onChange={setGoodsReturned} /> : null}
      </ConfirmDialog>
    </form>
  );
}
