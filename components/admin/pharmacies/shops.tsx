"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { DataTable } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { createShippingMethodInput, createShopInput } from "@/server/trpc/routers/admin-shops.schemas";
import { NameForm } from "./name-form";
import { ShopifyConnection } from "./shopify-connection";

type Method = { uid: string; externalId: string; displayName: string };
type Shop = {
  uid: string;
  identifier: string;
  displayName: string;
  shippingMethods: Method[];
  shopify: { storeUrl: string; accessTokenHint: string; clientSecretHint: string; updatedAt: number } | null;
};

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.shops.pathKey() });
}

/**
 * The organisation's shops and their shipping methods. Identifiers and external ids are fixed once
 * created (integrations address shops and methods by them); names change. Each pharmacy maps the
 * methods to its own identifiers in the pharmacy portal.
 */
export function Shops() {
  const t = useTranslations("admin.shops");
  const trpc = useTRPC();
  const shops = useQuery(trpc.admin.shops.list.queryOptions());
  return (
    <div className="min-w-0 space-y-8">
      <QueryView query={shops} loadingLabel={t("loading")} isEmpty={(d) => d.length === 0} empty={<EmptyState title={t("none")}>{t("noneHint")}</EmptyState>}>
        {(data) => (
          <ul className="space-y-6">
            {data.map((shop) => (
              <li key={shop.uid}>
                <ShopCard shop={shop} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <AddShop />
    </div>
  );
}

function AddShop() {
  const t = useTranslations("admin.shops");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const create = useMutation(trpc.admin.shops.create.mutationOptions());
  const form = useZodForm(createShopInput, { identifier: "", displayName: "" });
  const submit = submitWith(form, create.mutateAsync, async () => {
    form.reset();
    await refresh();
  });
  return (
    <section aria-labelledby="add-shop-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="add-shop-heading" className="text-lg font-semibold text-slate-900">
        {t("addTitle")}
      </h2>
      <form noValidate className="mt-4 space-y-3" onSubmit={submit}>
        <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <Field form={form} name="identifier" label={t("identifier")} required hint={t("identifierHint")} />
          <Field form={form} name="displayName" label={t("name")} required />
          <SubmitButton form={form} className="sm:mt-6">
            {t("add")}
          </SubmitButton>
        </div>
        <FormError form={form} />
      </form>
    </section>
  );
}

function ShopCard({ shop }: { shop: Shop }) {
  const t = useTranslations("admin.shops");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [renaming, setRenaming] = useState(false);
  const rename = useMutation(trpc.admin.shops.rename.mutationOptions());
  return (
    <section aria-labelledby={`shop-${shop.uid}`} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      {renaming ? (
        <NameForm
          label={t("name")}
          initial={shop.displayName}
          onCancel={() => setRenaming(false)}
          onSubmit={async (displayName) => {
            await rename.mutateAsync({ shopUid: shop.uid, displayName });
            setRenaming(false);
            await refresh();
          }}
        />
      ) : (
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id={`shop-${shop.uid}`} className="text-lg font-semibold break-words text-slate-900">
              {shop.displayName}
            </h2>
            <p className="font-mono text-xs break-all text-slate-500">{shop.identifier}</p>
          </div>
          <Button tone="secondary" aria-label={t("renameLabel", { name: shop.displayName })} onClick={() => setRenaming(true)}>
            {t("rename")}
          </Button>
        </div>
      )}
      <h3 className="mt-6 text-sm font-semibold text-slate-900">{t("methods")}</h3>
      {shop.shippingMethods.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{t("noMethods")}</p>
      ) : (
        <div className="mt-2">
          <DataTable
            label={t("methodsOf", { name: shop.displayName })}
            rows={shop.shippingMethods}
            rowKey={(m) => m.uid}
            rowClassName={() => "align-top"}
            columns={[
              { header: t("methodName"), key: true, cell: (m) => <MethodName method={m} /> },
              { header: t("externalId"), cell: (m) => <span className="font-mono text-xs text-slate-700">{m.externalId}</span> },
            ]}
          />
        </div>
      )}
      <AddMethod shopUid={shop.uid} />
      <ShopifyConnection shop={shop} />
    </section>
  );
}

function AddMethod({ shopUid }: { shopUid: string }) {
  const t = useTranslations("admin.shops");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const add = useMutation(trpc.admin.shops.createShippingMethod.mutationOptions());
  const form = useZodForm(createShippingMethodInput, { shopUid, displayName: "", externalId: "" });
  const submit = submitWith(
    form,
    (values) => add.mutateAsync({ ...values, shopUid }),
    async () => {
      form.reset({ shopUid, displayName: "", externalId: "" });
      await refresh();
    },
  );
  return (
    <form noValidate className="mt-4 space-y-3" onSubmit={submit}>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <Field form={form} name="displayName" label={t("methodNameField")} />
        <Field form={form} name="externalId" label={t("externalId")} hint={t("externalIdHint")} />
        <SubmitButton form={form} tone="secondary" className="sm:mt-6">
          {t("addMethod")}
        </SubmitButton>
      </div>
      <FormError form={form} />
    </form>
  );
}

/** A shipping method's name, renamed in place. */
function MethodName({ method }: { method: Method }) {
  const t = useTranslations("admin.shops");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [editing, setEditing] = useState(false);
  const rename = useMutation(trpc.admin.shops.renameShippingMethod.mutationOptions());
  if (editing) {
    return (
      <NameForm
        label={t("nameOf", { externalId: method.externalId })}
        initial={method.displayName}
        onCancel={() => setEditing(false)}
        onSubmit={async (displayName) => {
          await rename.mutateAsync({ shippingMethodUid: method.uid, displayName });
          setEditing(false);
          await refresh();
        }}
      />
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 font-normal">
      <span className="text-slate-900">{method.displayName}</span>
      <Button tone="secondary" aria-label={t("renameLabel", { name: method.displayName })} onClick={() => setEditing(true)}>
        {t("rename")}
      </Button>
    </div>
  );
}
