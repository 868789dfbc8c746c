"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { StockTable } from "@/components/stock-table";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { SelectField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";

/**
 * Pharmacy stock and prices: pick one of the organisation's pharmacies (each says how many of its SKUs
 * are running out), then its SKUs as the pharmacy portal shows them, all or only those running out.
 * `runningOutFirst` (the home page's link): start on the first pharmacy running out, filtered.
 */
export function AdminPharmacyStock({ runningOutFirst = false }: { runningOutFirst?: boolean }) {
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.admin.catalogue.pharmacies.queryOptions());
  const [picked, setPicked] = useState<string | null>(null);
  const [onlyRunningOut, setOnlyRunningOut] = useState(runningOutFirst);
  if (pharmacies.isPending) return <LoadingState label="Loading pharmacies…" />;
  if (pharmacies.isError) return <ErrorState message={errorMessage(pharmacies.error)} onRetry={() => void pharmacies.refetch()} />;
  if (pharmacies.data.length === 0) return <EmptyState title="No pharmacies yet">Add a pharmacy under Pharmacies first.</EmptyState>;
  const firstRunningOut = runningOutFirst ? pharmacies.data.find((p) => p.runningOut > 0) : undefined;
  const current = pharmacies.data.find((p) => p.uid === picked) ?? firstRunningOut ?? pharmacies.data[0]!;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full max-w-sm">
          <SelectField label="Pharmacy" value={current.uid} onChange={(e) => setPicked(e.target.value)}>
            {pharmacies.data.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
                {p.runningOut > 0 ? ` (${p.runningOut} running out)` : ""}
              </option>
            ))}
          </SelectField>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input type="checkbox" checked={onlyRunningOut} onChange={(e) => setOnlyRunningOut(e.target.checked)} className="h-4 w-4 rounded border-slate-300" />
          Only SKUs running out (stock {LOW_STOCK_THRESHOLD} or less)
        </label>
        <p className="pb-2 text-sm text-slate-600">Changes are recorded as yours: in the stock movements and the audit log.</p>
      </div>
      {/* Keyed by pharmacy and filter: drafts and pages of one list never carry over to another. */}
      <div key={`${current.uid}-${onlyRunningOut}`}>
        <StockTable pharmacyUid={current.uid} editor="admin" maxStock={onlyRunningOut ? LOW_STOCK_THRESHOLD : undefined} />
      </div>
    </div>
  );
}
