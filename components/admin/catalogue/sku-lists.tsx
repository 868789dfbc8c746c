"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery } from "@/components/ui/use-url-state";
import type { AppRouter } from "@/server/trpc/router";
import { PAGE_SIZE } from "./products";
import { Section } from "./shared";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["catalogue"];
type SkuEntry = Outputs["skus"]["list"]["items"][number];
type ShopSkuEntry = Outputs["shopSkus"]["list"]["items"][number];

/** A catalogue list's card: intro, filters, then the list, its empty state or its error. */
function ListCard({ title, intro, filters, children }: { title: string; intro: string; filters: ReactNode; children: ReactNode }) {
  return (
    <Section title={title}>
      <p className="mb-4 text-sm text-slate-600">{intro}</p>
      <div className="mb-4 flex flex-wrap gap-4">{filters}</div>
      {children}
    </Section>
  );
}

/** Every SKU of the organisation (search and page under `skus-q`, `skus-page`). */
export function Skus() {
  const t = useTranslations("admin.catalogue");
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch("skus-");
  const list = useQuery(trpc.admin.catalogue.skus.list.queryOptions({ search: s.search, page: s.page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const columns: Column<SkuEntry>[] = [
    {
      header: t("skus.sku"),
      key: true,
      cell: (sku) => (
        <Link prefetch={false} href={`/admin/catalogue/products/${sku.productUid}#sku-${sku.uid}`} className="font-medium text-brand-700 hover:underline">
          {sku.displayName}
        </Link>
      ),
    },
    { header: t("skus.pzn"), cell: (sku) => sku.pzn ?? "—", className: "tabular-nums" },
    { header: t("skus.kind"), cell: (sku) => (sku.digital ? t("sku.digital") : t("sku.physical")) },
    { header: t("skus.unit"), cell: (sku) => [sku.pcs === null ? null : format.number(sku.pcs), sku.unit].filter((x) => x !== null).join(" ") || "—" },
    { header: t("skus.updated"), cell: (sku) => format.dateTime(sku.updatedAt), className: "md:whitespace-nowrap text-slate-600" },
  ];
  return (
    <ListCard
      title={t("views.skus")}
      intro={t("skus.intro")}
      filters={
        <div className="w-full max-w-sm">
          <TextField label={t("search")} type="search" placeholder={t("skus.searchPlaceholder")} value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
        </div>
      }
    >
      <QueryView
        query={list}
        loadingLabel={t("skus.loading")}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState title={s.search ? t("skus.noMatch") : t("skus.none")}>{s.search ? t("skus.noMatchHint") : t("skus.noneHint")}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("views.skus")}
            columns={columns}
            rows={data.items}
            rowKey={(sku) => sku.uid}
            pager={<Pager page={s.page} totalPages={data.totalPages} total={data.total} noun={[t("skus.one"), t("skus.other")]} onPage={s.setPage} />}
          />
        )}
      </QueryView>
    </ListCard>
  );
}

/** What each shop sells, at its price (shop filter `shopSkus-shop`, search and page under `shopSkus-q`, `shopSkus-page`). */
export function ShopSkus() {
  const t = useTranslations("admin.catalogue");
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch("shopSkus-");
  const query = useUrlQuery();
  const shopUid = query.get("shopSkus-shop") ?? "";
  const shops = useQuery(trpc.admin.catalogue.shops.queryOptions());
  const list = useQuery(
    trpc.admin.catalogue.shopSkus.list.queryOptions({ shopUid: shopUid || undefined, search: s.search, page: s.page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
  const shopName = (uid: string) => shops.data?.find((x) => x.uid === uid)?.displayName ?? uid.slice(0, 8);
  const filtered = Boolean(s.search || shopUid);
  const columns: Column<ShopSkuEntry>[] = [
    { header: t("shopSkus.variationId"), key: true, cell: (row) => <span className="font-mono text-xs">{row.shopVariationId ?? "—"}</span> },
    { header: t("shopSkus.shopSku"), cell: (row) => <span className="font-mono text-xs">{row.shopSku ?? "—"}</span> },
    { header: t("shopSkus.sku"), cell: (row) => row.sku?.displayName ?? <span className="text-slate-500">{t("shopSkus.noSku")}</span> },
    {
      header: t("shopSkus.product"),
      cell: (row) => (
        <Link prefetch={false} href={`/admin/catalogue/products/${row.shopProduct.productUid}`} className="text-brand-700 hover:underline">
          {row.shopProduct.productName}
        </Link>
      ),
    },
    { header: t("shopSkus.shop"), cell: (row) => shopName(row.shopUid) },
    { header: t("shopSkus.price"), cell: (row) => format.money(row.price, "EUR"), className: "tabular-nums" },
    { header: t("shopSkus.lastSyncedStock"), cell: (row) => (row.lastSyncedStock === null ? "—" : format.number(row.lastSyncedStock)), className: "tabular-nums" },
  ];
  return (
    <ListCard
      title={t("views.shopSkus")}
      intro={t("shopSkus.intro")}
      filters={
        <>
          <div className="w-full sm:w-56">
            <SelectField label={t("shopSkus.shop")} value={shopUid} onChange={(e) => query.set({ "shopSkus-shop": e.target.value, "shopSkus-page": undefined })}>
              <option value="">{t("shopSkus.allShops")}</option>
              {shops.data?.map((shop) => (
                <option key={shop.uid} value={shop.uid}>
                  {shop.displayName}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="w-full max-w-sm">
            <TextField label={t("search")} type="search" placeholder={t("shopSkus.searchPlaceholder")} value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
          </div>
        </>
      }
    >
      <QueryView
        query={list}
        loadingLabel={t("shopSkus.loading")}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState title={filtered ? t("shopSkus.noMatch") : t("shopSkus.none")}>{filtered ? t("shopSkus.noMatchHint") : t("shopSkus.noneHint")}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("views.shopSkus")}
            columns={columns}
            rows={data.items}
            rowKey={(row) => row.uid}
            pager={<Pager page={s.page} totalPages={data.totalPages} total={data.total} noun={[t("shopSkus.one"), t("shopSkus.other")]} onPage={s.setPage} />}
          />
        )}
      </QueryView>
    </ListCard>
  );
}
