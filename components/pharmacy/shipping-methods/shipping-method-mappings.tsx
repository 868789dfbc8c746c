"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { useTRPC } from "@/components/trpc/react";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { saveShippingMethodMappingsInput } from "@/server/trpc/routers/shipping-methods.schemas";

type Method = inferRouterOutputs<AppRouter>["pharmacy"]["shippingMethods"]["list"][number];

export function ShippingMethodsPage() {
  return <PharmacyChoice>{(pharmacyUid) => <ShippingMethodsLoader pharmacyUid={pharmacyUid} />}</PharmacyChoice>;
}

function ShippingMethodsLoader({ pharmacyUid }: { pharmacyUid: string }) {
  const t = useTranslations("pharmacy.shipping");
  const trpc = useTRPC();
  const methods = useQuery(trpc.pharmacy.shippingMethods.list.queryOptions({ pharmacyUid }));
  return (
    <QueryView query={methods} loadingLabel={t("loading")} isEmpty={(data) => data.length === 0} empty={<EmptyState title={t("empty")}>{t("emptyHint")}</EmptyState>}>
      {(data) => <MappingsForm pharmacyUid={pharmacyUid} methods={data} />}
    </QueryView>
  );
}

/** Shop by shop, in the order the server lists them. */
function byShop(methods: Method[]): { shop: Method["shop"]; methods: { method: Method; index: number }[] }[] {
  const groups: { shop: Method["shop"]; methods: { method: Method; index: number }[] }[] = [];
  methods.forEach((method, index) => {
    const last = groups[groups.length - 1];
    if (last && last.shop.uid === method.shop.uid) last.methods.push({ method, index });
    else groups.push({ shop: method.shop, methods: [{ method, index }] });
  });
  return groups;
}

const mappingsOf = (list: Method[]) => list.map((m) => ({ shopShippingMethodUid: m.uid, identifier: m.identifierForPharmacy ?? "" }));

function MappingsForm({ pharmacyUid, methods }: { pharmacyUid: string; methods: Method[] }) {
  const t = useTranslations("pharmacy.shipping");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(saveShippingMethodMappingsInput, { pharmacyUid, mappings: mappingsOf(methods) });
  const save = useMutation(trpc.pharmacy.shippingMethods.save.mutationOptions());
  const [saved, setSaved] = useState(false);
  const submit = submitWith(
    form,
    (values) => {
      setSaved(false);
      return save.mutateAsync(values);
    },
    (list) => {
      form.reset({ pharmacyUid, mappings: mappingsOf(list) });
      setSaved(true);
      queryClient.setQueryData(trpc.pharmacy.shippingMethods.list.queryKey({ pharmacyUid }), list);
    },
  );

  return (
    <form onSubmit={submit} className="max-w-2xl space-y-6" noValidate>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      {byShop(methods).map((group) => (
        <fieldset key={group.shop.uid} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t("shop", { shop: group.shop.displayName })}</legend>
          <div className="mt-2 space-y-4">
            {group.methods.map(({ method, index }) => (
              <Field
                key={method.uid}
                form={form}
                name={`mappings.${index}.identifier`}
                label={method.displayName}
                maxLength={255}
                placeholder={t("notMapped")}
                hint={t("shopId", { id: method.externalId })}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <FormError form={form} />
      {saved && !form.formState.isDirty ? <Notice>{t("saved")}</Notice> : null}
      <SubmitButton form={form}>{t("save")}</SubmitButton>
    </form>
  );
}
