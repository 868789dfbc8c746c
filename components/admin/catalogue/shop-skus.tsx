"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { parseAmount, useFormat } from "@/components/ui/format";
import { Notice } from "@/components/ui/states";
import type { Product, Shop } from "./product-detail";
import { SelectControl, useRefresh } from "./shared";

type Sku = Product["skus"][number];
type ShopSku = Sku["shopSkus"][number];
type Translate = ReturnType<typeof useTranslations<"admin.catalogue">>;

/** A shop SKU's fields as typed: the price as text in euros ("4.50" or "4,50"), sent in cents. */
function shopSkuSchema(t: Translate) {
  return z.object({
    shopVariationId: z.string(),
    shopSku: z.string(),
    price: z
      .string()
      .refine((value) => parseAmount(value) !== null, t("shopSkus.enterAmount"))
      .transform((value) => parseAmount(value)!),
  });
}


/** A SKU's shop SKUs: one row at a time edited in place (variation id, shop SKU, price), or deleted. */
export function ShopSkuTable({ sku, shops }: { sku: Sku; shops: Shop[] }) {
  const t = useTranslations("admin.catalogue");
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [editing, setEditing] = useState<string | null>(null);
  const schema = useMemo(() => shopSkuSchema(t), [t]);
  const form = useZodForm(schema, { shopVariationId: "", shopSku: "", price: "" });
  const update = useMutation(trpc.admin.catalogue.shopSkus.update.mutationOptions());
  const remove = useMutation(trpc.admin.catalogue.shopSkus.delete.mutationOptions({ onSuccess: refresh }));
  const shopName = (uid: string) => shops.find((s) => s.uid === uid)?.displayName ?? uid.slice(0, 8);
  const labelOf = (row: ShopSku) => row.shopVariationId ?? row.shopSku ?? t("shopSkus.aShopSku");
  const startEditing = (row: ShopSku) => {
    form.reset({ shopVariationId: row.shopVariationId ?? "", shopSku: row.shopSku ?? "", price: format.amountInput(row.price) });
    setEditing(row.uid);
  };
  const save = (row: ShopSku) =>
    submitWith(
      form,
      (values) => update.mutateAsync({ uid: row.uid, ...values }),
      async () => {
        setEditing(null);
        await refresh();
      },
    )();
  const editable = (name: "shopVariationId" | "shopSku" | "price", labelKey: "shopSkus.variationOf" | "shopSkus.shopSkuOf" | "shopSkus.priceOf", shown: (row: ShopSku) => string) =>
    (row: ShopSku) =>
      editing === row.uid ? <Field form={form} name={name} label={t(labelKey, { label: labelOf(row) })} inputMode={name === "price" ? "decimal" : undefined} /> : shown(row);
  const columns: Column<ShopSku>[] = [
    { header: t("shopSkus.shop"), key: true, cell: (row) => shopName(row.shopUid) },
    { header: t("shopSkus.variationId"), cell: editable("shopVariationId", "shopSkus.variationOf", (row) => row.shopVariationId ?? "—"), className: "font-mono text-xs" },
    { header: t("shopSkus.shopSku"), cell: editable("shopSku", "shopSkus.shopSkuOf", (row) => row.shopSku ?? "—"), className: "font-mono text-xs" },
    { header: t("shopSkus.priceEur"), cell: editable("price", "shopSkus.priceOf", (row) => format.amountInput(row.price)), className: "tabular-nums" },
    { header: t("shopSkus.lastSyncedStock"), cell: (row) => (row.lastSyncedStock === null ? "—" : format.number(row.lastSyncedStock)), className: "tabular-nums" },
    {
      header: t("actions"),
      cell: (row) => (
        <div className="flex flex-wrap gap-2 font-sans">
          {editing === row.uid ? (
            <>
              <Button disabled={form.formState.isSubmitting} onClick={() => void save(row)}>
                {t("save")}
              </Button>
              <Button tone="secondary" onClick={() => setEditing(null)}>
                {t("cancel")}
              </Button>
            </>
          ) : (
            <>
              <Button tone="secondary" aria-label={t("shopSkus.editLabel", { label: labelOf(row), shop: shopName(row.shopUid) })} onClick={() => startEditing(row)}>
                {t("edit")}
              </Button>
              <ConfirmButton
                buttonLabel={t("shopSkus.deleteLabel", { label: labelOf(row), shop: shopName(row.shopUid) })}
                disabled={remove.isPending}
                title={t("shopSkus.deleteTitle", { label: labelOf(row), shop: shopName(row.shopUid) })}
                confirmLabel={t("confirmDelete")}
                pendingLabel={t("deleting")}
                onConfirm={() => remove.mutateAsync({ uid: row.uid })}
                consequence={<p>{t("shopSkus.deleteConsequence")}</p>}
              >
                {t("delete")}
              </ConfirmButton>
            </>
          )}
        </div>
      ),
    },
  ];
  return (
    <div className="mt-2 space-y-2">
      <DataTable label={t("shopSkus.tableLabel", { name: sku.displayName })} columns={columns} rows={sku.shopSkus} rowKey={(row) => row.uid} />
      {editing ? <FormError form={form} /> : null}
    </div>
  );
}

