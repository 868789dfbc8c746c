"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { Notice } from "@/components/ui/states";
import { text } from "@/server/wire/schemas";
import type { Product } from "./product-detail";
import { CheckboxField, FieldWarning, Section, numberOrNull, useDuplicates, useRefresh } from "./shared";

type Sku = Product["skus"][number];
type Translate = ReturnType<typeof useTranslations<"admin.catalogue">>;

/** The SKU form's fields as typed (numbers as text, checked here and by the router's schema). */
function skuFormSchema(t: Translate) {
  const number = z
    .string()
    .refine((value) => !Number.isNaN(numberOrNull(value)), t("sku.enterNumber"))
    .transform(numberOrNull);
  return z.object({
    displayName: text(),
    pzn: z.string(),
    prescriptionName: z.string(),
    dosage: z.string(),
    unit: z.string(),
    pcs: number,
    weight: number,
    therapyDuration: number,
    standardSellingUnit: number,
    digital: z.boolean(),
    skipForPharmacyOrders: z.boolean(),
  });
}
type SkuFormSchema = ReturnType<typeof skuFormSchema>;

const valuesOf = (sku?: Sku): z.input<SkuFormSchema> => ({
  displayName: sku?.displayName ?? "",
  pzn: sku?.pzn ?? "",
  prescriptionName: sku?.prescriptionName ?? "",
  dosage: sku?.dosage ?? "",
  unit: sku?.unit ?? "",
  pcs: sku?.pcs?.toString() ?? "",
  weight: sku?.weight?.toString() ?? "",
  therapyDuration: sku?.therapyDuration?.toString() ?? "",
  standardSellingUnit: sku?.standardSellingUnit?.toString() ?? "",
  digital: sku?.digital ?? false,
  skipForPharmacyOrders: sku?.skipForPharmacyOrders ?? false,
});

function useSkuForm(sku?: Sku) {
  const t = useTranslations("admin.catalogue");
  const schema = useMemo(() => skuFormSchema(t), [t]);
  return useZodForm(schema, valuesOf(sku));
}
type SkuForm = ReturnType<typeof useSkuForm>;

/** The fields of a SKU (new or edited), with the warning when another SKU has the PZN typed. */
function SkuFields({ form, exceptSkuUid }: { form: SkuForm; exceptSkuUid?: string }) {
  const t = useTranslations("admin.catalogue");
  const duplicates = useDuplicates({ pzn: form.watch("pzn"), exceptSkuUid });
  const pznWarning =
    duplicates.skus.length > 0 ? (
      <FieldWarning>
        {t.rich("duplicates.pzn", {
          count: duplicates.skus.length,
          names: () => (
            <>
              {duplicates.skus.map((s, i) => (
                <span key={s.uid}>
                  {i > 0 ? ", " : null}
                  <Link prefetch={false} href={`/admin/catalogue/products/${s.productUid}#sku-${s.uid}`} className="underline">
                    {s.displayName}
                  </Link>
                </span>
              ))}
            </>
          ),
        })}
      </FieldWarning>
    ) : undefined;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <div className="sm:col-span-2">
        <Field form={form} name="displayName" label={t("sku.name")} maxLength={255} />
      </div>
      <Field form={form} name="pzn" label={t("sku.pzn")} maxLength={255} hint={pznWarning} />
      <Field form={form} name="prescriptionName" label={t("sku.prescriptionName")} maxLength={255} />
      <Field form={form} name="dosage" label={t("sku.dosage")} maxLength={255} />
      <Field form={form} name="unit" label={t("sku.unit")} maxLength={255} hint={t("sku.unitHint")} />
      <Field form={form} name="pcs" label={t("sku.pcs")} inputMode="numeric" maxLength={255} />
      <Field form={form} name="weight" label={t("sku.weight")} inputMode="decimal" maxLength={255} />
      <Field form={form} name="therapyDuration" label={t("sku.therapyDuration")} inputMode="numeric" maxLength={255} />
      <Field form={form} name="standardSellingUnit" label={t("sku.standardSellingUnit")} inputMode="decimal" maxLength={255} />
      <CheckboxField form={form} name="digital" label={t("sku.digital")} />
      <CheckboxField form={form} name="skipForPharmacyOrders" label={t("sku.skipForPharmacyOrders")} />
    </div>
  );
}

/** A new SKU of the product; says so when it is created (it appears above as its own card). */
export function NewSku({ product }: { product: Product }) {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const form = useSkuForm();
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(trpc.admin.catalogue.skus.create.mutationOptions());
  const submit = submitWith(
    form,
    (values) => {
      setCreated(null);
      return create.mutateAsync({ productUid: product.uid, ...values });
    },
    async (sku) => {
      form.reset(valuesOf());
      setCreated(sku.displayName);
      await refresh();
    },
  );
  return (
    <Section title={t("sku.newTitle")}>
      <form onSubmit={submit} noValidate aria-label={t("sku.newTitle")} className="space-y-4">
        <SkuFields form={form} />
        <FormError form={form} />
        {created ? <Notice>{t("sku.created", { name: created })}</Notice> : null}
        <SubmitButton form={form}>{form.formState.isSubmitting ? t("creating") : t("sku.create")}</SubmitButton>
      </form>
    </Section>
  );
}

/** The edit form of a SKU card (shown by its Edit button). */
export function EditSku({ sku, onDone }: { sku: Sku; onDone: () => void }) {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const form = useSkuForm(sku);
  const update = useMutation(trpc.admin.catalogue.skus.update.mutationOptions());
  const submit = submitWith(
    form,
    (values) => update.mutateAsync({ uid: sku.uid, ...values }),
    async () => {
      onDone();
      await refresh();
    },
  );
  return (
    <form onSubmit={submit} noValidate aria-label={t("sku.editLabel", { name: sku.displayName })} className="mt-4 space-y-4 rounded-lg bg-slate-50 p-4">
      <SkuFields form={form} exceptSkuUid={sku.uid} />
      <FormError form={form} />
      <SubmitButton form={form}>{form.formState.isSubmitting ? t("saving") : t("sku.save")}</SubmitButton>
    </form>
  );
}
