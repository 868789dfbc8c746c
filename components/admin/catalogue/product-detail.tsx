"use client";

import Link from "next/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { DataTable } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { addShopProductInput, updateProductInput } from "@/server/trpc/routers/admin-catalogue.schemas";
import type { AppRouter } from "@/server/trpc/router";
import { HandleWarning } from "./products";
import { CheckboxField, Section, SelectControl, useDuplicates, useRefresh } from "./shared";
import { SkuCard } from "./sku-card";
import { NewSku } from "./sku-form";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["catalogue"];
export type Product = Outputs["products"]["get"];
export type Shop = Outputs["shops"][number];

/** A product: its fields, its shop listings, and its SKUs each with their shop SKUs and pharmacy SKUs. */
export function ProductDetail({ uid }: { uid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const product = useQuery(trpc.admin.catalogue.products.get.queryOptions({ uid }));
  const shops = useQuery(trpc.admin.catalogue.shops.queryOptions());
  const pharmacies = useQuery(trpc.admin.catalogue.pharmacies.queryOptions());
  if (product.isPending || shops.isPending) return <LoadingState label={t("product.loading")} />;
  if (product.isError) {
    return product.error.data?.code === "NOT_FOUND" ? (
      <EmptyState title={t("product.notFound")}>
        {t("product.notFoundHint")}{" "}
        <Link prefetch={false} href="/admin/catalogue" className="text-brand-700 hover:underline">
          {t("product.allProducts")}
        </Link>
      </EmptyState>
    ) : (
      <ErrorState message={errorMessage(product.error)} onRetry={() => void product.refetch()} />
    );
  }
  if (shops.isError) return <ErrorState message={errorMessage(shops.error)} onRetry={() => void shops.refetch()} />;
  const p = product.data;
  const pharmacyName = (id: string) => pharmacies.data?.find((x) => x.uid === id)?.displayName ?? id.slice(0, 8);
  return (
    <div className="space-y-6">
      <Link prefetch={false} href="/admin/catalogue" className="text-sm text-brand-700 hover:underline">
        ← {t("product.allProducts")}
      </Link>
      <ProductForm product={p} />
      <ShopListings product={p} shops={shops.data} />
      <section aria-labelledby="skus-heading" className="space-y-4">
        <h2 id="skus-heading" className="text-lg font-semibold break-words text-slate-900">
          {t("product.skusOf", { name: p.displayName })}
        </h2>
        {p.skus.length === 0 ? <EmptyState title={t("product.noSkus")}>{t("product.noSkusHint")}</EmptyState> : null}
        {p.skus.map((sku) => (
          <SkuCard key={sku.uid} product={p} sku={sku} shops={shops.data} pharmacyName={pharmacyName} />
        ))}
        <NewSku product={p} />
      </section>
    </div>
  );
}

function ProductForm({ product }: { product: Product }) {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const router = useRouter();
  const refresh = useRefresh();
  const [saved, setSaved] = useState(false);
  const form = useZodForm(updateProductInput, {
    uid: product.uid,
    displayName: product.displayName,
    handle: product.handle ?? "",
    prescriptionRequired: product.prescriptionRequired,
  });
  const duplicates = useDuplicates({ handle: form.watch("handle"), exceptProductUid: product.uid });
  const update = useMutation(trpc.admin.catalogue.products.update.mutationOptions());
  const remove = useMutation(trpc.admin.catalogue.products.delete.mutationOptions());
  const submit = submitWith(
    form,
    (values) => {
      setSaved(false);
      return update.mutateAsync({ ...values, uid: product.uid });
    },
    async () => {
      setSaved(true);
      await refresh();
    },
  );
  return (
    <Section
      title={product.displayName}
      actions={
        <ConfirmButton
          title={t("product.deleteTitle", { name: product.displayName })}
          confirmLabel={t("confirmDelete")}
          pendingLabel={t("deleting")}
          onConfirm={async () => {
            await remove.mutateAsync({ uid: product.uid });
            await refresh();
            router.push("/admin/catalogue");
          }}
          consequence={<p>{t("product.deleteConsequence")}</p>}
        >
          {t("product.delete")}
        </ConfirmButton>
      }
    >
      <form onSubmit={submit} noValidate aria-label={t("product.pageTitle")} className="space-y-3">
        <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start">
          <Field form={form} name="displayName" label={t("product.displayName")} maxLength={255} />
          <Field form={form} name="handle" label={t("product.handle")} maxLength={255} hint={duplicates.products.length > 0 ? <HandleWarning products={duplicates.products} /> : undefined} />
          <CheckboxField form={form} name="prescriptionRequired" label={t("product.prescriptionRequired")} />
          <div className="sm:pt-6">
            <SubmitButton form={form}>{form.formState.isSubmitting ? t("saving") : t("product.save")}</SubmitButton>
          </div>
        </div>
        <FormError form={form} />
      </form>
      {saved ? (
        <p role="status" className="mt-2 text-sm text-emerald-700">
          {t("saved")}
        </p>
      ) : null}
    </Section>
  );
}

function ShopListings({ product, shops }: { product: Product; shops: Shop[] }) {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const form = useZodForm(addShopProductInput, { productUid: product.uid, shopUid: shops[0]?.uid ?? "", externalId: "" });
  const add = useMutation(trpc.admin.catalogue.products.addShopProduct.mutationOptions());
  const shopName = (uid: string) => shops.find((s) => s.uid === uid)?.displayName ?? uid.slice(0, 8);
  const submit = submitWith(
    form,
    (values) => add.mutateAsync({ ...values, productUid: product.uid }),
    async (_, values) => {
      form.reset({ productUid: product.uid, shopUid: values.shopUid, externalId: "" });
      await refresh();
    },
  );
  return (
    <Section title={t("listings.title")}>
      <p className="mb-3 text-sm text-slate-600">{t("listings.intro")}</p>
      {product.shopProducts.length > 0 ? (
        <div className="mb-4">
          <DataTable
            label={t("listings.title")}
            rows={product.shopProducts}
            rowKey={(sp) => sp.uid}
            columns={[
              { header: t("listings.shop"), key: true, cell: (sp) => shopName(sp.shopUid) },
              { header: t("listings.externalId"), cell: (sp) => <span className="font-mono text-xs">{sp.externalId}</span> },
            ]}
          />
        </div>
      ) : null}
      {shops.length === 0 ? (
        <EmptyState title={t("listings.noShops")}>{t("listings.noShopsHint")}</EmptyState>
      ) : (
        <form onSubmit={submit} noValidate aria-label={t("listings.newLabel")} className="space-y-3">
          <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
            <Field form={form} name="shopUid" label={t("listings.shop")}>
              {(control) => (
                <SelectControl {...control} {...form.register("shopUid")}>
                  {shops.map((s) => (
                    <option key={s.uid} value={s.uid}>
                      {s.displayName}
                    </option>
                  ))}
                </SelectControl>
              )}
            </Field>
            <Field form={form} name="externalId" label={t("listings.externalId")} maxLength={255} />
            <div className="sm:pt-6">
              <SubmitButton form={form}>{t("listings.add")}</SubmitButton>
            </div>
          </div>
          <FormError form={form} />
        </form>
      )}
    </Section>
  );
}
