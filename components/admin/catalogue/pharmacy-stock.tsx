"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { StockTable } from "@/components/stock-table";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { SelectField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";

/** Pharmacy stock and prices: pick one of the organisation's pharmacies, then its SKUs as the pharmacy portal shows them. */
export function AdminPharmacyStock() {
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.adminPharmacyStock.pharmacies.queryOptions());
  const [picked, setPicked] = useState<string | null>(null);
  if (pharmacies.isPending) return <LoadingState label="Loading pharmacies…" />;
  if (pharmacies.isError) return <ErrorState message={errorMessage(pharmacies.error)} onRetry={() => void pharmacies.refetch()} />;
  if (pharmacies.data.length === 0) return <EmptyState title="No pharmacies yet">Add a pharmacy under Pharmacies first.</EmptyState>;
  const current = pharmacies.data.find((p) => p.uid === picked) ?? pharmacies.data[0]!;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full max-w-xs">
          <SelectField label="Pharmacy" value={current.uid} onChange={(e) => setPicked(e.target.value)}>
            {pharmacies.data.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
        </div>
        <p className="pb-2 text-sm text-slate-600">Changes are recorded as yours: in the stock movements and the audit log.</p>
      </div>
      {/* Keyed by pharmacy: drafts and pages of one pharmacy never carry over to another. */}
      <div key={current.uid}>
        <StockTable pharmacyUid={current.uid} editor="admin" />
      </div>
    </div>
  );
}
