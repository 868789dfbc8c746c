"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { Field, FormError, SubmitOrCancel, inputClass, useZodForm } from "@/components/ui/form";
import { CARRIERS, PHARMACY_ORDER_STATUS, type PharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import { addShipmentInput, completeOrderInput } from "@/server/trpc/routers/pharmacy-orders.schemas";
import { runAction, type Order, type Settle } from "./order-action-kit";

/**
 * The completion form's one tracking link as typed, made into the procedure's input: a carrier by
 * its name whatever the case typed, and no link at all when both fields are empty (the link is
 * optional). Field errors keep their paths (trackingLinks.0.…).
 */
const completeForm = z
  .object({ uid: z.string(), trackingLinks: z.array(z.object({ trackingLink: z.string(), carrier: z.string() })), expectedStatus: z.string() })
  .transform((values): z.input<typeof completeOrderInput> => ({
    ...values,
    trackingLinks: values.trackingLinks
      .map(({ trackingLink, carrier }) => ({
        trackingLink: trackingLink.trim(),
        // An unknown carrier goes on as typed, for the schema to name.
        carrier: (CARRIERS.find((c) => c.toLowerCase() === carrier.trim().toLowerCase()) ?? carrier.trim()) as (typeof CARRIERS)[number],
      }))
      .filter((link) => link.trackingLink || link.carrier),
    expectedStatus: values.expectedStatus as PharmacyOrderStatus,
  }))
  .pipe(completeOrderInput);

export function CompleteAction({ order, settle }: { order: Order; settle: Settle }) {
  const t = useTranslations("pharmacy.order.complete");
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const mutation = useMutation(trpc.pharmacy.orders.complete.mutationOptions());
  const form = useZodForm(completeForm, { uid: order.uid, trackingLinks: [{ trackingLink: "", carrier: "" }], expectedStatus: order.status });
  // A cancelled order completes too (the status table's "any"), once confirmed: its goods go out after all.
  const cancelled = order.status === PHARMACY_ORDER_STATUS.cancelled;
  const [confirming, setConfirming] = useState<z.output<typeof completeForm> | null>(null);
  const complete = async (input: z.output<typeof completeForm>) => {
    if (await runAction(form, mutation.mutateAsync(input), settle, () => t("done"))) {
      setOpen(false);
      form.reset();
    }
  };
  const submit = form.handleSubmit(async (input) => (cancelled ? setConfirming(input) : complete(input)));
  if (!order.canComplete && !cancelled) return null;
  return (
    <Card level={3} title={t("title")}>
      {!open ? (
        <Button onClick={() => setOpen(true)}>{t("open")}</Button>
      ) : (
        <form aria-label={t("formLabel")} className="space-y-3" onSubmit={submit} noValidate>
          <p className="text-sm text-slate-600">{t("intro")}</p>
          <Field form={form} name="trackingLinks.0.trackingLink" label={t("trackingLink")} type="url" placeholder="https://…" />
          <Field form={form} name="trackingLinks.0.carrier" label={t("carrier")} list="carriers" placeholder={CARRIERS.join(", ")} />
          <datalist id="carriers">
            {CARRIERS.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <SubmitOrCancel form={form} onCancel={() => setOpen(false)}>
            {form.formState.isSubmitting ? t("completing") : t("submit")}
          </SubmitOrCancel>
          <FormError form={form} />
        </form>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={t("cancelledTitle")}
        confirmLabel={t("cancelledConfirm")}
        onConfirm={() => {
          // Closes at once: the form shows progress and a refusal (an order re-routed elsewhere).
          const input = confirming;
          setConfirming(null);
          if (input) void complete(input);
        }}
        onClose={() => setConfirming(null)}
      >
        <p>{t("cancelledConsequence")}</p>
      </ConfirmDialog>
    </Card>
  );
}

export function ShipmentAction({ order, settle }: { order: Order; settle: Settle }) {
  const t = useTranslations("pharmacy.order.shipment");
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const mutation = useMutation(trpc.pharmacy.orders.addShipment.mutationOptions());
  const form = useZodForm(addShipmentInput, { uid: order.uid, trackingUrl: "", trackingNumber: "", carrier: "", expectedStatus: order.status as PharmacyOrderStatus });
  const submit = form.handleSubmit(async (input) => {
    const sent = { ...input, trackingUrl: input.trackingUrl || null, trackingNumber: input.trackingNumber || null, carrier: input.carrier || null };
    if (await runAction(form, mutation.mutateAsync(sent), settle, (s) => t("added", { number: s.sequenceNumber }))) {
      setOpen(false);
      form.reset();
    }
  });
  if (order.status === PHARMACY_ORDER_STATUS.cancelled) return null;
  return (
    <Card level={3} title={t("title")}>
      {!open ? (
        <Button tone="secondary" onClick={() => setOpen(true)}>
          {t("open")}
        </Button>
      ) : (
        <form className="space-y-3" onSubmit={submit} noValidate>
          <Field form={form} name="trackingUrl" label={t("trackingUrl")} type="url" />
          <Field form={form} name="trackingNumber" label={t("trackingNumber")} />
          <Field form={form} name="carrier" label={t("company")}>
            {(control) => (
              <select {...form.register("carrier")} {...control} className={inputClass}>
                <option value="">—</option>
                {CARRIERS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <SubmitOrCancel form={form} onCancel={() => setOpen(false)}>
            {t("save")}
          </SubmitOrCancel>
          <FormError form={form} />
        </form>
      )}
    </Card>
  );
}
