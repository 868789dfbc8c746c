"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Field, FormError, SubmitButton, showServerErrors, useZodForm } from "@/components/ui/form";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { saveShippingMethodMappingsInput } from "@/server/trpc/routers/shipping-methods.schemas";

type Method = inferRouterOutputs<AppRouter>["pharmacy"]["shippingMethods"]["list"][number];

export function ShippingMethodsPage() {
  return <PharmacyChoice>{(pharmacyUid) => <ShippingMethodsLoader pharmacyUid={pharmacyUid} />}</PharmacyChoice>;
}

function ShippingMethodsLoader({ pharmacyUid }: { pharmacyUid: string }) {
  const trpc = useTRPC();
  const methods = useQuery(trpc.pharmacy.shippingMethods.list.queryOptions({ pharmacyUid }));
  if (methods.isPending) return <LoadingState label="Loading shipping methods…" />;
  if (methods.isError) return <ErrorState message={errorMessage(methods.error)} onRetry={() => void methods.refetch()} />;
  if (methods.data.length === 0)
    return (
      <EmptyState title="No shipping methods yet">
        Your organisation&apos;s shops have not sent any shipping method yet. They appear here with the first order that names one.
      </EmptyState>
    );
  return <MappingsForm pharmacyUid={pharmacyUid} methods={methods.data} />;
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
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(saveShippingMethodMappingsInput, { pharmacyUid, mappings: mappingsOf(methods) });
  const save = useMutation(trpc.pharmacy.shippingMethods.save.mutationOptions());
  const [saved, setSaved] = useState(false);
  const submit = form.handleSubmit(async (values) => {
    setSaved(false);
    let list: Method[];
    try {
      list = await save.mutateAsync(values);
    } catch (error) {
      showServerErrors(form, error);
      return;
    }
    form.reset({ pharmacyUid, mappings: mappingsOf(list) });
    setSaved(true);
    queryClient.setQueryData(trpc.pharmacy.shippingMethods.list.queryKey({ pharmacyUid }), list);
  });

  return (
    <form onSubmit={submit} className="max-w-2xl space-y-6" noValidate>
      <p className="text-sm text-slate-600">
        Your pharmacy&apos;s own identifier for each shipping method of the shops. Your orders carry it with their shipping method, in this
        portal and for your pharmacy system (API and webhooks). Leave a field empty for no mapping.
      </p>
      {byShop(methods).map((group) => (
        <fieldset key={group.shop.uid} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">Shop: {group.shop.displayName}</legend>
          <div className="mt-2 space-y-4">
            {group.methods.map(({ method, index }) => (
              <Field
                key={method.uid}
                form={form}
                name={`mappings.${index}.identifier`}
                label={method.displayName}
                maxLength={255}
                placeholder="Not mapped"
                hint={`Shop's id: ${method.externalId}`}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <FormError form={form} />
      {saved && !form.formState.isDirty ? <Notice>Saved.</Notice> : null}
      <SubmitButton form={form}>Save</SubmitButton>
    </form>
  );
}
