"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, SelectField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { HIDDEN_SKU_TYPE_LABELS } from "@/server/trpc/routers/admin-settings.schemas";
import { SettingsSection, tableClass, theadClass } from "./section";

type HiddenSkuType = keyof typeof HIDDEN_SKU_TYPE_LABELS;
type Pharmacy = { uid: string; displayName: string; hiddenSkuType: HiddenSkuType };

/** Each pharmacy's hidden SKU type: SKUs of that type do not exist for the pharmacy's API and portal. */
export function HiddenSkuTypes() {
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.settings.hiddenSkuTypes.list.queryOptions());
  return (
    <SettingsSection
      id="hidden-sku-types"
      title="Hidden SKU type"
      description="Per pharmacy account: SKUs of the hidden type (digital or physical) are left out of its External Pharmacy API and its portal, and updating one answers 404."
    >
      {list.isPending ? (
        <LoadingState label="Loading pharmacies…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No pharmacies yet">Pharmacies appear here once they are added.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className={tableClass}>
            <thead className={theadClass}>
              <tr>
                <th scope="col" className="px-4 py-3">Pharmacy</th>
                <th scope="col" className="px-4 py-3">Hidden SKU type</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.map((pharmacy) => (
                <PharmacyRow key={pharmacy.uid} pharmacy={pharmacy} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsSection>
  );
}

function PharmacyRow({ pharmacy }: { pharmacy: Pharmacy }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<HiddenSkuType>(pharmacy.hiddenSkuType);
  const [saved, setSaved] = useState(false);
  const change = useMutation(
    trpc.admin.settings.hiddenSkuTypes.change.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.hiddenSkuTypes.list.pathKey() });
      },
    }),
  );
  return (
    <tr className="align-top">
      <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
        {pharmacy.displayName}
      </th>
      <td className="px-4 py-3">
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(false);
            change.mutate({ pharmacyUid: pharmacy.uid, hiddenSkuType: value });
          }}
        >
          <div className="min-w-56">
            <SelectField
              label={`Hidden SKU type of ${pharmacy.displayName}`}
              value={value}
              onChange={(e) => {
                setValue(e.target.value as HiddenSkuType);
                setSaved(false);
              }}
            >
              {(Object.keys(HIDDEN_SKU_TYPE_LABELS) as HiddenSkuType[]).map((t) => (
                <option key={t} value={t}>
                  {HIDDEN_SKU_TYPE_LABELS[t]}
                </option>
              ))}
            </SelectField>
          </div>
          <Button type="submit" tone="secondary" disabled={change.isPending} aria-label={`Save hidden SKU type of ${pharmacy.displayName}`}>
            Save
          </Button>
          {saved ? <Notice>Saved.</Notice> : null}
          {change.error ? <ErrorState message={errorMessage(change.error)} /> : null}
        </form>
      </td>
    </tr>
  );
}
