"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useListSearch } from "@/components/ui/use-list-search";
import { createProductInput } from "@/server/trpc/routers/admin-catalogue.schemas";
import type { AppRouter } from "@/server/trpc/router";
import { CheckboxField, FieldWarning, Section, useDuplicates, useRefresh } from "./shared";

export const PAGE_SIZE = 25;
type ProductEntry = inferRouterOutputs<AppRouter>["admin"]["catalogue"]["products"]["list"]["items"][number];

/** The products list (its search and page under `products-q`, `products-page`) and the new product form. */
export function Products() {
  const t = useTranslations("admin.catalogue");
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch("products-");
  const list = useQuery(trpc.admin.catalogue.products.list.queryOptions({ search: s.search, page: s.page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const columns: Column<ProductEntry>[] = [
    {
      header: t("products.product"),
      key: true,
      cell: (p) => (
        <Link prefetch={false} href={`/admin/catalogue/products/${p.uid}`} className="font-medium text-brand-700 hover:underline">
          {p.displayName}
        </Link>
      ),
    },
    { header: t("products.handle"), cell: (p) => <span className="font-mono text-xs text-slate-600">{p.handle ?? "—"}</span> },
    { header: t("products.prescription"), cell: (p) => (p.prescriptionRequired ? t("products.required") : t("products.notRequired")) },
    { header: t("products.skus"), cell: (p) => format.number(p.skuCount), className: "tabular-nums" },
    { header: t("products.shops"), cell: (p) => format.number(p.shopProductCount), className: "tabular-nums" },
    { header: t("products.created"), cell: (p) => format.dateTime(p.createdAt), className: "md:whitespace-nowrap text-slate-600" },
  ];
  return (
    <div className="space-y-6">
      <NewProduct />
      <Section title={t("products.title")}>
        <div className="mb-4 max-w-sm">
          <TextField label={t("search")} type="search" placeholder={t("products.searchPlaceholder")} value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
        </div>
        <QueryView
          query={list}
          loadingLabel={t("products.loading")}
          isEmpty={(d) => d.items.length === 0}
          empty={
            <EmptyState title={s.search ? t("products.noMatch") : t("products.none")}>{s.search ? t("products.noMatchHint") : t("products.noneHint")}</EmptyState>
          }
        >
          {(data) => (
            <DataTable
              label={t("products.title")}
              columns={columns}
              rows={data.items}
              rowKey={(p) => p.uid}
              pager={<Pager page={s.page} totalPages={data.totalPages} total={data.total} noun={[t("products.one"), t("products.other")]} onPage={s.setPage} />}
            />
          )}
        </QueryView>
      </Section>
    </div>
  );
}

function NewProduct() {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const router = useRouter();
  const form = useZodForm(createProductInput, { displayName: "", handle: "", prescriptionRequired: true });
  const create = useMutation(trpc.admin.catalogue.products.create.mutationOptions());
  const duplicates = useDuplicates({ handle: form.watch("handle") });
  const submit = submitWith(form, create.mutateAsync, async (product) => {
    await refresh();
    router.push(`/admin/catalogue/products/${product.uid}`);
  });
  return (
    <Section title={t("newProduct.title")}>
      <form onSubmit={submit} noValidate aria-label={t("newProduct.title")} className="space-y-3">
        <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start">
          <Field form={form} name="displayName" label={t("product.displayName")} maxLength={255} />
          <Field
            form={form}
            name="handle"
            label={t("product.handle")}
            maxLength={255}
            hint={
              <>
                {t("newProduct.handleHint")}
                <HandleWarning products={duplicates.products} />
              </>
            }
          />
          <CheckboxField form={form} name="prescriptionRequired" label={t("product.prescriptionRequired")} />
          <div className="sm:pt-6">
            <SubmitButton form={form}>{form.formState.isSubmitting ? t("newProduct.creating") : t("newProduct.create")}</SubmitButton>
          </div>
        </div>
        <FormError form={form} />
      </form>
    </Section>
  );
}

/** "Another product already has this handle: …" with links to them. */
export function HandleWarning({ products }: { products: { uid: string; displayName: string }[] }) {
  const t = useTranslations("admin.catalogue");
  if (products.length === 0) return null;
  return (
    <FieldWarning>
      {t.rich("duplicates.handle", {
        count: products.length,
        names: () => (
          <>
            {products.map((p, i) => (
              <span key={p.uid}>
                {i > 0 ? ", " : null}
                <Link prefetch={false} href={`/admin/catalogue/products/${p.uid}`} className="underline">
                  {p.displayName}
                </Link>
              </span>
            ))}
          </>
        ),
      })}
    </FieldWarning>
  );
}
