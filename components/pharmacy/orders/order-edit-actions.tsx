"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, FormError, SubmitButton, inputClass, useZodForm } from "@/components/ui/form";
import { useDeliveryTypeLabel } from "./delivery-type";
import { DELIVERY_TYPES, PHARMACY_ORDER_STATUS, type DeliveryType, type PharmacyOrderStatus, type SettablePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import { changeDeliveryTypeInput, changePriorityInput, clarificationInput } from "@/server/trpc/routers/pharmacy-orders.schemas";
import { runAction, TextArea, type Order, type Settle } from "./order-action-kit";

export function ClarificationAction({ order, settle }: { order: Order; settle: Settle }) {
  const t = useTranslations("pharmacy.order.clarification");
  const trpc = useTRPC();
  const mutation = useMutation(trpc.pharmacy.orders.requestClarification.mutationOptions());
  const form = useZodForm(clarificationInput, { uid: order.uid, description: "", expectedStatus: order.status as PharmacyOrderStatus });
  // Every status, cancelled too (the status table's "any"); a cancelled order goes on hold once confirmed.
  const cancelled = order.status === PHARMACY_ORDER_STATUS.cancelled;
  const [confirming, setConfirming] = useState<z.output<typeof clarificationInput> | null>(null);
  const ask = async (input: z.output<typeof clarificationInput>) => {
    if (await runAction(form, mutation.mutateAsync(input), settle, () => t("done"))) form.reset();
  };
  const submit = form.handleSubmit(async (input) => (cancelled ? setConfirming(input) : ask(input)));
  return (
    <Card level={3} title={t("title")}>
      <form className="space-y-3" onSubmit={submit} noValidate>
        <Field form={form} name="description" label={t("question")}>
          {(control) => <TextArea form={form} name="description" control={control} />}
        </Field>
        <SubmitButton form={form} tone="secondary">
          {t("submit")}
        </SubmitButton>
        <FormError form={form} />
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={t("cancelledTitle")}
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
    </Card>
  );
}

/** The priority as typed (a number input's text) into the procedure's integer, its limits unchanged. */
const priorityForm = changePriorityInput.extend({
  priority: z.preprocess((value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value), changePriorityInput.shape.priority),
});

/** Priority and delivery type: they mean something only while the order is in the queue. */
export function DetailsAction({ order, settle }: { order: Order; settle: Settle }) {
  const t = useTranslations("pharmacy.order.details");
  const deliveryTypeLabel = useDeliveryTypeLabel();
  const trpc = useTRPC();
  const priorityMutation = useMutation(trpc.pharmacy.orders.changePriority.mutationOptions());
  const deliveryMutation = useMutation(trpc.pharmacy.orders.changeDeliveryType.mutationOptions());
  const priority = useZodForm(priorityForm, { uid: order.uid, priority: String(order.priority), expectedPriority: order.priority });
  const delivery = useZodForm(changeDeliveryTypeInput, {
    uid: order.uid,
    deliveryType: order.deliveryType as DeliveryType,
    expectedDeliveryType: order.deliveryType as DeliveryType,
    expectedStatus: order.status as SettablePharmacyOrderStatus,
  });
  const savePriority = priority.handleSubmit((input) =>
    runAction(priority, priorityMutation.mutateAsync(input), settle, (r) => (r.changed ? t("priorityChanged") : t("priorityUnchanged"))),
  );
  const saveDelivery = delivery.handleSubmit((input) =>
    runAction(delivery, deliveryMutation.mutateAsync(input), settle, (r) => (r.changed ? t("deliveryChanged") : t("deliveryUnchanged"))),
  );
  if (!order.canComplete) return null;
  return (
    <Card level={3} title={t("title")}>
      <form className="flex items-end gap-2" onSubmit={savePriority} noValidate>
        <div className="flex-1">
          <Field form={priority} name="priority" label={t("priority")} type="number" min={-1000} max={1000} step={1} />
        </div>
        <SubmitButton form={priority} tone="secondary">
          {t("setPriority")}
        </SubmitButton>
      </form>
      <FormError form={priority} />
      <form className="mt-3 flex items-end gap-2" onSubmit={saveDelivery} noValidate>
        <div className="flex-1">
          <Field form={delivery} name="deliveryType" label={t("deliveryType")}>
            {(control) => (
              <select {...delivery.register("deliveryType")} {...control} className={inputClass}>
                {DELIVERY_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {deliveryTypeLabel(type)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <SubmitButton form={delivery} tone="secondary">
          {t("setDeliveryType")}
        </SubmitButton>
      </form>
      <FormError form={delivery} />
    </Card>
  );
}
