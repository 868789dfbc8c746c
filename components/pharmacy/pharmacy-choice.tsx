"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/components/trpc/react";
import { useErrorMessage } from "@/components/trpc/errors";
import { SelectField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";

/**
 * Pages that work on one pharmacy (stock, shipping methods, payouts): a pharmacist of one pharmacy
 * works on it; a group pharmacist picks one of the group's (the first by name to start with).
 * Renders the picker, or the loading/empty/error state, and hands the chosen pharmacy to `children`.
 */
export function PharmacyChoice({ children }: { children: (pharmacyUid: string) => ReactNode }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("pharmacy.choice");
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.pharmacy.pharmacies.list.queryOptions());
  const [picked, setPicked] = useState<string | null>(null);

  if (pharmacies.isPending) return <LoadingState label={t("loading")} />;
  if (pharmacies.isError) return <ErrorState message={errorMessage(pharmacies.error)} onRetry={() => void pharmacies.refetch()} />;
  const list = pharmacies.data;
  if (list.length === 0) return <EmptyState title={t("none")}>{t("noneHint")}</EmptyState>;
  const current = list.find((p) => p.uid === picked) ?? list[0]!;
  return (
    <div className="space-y-6">
      {list.length > 1 ? (
        <div className="max-w-xs">
          <SelectField label={t("label")} value={current.uid} onChange={(e) => setPicked(e.target.value)}>
            {list.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      {/* Keyed by pharmacy: drafts and pages of one pharmacy never carry over to another. */}
      <div key={current.uid}>{children(current.uid)}</div>
    </div>
  );
}
