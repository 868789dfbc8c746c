"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { DataTable } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import type { Product, Shop } from "./product-detail";
import { Section, useRefresh } from "./shared";
import { EditSku } from "./sku-form";
import { NewShopSku, ShopSkuTable } from "./shop-skus";

type Sku = Product["skus"][number];

/** A SKU: its facts, Edit and Delete, its shop SKUs (with a new one) and the pharmacies that carry it. */
export function SkuCard({ product, sku, shops, pharmacyName }: { product: Product; sku: Sku; shops: Shop[]; pharmacyName: (uid: string) => string }) {
  const t = useTranslations("admin.catalogue");
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [editing, setEditing] = useState(false);
  const remove = useMutation(trpc.admin.catalogue.skus.delete.mutationOptions({ onSuccess: refresh }));
  const facts = [
    sku.pzn ? t("sku.pznFact", { pzn: sku.pzn }) : null,
    sku.digital ? t("sku.digital") : t("sku.physical"),
    [sku.pcs === null ? null : format.number(sku.pcs), sku.unit].filter((x) => x !== null).join(" ") || null,
    sku.dosage,
    sku.skipForPharmacyOrders ? t("sku.skipped") : null,
  ].filter(Boolean);
  return (
    <div id={`sku-${sku.uid}`}>
      <Section
        title={sku.displayName}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button tone="secondary" aria-expanded={editing} aria-label={t("sku.editLabel", { name: sku.displayName })} onClick={() => setEditing((e) => !e)}>
              {editing ? t("cancel") : t("edit")}
            </Button>
            <ConfirmButton
              buttonLabel={t("sku.deleteLabel", { name: sku.displayName })}
              title={t("sku.deleteTitle", { name: sku.displayName })}
              confirmLabel={t("confirmDelete")}
              pendingLabel={t("deleting")}
              onConfirm={() => remove.mutateAsync({ uid: sku.uid })}
              consequence={<p>{t("sku.deleteConsequence")}</p>}
            >
              {t("delete")}
            </ConfirmButton>
          </div>
        }
      >
        <p className="text-sm text-slate-600">{facts.join(" · ")}</p>
        {editing ? <EditSku sku={sku} onDone={() => setEditing(false)} /> : null}
        <h3 className="mt-5 text-sm font-semibold text-slate-900">{t("shopSkus.title")}</h3>
        {sku.shopSkus.length === 0 ? <p className="mt-1 text-sm text-slate-500">{t("shopSkus.noneForSku")}</p> : <ShopSkuTable sku={sku} shops={shops} />}
        <NewShopSku product={product} sku={sku} shops={shops} />
        <h3 className="mt-5 text-sm font-semibold text-slate-900">{t("pharmacySkus.title")}</h3>
        {sku.pharmacySkus.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">{t("pharmacySkus.none")}</p>
        ) : (
          <div className="mt-2">
            <DataTable
              label={t("pharmacySkus.tableLabel", { name: sku.displayName })}
              rows={sku.pharmacySkus}
              rowKey={(ps) => ps.uid}
              columns={[
                {
                  header: t("pharmacySkus.pharmacy"),
                  key: true,
                  cell: (ps) => (
                    <Link prefetch={false} href={`/admin/pharmacy-stock?pharmacy=${ps.pharmacyUid}`} className="text-brand-700 hover:underline">
                      {pharmacyName(ps.pharmacyUid)}
                    </Link>
                  ),
                },
                { header: t("pharmacySkus.externalId"), cell: (ps) => <span className="font-mono text-xs">{ps.externalId}</span> },
                { header: t("pharmacySkus.price"), cell: (ps) => format.money(ps.price, "EUR"), className: "tabular-nums" },
                { header: t("pharmacySkus.stock"), cell: (ps) => format.number(ps.stock), className: "tabular-nums" },
              ]}
            />
          </div>
        )}
      </Section>
    </div>
  );
}
