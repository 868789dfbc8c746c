"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/controls";
import { DataTable } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useStockProcedures, type Sku, type StockEditor } from "./stock-procedures";

/** The last stock movements of one SKU, under the list, with who and why. */
export function StockMovements({ pharmacyUid, sku, editor, onClose }: { pharmacyUid: string; sku: Sku; editor: StockEditor; onClose: () => void }) {
  const t = useTranslations("pharmacy.stock.movementList");
  const format = useFormat();
  const stock = useStockProcedures(editor);
  const movements = useQuery(stock.movements.queryOptions({ pharmacyUid, pharmacySkuUid: sku.uid, limit: 10 }));
  const title = t("title", { name: sku.sku.displayName });
  return (
    <section aria-label={title} className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        <Button tone="secondary" onClick={onClose}>
          {t("close")}
        </Button>
      </div>
      <QueryView query={movements} loadingLabel={t("loading")} isEmpty={(data) => data.length === 0} empty={<EmptyState title={t("empty")}>{t("emptyHint")}</EmptyState>}>
        {(data) => (
          <DataTable
            label={title}
            rows={data}
            rowKey={(m) => m.uid}
            columns={[
              { header: t("when"), key: true, className: "whitespace-nowrap text-slate-600", cell: (m) => format.dateTime(m.createdAt) },
              {
                header: t("change"),
                className: "tabular-nums",
                cell: (m) => <span className={`font-medium ${m.delta < 0 ? "text-red-700" : "text-emerald-700"}`}>{m.delta > 0 ? `+${m.delta}` : m.delta}</span>,
              },
              { header: t("after"), className: "tabular-nums", cell: (m) => m.stockAfter },
              { header: t("why"), cell: (m) => (m.pharmacyOrder ? t("withOrder", { reason: t(`reasons.${m.reason}`), order: m.pharmacyOrder.name ?? m.pharmacyOrder.uid }) : t(`reasons.${m.reason}`)) },
              { header: t("who"), className: "text-slate-700", cell: (m) => (m.by.type === "SYSTEM" ? t("system") : t("by", { name: m.by.name ?? t("unknown"), type: m.by.type })) },
            ]}
          />
        )}
      </QueryView>
    </section>
  );
}
