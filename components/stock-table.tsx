"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { Button, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useListSearch } from "@/components/ui/use-list-search";
import { SkuFieldEditor } from "./stock/sku-field-editor";
import { StockMovements } from "./stock/stock-movements";
import { useStockProcedures, type Sku, type StockEditor } from "./stock/stock-procedures";

export type { StockEditor } from "./stock/stock-procedures";

const PAGE_SIZE = 25;

/**
 * A pharmacy's SKUs with their stock, price and external id, each editable in place (Enter saves),
 * and one SKU's stock movements below the list. Search and page live in the query string.
 * `maxStock`: only SKUs with this stock or less (the admin tool's "running out").
 */
export function StockTable({
  pharmacyUid,
  editor,
  maxStock,
  rowAction,
}: {
  pharmacyUid: string;
  editor: StockEditor;
  maxStock?: number;
  /** A further action on a row beside its movements (the admin tool's Remove). */
  rowAction?: (sku: Sku) => ReactNode;
}) {
  const t = useTranslations("pharmacy.stock");
  const stock = useStockProcedures(editor);
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const list = useQuery(stock.list.queryOptions({ pharmacyUid, search, maxStock, page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const [movementsOf, setMovementsOf] = useState<Sku | null>(null);
  const emptyTitle = search ? t("emptySearch") : maxStock !== undefined ? t("emptyRunningOut") : t("empty");
  const emptyHint = search ? t("emptySearchHint") : maxStock !== undefined ? t("emptyRunningOutHint", { max: maxStock }) : t("emptyHint", { editor });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="w-full max-w-sm">
          <TextField label={t("search")} type="search" placeholder={t("searchPlaceholder", { editor })} value={searchText} maxLength={100} onChange={(e) => setSearchText(e.target.value)} />
        </div>
        <p className="text-sm text-slate-500">{t("howToSave")}</p>
      </div>
      <QueryView query={list} loadingLabel={t("loading")} isEmpty={(data) => data.items.length === 0} empty={<EmptyState title={emptyTitle}>{emptyHint}</EmptyState>}>
        {(data) => (
          <DataTable
            label={t("table")}
            columns={columns(t, editor, pharmacyUid, movementsOf, setMovementsOf, rowAction)}
            rows={data.items}
            rowKey={(sku) => sku.uid}
            rowClassName={() => "align-top"}
            pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("skuNoun"), t("skusNoun")]} onPage={setPage} />}
          />
        )}
      </QueryView>
      {movementsOf ? <StockMovements pharmacyUid={pharmacyUid} sku={movementsOf} editor={editor} onClose={() => setMovementsOf(null)} /> : null}
    </div>
  );
}

function columns(
  t: ReturnType<typeof useTranslations<"pharmacy.stock">>,
  editor: StockEditor,
  pharmacyUid: string,
  movementsOf: Sku | null,
  setMovementsOf: (sku: Sku | null) => void,
  rowAction?: (sku: Sku) => ReactNode,
): Column<Sku>[] {
  const edit = (field: "externalId" | "price" | "stock") => (sku: Sku) => <SkuFieldEditor sku={sku} field={field} pharmacyUid={pharmacyUid} editor={editor} />;
  return [
    { header: t("sku"), key: true, className: "md:min-w-56", cell: (sku) => <SkuName sku={sku} /> },
    { header: t("externalId", { editor }), cell: edit("externalId") },
    { header: t("price"), cell: edit("price") },
    { header: t("stock"), cell: edit("stock") },
    {
      header: t("history"),
      headerHidden: true,
      className: "md:text-right",
      cell: (sku) => {
        const open = movementsOf?.uid === sku.uid;
        return (
          <div className="flex flex-wrap gap-2 md:justify-end">
            <Button tone="secondary" aria-expanded={open} aria-label={t("movementsOf", { name: sku.sku.displayName })} onClick={() => setMovementsOf(open ? null : sku)}>
              {open ? t("hide") : t("movements")}
            </Button>
            {rowAction?.(sku)}
          </div>
        );
      },
    },
  ];
}

function SkuName({ sku }: { sku: Sku }) {
  const t = useTranslations("pharmacy.stock");
  const format = useFormat();
  return (
    <>
      <div className="font-medium text-slate-900">{sku.sku.displayName}</div>
      <div className="text-xs font-normal text-slate-500">
        {t("skuLine", { product: sku.sku.productDisplayName, pzn: sku.sku.pzn ?? "none", digital: String(sku.sku.digital) })}
      </div>
      <div className="text-xs font-normal text-slate-500">{t("updated", { at: format.dateTime(sku.updatedAt) })}</div>
    </>
  );
}
