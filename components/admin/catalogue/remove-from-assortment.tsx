"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useFormat } from "@/components/ui/format";
import type { Sku } from "@/components/stock/stock-procedures";

/** "Remove": takes a SKU out of the pharmacy's assortment, after a confirmation naming what that means for routing and stock. */
export function RemoveFromAssortment({ pharmacyUid, pharmacyName, sku }: { pharmacyUid: string; pharmacyName: string; sku: Sku }) {
  const t = useTranslations("admin.catalogue.assortment");
  const trpc = useTRPC();
  const format = useFormat();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.admin.assortments.remove.mutationOptions());
  const name = sku.sku.displayName;
  return (
    <ConfirmButton
      buttonLabel={t("removeNamed", { name })}
      title={t("removeTitle", { name, pharmacy: pharmacyName })}
      confirmLabel={t("removeConfirm")}
      pendingLabel={t("removing")}
      onConfirm={async () => {
        await remove.mutateAsync({ pharmacyUid, pharmacySkuUid: sku.uid });
        await queryClient.invalidateQueries();
      }}
      consequence={<p>{t("removeConsequence", { pharmacy: pharmacyName, stock: format.number(sku.stock) })}</p>}
    >
      {t("remove")}
    </ConfirmButton>
  );
}
