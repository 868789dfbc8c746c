"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { useFormat } from "@/components/ui/format";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { setDosageInput } from "@/server/trpc/routers/doctor.schemas";
import type { Request } from "./decision";
import { TextAreaControl } from "./text-area-field";

type Item = Request["items"][number];

/**
 * The request's items with their dosage instructions, which the prescription names (AMVV § 2 (1) 7):
 * before signing the doctor confirms or edits each one, offered the product's dosage where none
 * is stored yet; once decided, shown as signed. Also says what signing still lacks, in the words
 * signing would refuse with.
 */
export function DosageEditor({ request }: { request: Request & { cannotSign: string | null } }) {
  const t = useTranslations("doctor.dosage");
  const editable = request.awaitingDecision && !request.order?.onHold;
  return (
    <Card title={t("title")}>
      <div className="space-y-4">
        {editable && request.cannotSign ? (
          <Notice tone="warning">
            <span data-testid="cannot-sign">{request.cannotSign}</span>
          </Notice>
        ) : null}
        {editable ? <DosageForm uid={request.uid} items={request.items} /> : <ItemList items={request.items} />}
      </div>
    </Card>
  );
}

function ItemHeading({ item }: { item: Item }) {
  const t = useTranslations("doctor.request");
  const format = useFormat();
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
      <p className="font-medium text-slate-900 wrap-anywhere">
        {item.position}. {item.medicine}
      </p>
      <p className="text-xs text-slate-500">
        {t("pzn", { pzn: item.sku.pzn ?? "—" })} · {t("quantity")} {format.number(item.quantity)}
      </p>
    </div>
  );
}

function ItemList({ items }: { items: Item[] }) {
  const t = useTranslations("doctor.request");
  return (
    <ol className="divide-y divide-slate-100 text-sm">
      {items.map((item) => (
        <li key={item.uid} className="py-2">
          <ItemHeading item={item} />
          <p className="mt-1 text-slate-700">
            <span className="text-slate-500">{t("dosage")}: </span>
            {item.dosage ?? "—"}
          </p>
        </li>
      ))}
    </ol>
  );
}

function DosageForm({ uid, items }: { uid: string; items: Item[] }) {
  const t = useTranslations("doctor.dosage");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useZodForm(setDosageInput, {
    prescriptionUid: uid,
    lines: items.map((item) => ({ lineUid: item.uid, dosage: item.dosage ?? item.suggestedDosage ?? "" })),
  });
  const save = useMutation(trpc.doctor.requests.setDosage.mutationOptions());
  const submit = submitWith(form, save.mutateAsync, async () => {
    setSaved(true);
    // The request (what signing lacks) and the preview show the new instructions.
    await queryClient.invalidateQueries({ queryKey: trpc.doctor.requests.pathKey() });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("formLabel")} className="space-y-4">
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <ol className="space-y-4 text-sm">
        {items.map((item, index) => (
          <li key={item.uid} className="space-y-1">
            <ItemHeading item={item} />
            <Field
              form={form}
              name={`lines.${index}.dosage`}
              label={t("label", { medicine: item.medicine })}
              hint={item.dosage === null ? (item.suggestedDosage ? t("suggested") : t("none")) : t("stored")}
            >
              {(control) => <TextAreaControl {...control} rows={2} required {...form.register(`lines.${index}.dosage`, { onChange: () => setSaved(false) })} />}
            </Field>
          </li>
        ))}
      </ol>
      <FormError form={form} />
      {saved ? <Notice>{t("saved")}</Notice> : null}
      <SubmitButton form={form} tone="secondary">
        {form.formState.isSubmitting ? t("saving") : t("save")}
      </SubmitButton>
    </form>
  );
}