/** A new shop SKU of the SKU, in one of the product's shop listings. */
export function NewShopSku({ product, sku, shops }: { product: Product; sku: Sku; shops: Shop[] }) {
  const t = useTranslations("admin.catalogue");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const schema = useMemo(() => shopSkuSchema(t).extend({ listingUid: z.string() }), [t]);
  const form = useZodForm(schema, { listingUid: product.shopProducts[0]?.uid ?? "", shopVariationId: "", shopSku: "", price: "" });
  const [added, setAdded] = useState(false);
  const create = useMutation(trpc.admin.catalogue.shopSkus.create.mutationOptions());
  const shopName = (uid: string) => shops.find((s) => s.uid === uid)?.displayName ?? uid.slice(0, 8);
  if (product.shopProducts.length === 0) return <p className="mt-3 text-sm text-slate-500">{t("shopSkus.listFirst")}</p>;
  const submit = submitWith(
    form,
    (values) => {
      setAdded(false);
      const listing = product.shopProducts.find((sp) => sp.uid === values.listingUid) ?? product.shopProducts[0]!;
      return create.mutateAsync({ shopUid: listing.shopUid, shopProductUid: listing.uid, skuUid: sku.uid, shopVariationId: values.shopVariationId, shopSku: values.shopSku, price: values.price });
    },
    async (_, values) => {
      form.reset({ listingUid: values.listingUid, shopVariationId: "", shopSku: "", price: "" });
      setAdded(true);
      await refresh();
    },
  );
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t("shopSkus.newLabel", { name: sku.displayName })}
      className="mt-3 space-y-3 rounded-lg border border-dashed border-slate-300 p-3"
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_8rem_auto] lg:items-start">
        <Field form={form} name="listingUid" label={t("shopSkus.listing")}>
          {(control) => (
            <SelectControl {...control} {...form.register("listingUid")}>
              {product.shopProducts.map((sp) => (
                <option key={sp.uid} value={sp.uid}>
                  {shopName(sp.shopUid)} · {sp.externalId}
                </option>
              ))}
            </SelectControl>
          )}
        </Field>
        <Field form={form} name="shopVariationId" label={t("shopSkus.newVariationId")} maxLength={255} />
        <Field form={form} name="shopSku" label={t("shopSkus.shopSku")} maxLength={255} />
        <Field form={form} name="price" label={t("shopSkus.priceEur")} inputMode="decimal" />
        <div className="lg:pt-6">
          <SubmitButton form={form}>{t("shopSkus.add")}</SubmitButton>
        </div>
      </div>
      <FormError form={form} />
      {added ? <Notice>{t("shopSkus.added")}</Notice> : null}
    </form>
  );
}
