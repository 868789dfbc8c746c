"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { StockTable } from "@/components/stock-table";
import { AssortmentTools } from "@/components/stock/assortment-tools";
import { useTRPC } from "@/components/trpc/react";
import { SelectField } from "@/components/ui/controls";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useUrlQuery } from "@/components/ui/use-url-state";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { AddToAssortment } from "./add-to-assortment";
import { RemoveFromAssortment } from "./remove-from-assortment";

/**
 * Pharmacy stock and prices: pick one of the organisation's pharmacies (each says how many of its SKUs
 * are running out), then its SKUs as the pharmacy portal shows them, all or only those running out,
 * and its assortment: add SKUs, remove one, import and export CSV.
 * Both choices live in the URL (`pharmacy`, `runningOut=1`): with `runningOut=1` and no pharmacy
 * (the home page's link) the page starts on the first pharmacy running out.
 */
export function AdminPharmacyStock() {
  const t = useTranslations("admin.catalogue.stock");
  const trpc = useTRPC();
  const query = useUrlQuery();
  const picked = query.get("pharmacy");
  const onlyRunningOut = query.get("runningOut") === "1";
  const pharmacies = useQuery(trpc.admin.catalogue.pharmacies.queryOptions());
  return (
    <QueryView
      query={pharmacies}
      loadingLabel={t("loading")}
      isEmpty={(list) => list.length === 0}
      empty={<EmptyState title={t("none")}>{t("noneHint")}</EmptyState>}
    >
      {(list) => {
        const firstRunningOut = onlyRunningOut && !picked ? list.find((p) => p.runningOut > 0) : undefined;
        const current = list.find((p) => p.uid === picked) ?? firstRunningOut ?? list[0]!;
        return (
          <div className="space-y-6">
            <div className="flex flex-wrap items-end gap-4">
              <div className="w-full max-w-sm">
                <SelectField label={t("pharmacy")} value={current.uid} onChange={(e) => query.set({ pharmacy: e.target.value })}>
                  {list.map((p) => (
                    <option key={p.uid} value={p.uid}>
                      {p.runningOut > 0 ? t("pharmacyRunningOut", { name: p.displayName, count: p.runningOut }) : p.displayName}
                    </option>
                  ))}
                </SelectField>
              </div>
              <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={onlyRunningOut}
                  onChange={(e) => {
                    const runningOut = e.target.checked ? "1" : undefined;
                    // Keeps the pharmacy shown (a pick not yet rendered included): without one, runningOut=1 starts on the first running out.
                    query.set((latest) => ({ runningOut, pharmacy: latest.get("pharmacy") ?? current.uid }));
                  }}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {t("onlyRunningOut", { threshold: LOW_STOCK_THRESHOLD })}
              </label>
              <p className="pb-2 text-sm text-slate-600">{t("recorded")}</p>
            </div>
            {/* Keyed by pharmacy: a picked SKU or a previewed file of one pharmacy never carries over to another. */}
            <div key={current.uid}>
              <AssortmentTools pharmacyUid={current.uid} editor="admin" addSkus={<AddToAssortment pharmacyUid={current.uid} />} />
            </div>
            {/* Keyed by pharmacy and filter: drafts and pages of one list never carry over to another. */}
            <div key={`${current.uid}-${onlyRunningOut}`}>
              <StockTable
                pharmacyUid={current.uid}
                editor="admin"
                maxStock={onlyRunningOut ? LOW_STOCK_THRESHOLD : undefined}
                rowAction={(sku) => <RemoveFromAssortment pharmacyUid={current.uid} pharmacyName={current.displayName} sku={sku} />}
              />
            </div>
          </div>
        );
      }}
    </QueryView>
  );
}
