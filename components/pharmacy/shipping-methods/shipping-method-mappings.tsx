"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { identifierForPharmacy } from "@/server/trpc/routers/shipping-methods.schemas";

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

function MappingsForm({ pharmacyUid, methods }: { pharmacyUid: string; methods: Method[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Record<string, string>>(() => Object.fromEntries(methods.map((m) => [m.uid, m.identifierForPharmacy ?? ""])));
  const [localErrors, setLocalErrors] = useState<Record<number, string[]>>({});
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.pharmacy.shippingMethods.save.mutationOptions({
      onSuccess: (list) => {
        setDrafts(Object.fromEntries(list.map((m) => [m.uid, m.identifierForPharmacy ?? ""])));
        setSaved(true);
        queryClient.setQueryData(trpc.pharmacy.shippingMethods.list.queryKey({ pharmacyUid }), list);
      },
    }),
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const errors: Record<number, string[]> = {};
    methods.forEach((m, i) => {
      const parsed = identifierForPharmacy.safeParse(drafts[m.uid] ?? "");
      if (!parsed.success) errors[i] = parsed.error.issues.map((issue) => issue.message);
    });
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate({ pharmacyUid, mappings: methods.map((m) => ({ shopShippingMethodUid: m.uid, identifier: (drafts[m.uid] ?? "").trim() })) });
  };

  const anyFieldError = methods.some((_, i) => fieldErrors(save.error, `mappings.${i}.identifier`));
  return (
    <form onSubmit={onSubmit} className="max-w-2xl space-y-6" noValidate>
      <p className="text-sm text-slate-600">
        Your pharmacy&apos;s own identifier for each shipping method of the shops. Your orders carry it with their shipping method, in this
        portal and for your pharmacy system (API and webhooks). Leave a field empty for no mapping.
      </p>
      {byShop(methods).map((group) => (
        <fieldset key={group.shop.uid} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">Shop: {group.shop.displayName}</legend>
          <div className="mt-2 space-y-4">
            {group.methods.map(({ method, index }) => (
              <TextField
                key={method.uid}
                label={method.displayName}
                value={drafts[method.uid] ?? ""}
                maxLength={255}
                placeholder="Not mapped"
                hint={`Shop's id: ${method.externalId}`}
                errors={localErrors[index] ?? fieldErrors(save.error, `mappings.${index}.identifier`)}
                onChange={(e) => {
                  setDrafts((d) => ({ ...d, [method.uid]: e.target.value }));
                  setSaved(false);
                }}
              />
            ))}
          </div>
        </fieldset>
      ))}
      {save.isError && !anyFieldError ? <ErrorState message={errorMessage(save.error)} /> : null}
      {saved ? <Notice>Saved.</Notice> : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}
