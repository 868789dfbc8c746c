"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { useFieldArray } from "react-hook-form";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { Button, TextField } from "@/components/ui/controls";
import { DataTable } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { parseAmount } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { ADD_TO_ASSORTMENT_MAX } from "@/server/domain/catalogue/assortment-limits";
import { assortmentEntry } from "@/server/trpc/routers/admin-assortments.schemas";
import { pharmacySkuFields } from "@/server/trpc/routers/pharmacy-skus.schemas";
import { useSettled } from "./shared";

type Translate = ReturnType<typeof useTranslations<"admin.catalogue.assortment">>;

const CANDIDATES_PER_PAGE = 10;

/**
 * The entries as typed: the procedure's entry schema with the price as euros ("4.50" or "4,50",
 * sent in cents) and the stock as text; the SKU's name rides along for the labels (not sent).
 */
function addSchema(t: Translate) {
  return z.object({
    entries: z
      .array(
        assortmentEntry.extend({
          displayName: z.string(),
          price: z
            .string()
            .refine((value) => parseAmount(value) !== null, t("amountInvalid"))
            .transform((value) => parseAmount(value)!)
            .pipe(pharmacySkuFields.price),
          stock: z
            .string()
            .trim()
            .regex(/^\d+$/, t("stockInvalid"))
            .transform(Number)
            .pipe(pharmacySkuFields.stock),
        }),
      )
      .min(1)
      .max(ADD_TO_ASSORTMENT_MAX),
  });
}

/**
 * "Add SKUs": find SKUs of the catalogue the pharmacy does not carry yet, pick one or many, give
 * each the pharmacy's id, a price and a starting stock, and add them all at once (or none: a SKU
 * the pharmacy has meanwhile is "Pharmacy SKU already exists", shown beside it).
 */
export function AddToAssortment({ pharmacyUid }: { pharmacyUid: string }) {
  const t = useTranslations("admin.catalogue.assortment");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const search = useSettled(searchText.trim());
  const [page, setPage] = useState(0);
  const [added, setAdded] = useState<number | null>(null);
  const candidates = useQuery(
    trpc.admin.assortments.candidates.queryOptions({ pharmacyUid, search: search || undefined, page, limit: CANDIDATES_PER_PAGE }, { placeholderData: keepPreviousData }),
  );
  const schema = useMemo(() => addSchema(t), [t]);
  const form = useZodForm(schema, { entries: [] });
  const entries = useFieldArray({ control: form.control, name: "entries" });
  const add = useMutation(trpc.admin.assortments.add.mutationOptions());
  const picked = new Set(entries.fields.map((f) => f.skuUid));

  const submit = submitWith(
    form,
    (values) => {
      setAdded(null);
      return add.mutateAsync({ pharmacyUid, entries: values.entries.map(({ skuUid, externalId, price, stock }) => ({ skuUid, externalId, price, stock })) });
    },
    async (result) => {
      setAdded(result.pharmacySkuUids.length);
      form.reset({ entries: [] });
      await queryClient.invalidateQueries();
    },
  );

  return (
    <div className="space-y-4">
      <div className="w-full max-w-sm">
        <TextField
          label={t("find")}
          type="search"
          placeholder={t("findPlaceholder")}
          value={searchText}
          maxLength={100}
          onChange={(e) => {
            setSearchText(e.target.value);
            setPage(0);
          }}
        />
      </div>
      <QueryView
        query={candidates}
        loadingLabel={t("loading")}
        isEmpty={(data) => data.items.length === 0}
        empty={<EmptyState title={search ? t("noMatch") : t("allCarried")}>{search ? t("noMatchHint") : t("allCarriedHint")}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("candidates")}
            rows={data.items}
            rowKey={(sku) => sku.uid}
            columns={[
              {
                header: t("sku"),
                key: true,
                cell: (sku) => (
                  <>
                    <div className="font-medium text-slate-900">{sku.displayName}</div>
                    <div className="text-xs font-normal text-slate-500">{t("skuLine", { product: sku.productDisplayName, pzn: sku.pzn ?? "none", digital: String(sku.digital) })}</div>
                  </>
                ),
              },
              {
                header: t("pickColumn"),
                headerHidden: true,
                className: "md:text-right",
                cell: (sku) => (
                  <Button
                    tone="secondary"
                    aria-label={t("pickNamed", { name: sku.displayName })}
                    disabled={picked.has(sku.uid) || entries.fields.length >= ADD_TO_ASSORTMENT_MAX}
                    onClick={() => {
                      setAdded(null);
                      entries.append({ skuUid: sku.uid, displayName: sku.displayName, externalId: "", price: "", stock: "0" });
                    }}
                  >
                    {picked.has(sku.uid) ? t("picked") : t("pick")}
                  </Button>
                ),
              },
            ]}
            pager={
              data.totalPages > 1 ? (
                <Pager className="border-t border-slate-100 px-3 py-2" page={page} totalPages={data.totalPages} total={data.total} noun={[t("skuNoun"), t("skusNoun")]} onPage={setPage} />
              ) : undefined
            }
          />
        )}
      </QueryView>
      {added !== null ? <Notice>{t("added", { count: added })}</Notice> : null}
      {entries.fields.length > 0 ? (
        <form onSubmit={submit} noValidate aria-label={t("pickedLabel")} className="space-y-3 rounded-lg border border-dashed border-slate-300 p-3">
          <h3 className="text-sm font-semibold text-slate-900">{t("pickedTitle", { count: entries.fields.length })}</h3>
          <ul className="space-y-3">
            {entries.fields.map((field, i) => {
              const name = field.displayName;
              const skuError = form.formState.errors.entries?.[i]?.skuUid?.message;
              return (
                <li key={field.id} className="grid gap-3 border-b border-slate-100 pb-3 sm:grid-cols-2 lg:grid-cols-[1fr_10rem_8rem_7rem_auto] lg:items-start">
                  <div className="text-sm lg:pt-7">
                    <div className="font-medium text-slate-900">{name}</div>
                    {skuError ? (
                      <p role="alert" className="mt-1 text-xs text-red-700">
                        {skuError}
                      </p>
                    ) : null}
                  </div>
                  <Field form={form} name={`entries.${i}.externalId`} label={t("externalIdOf", { name })} maxLength={255} />
                  <Field form={form} name={`entries.${i}.price`} label={t("priceOf", { name })} inputMode="decimal" />
                  <Field form={form} name={`entries.${i}.stock`} label={t("stockOf", { name })} inputMode="numeric" />
                  <div className="lg:pt-6">
                    <Button tone="secondary" aria-label={t("dropNamed", { name })} onClick={() => entries.remove(i)}>
                      {t("drop")}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
          <FormError form={form} />
          <SubmitButton form={form}>{t("submit", { count: entries.fields.length })}</SubmitButton>
        </form>
      ) : (
        <p className="text-sm text-slate-500">{t("pickHint")}</p>
      )}
    </div>
  );
}
