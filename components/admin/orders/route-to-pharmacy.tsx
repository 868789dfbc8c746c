"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { SelectField } from "@/components/ui/controls";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";
import type { Done, Order } from "./order-detail";

type Fulfillment = Order["fulfillments"][number];
type Choice = inferRouterOutputs<AppRouter>["admin"]["orders"]["pharmacyChoices"][number];

/**
 * "Route to pharmacy" for a fulfillment no pharmacy has (none could take it, or its pharmacy gave it
 * back): the organisation's pharmacies, each with whether it carries the items with stock and whether
 * it cancelled this fulfillment before, routing's choice first; nothing is preselected, and the
 * routing is asked once (ConfirmButton) since the chosen pharmacy is told at once.
 */
export function RouteToPharmacy({ order, fulfillment: f, onDone }: { order: Order; fulfillment: Fulfillment; onDone: Done }) {
  const t = useTranslations("admin.routing");
  const trpc = useTRPC();
  const headingId = useId();
  const choices = useQuery(trpc.admin.orders.pharmacyChoices.queryOptions({ orderUid: order.uid, fulfillmentUid: f.uid }));
  const [pharmacyUid, setPharmacyUid] = useState("");
  const route = useMutation(trpc.admin.orders.routeFulfillment.mutationOptions());

  const optionText = (c: Choice) => {
    let text = t(c.hasStock ? "serves" : c.carriesAll ? "noStock" : "missing", { pharmacy: c.displayName });
    if (c.suggested) text = t("suggested", { option: text });
    if (c.cancelledBefore) text = t("cancelledBefore", { option: text });
    return text;
  };

  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h4 id={headingId} className="text-sm font-semibold text-amber-900">
        {t("heading")}
      </h4>
      <p className="mt-1 text-sm text-amber-900">{t("explanation")}</p>
      <div className="mt-3">
        <QueryView query={choices} loadingLabel={t("loading")} isEmpty={(list) => list.length === 0} empty={<EmptyState title={t("noPharmacies")} />}>
          {(list) => {
            const chosen = list.find((c) => c.pharmacyUid === pharmacyUid);
            return (
              <div>
                <div className="flex flex-col gap-3 md:flex-row md:items-end">
                  <div className="min-w-0 flex-1">
                    <SelectField label={t("pharmacy")} value={pharmacyUid} onChange={(e) => setPharmacyUid(e.target.value)}>
                      <option value="">{t("choose")}</option>
                      {list.map((c) => (
                        <option key={c.pharmacyUid} value={c.pharmacyUid}>
                          {optionText(c)}
                        </option>
                      ))}
                    </SelectField>
                  </div>
                  <ConfirmButton
                    buttonTone="primary"
                    tone="primary"
                    disabled={!chosen}
                    buttonLabel={t("routeLabel", { externalId: f.externalId })}
                    title={chosen ? t("confirmTitle", { externalId: f.externalId, pharmacy: chosen.displayName }) : t("heading")}
                    confirmLabel={t("confirm")}
                    pendingLabel={t("routing")}
                    onConfirm={async () => {
                      if (!chosen) return;
                      await route.mutateAsync({ orderUid: order.uid, fulfillmentUid: f.uid, pharmacyUid: chosen.pharmacyUid });
                      setPharmacyUid("");
                      await onDone({ tone: "success", text: t("routed", { externalId: f.externalId, pharmacy: chosen.displayName }) });
                    }}
                    consequence={
                      chosen ? (
                        <>
                          <p>{t("consequence", { pharmacy: chosen.displayName })}</p>
                          {!chosen.hasStock ? <p className="font-medium text-amber-900">{t("warnNoStock", { pharmacy: chosen.displayName })}</p> : null}
                          {chosen.cancelledBefore ? <p className="font-medium text-amber-900">{t("warnCancelled", { pharmacy: chosen.displayName })}</p> : null}
                        </>
                      ) : null
                    }
                  >
                    {t("route")}
                  </ConfirmButton>
                </div>
                <p className="mt-1 text-xs text-amber-900">{t("hint")}</p>
              </div>
            );
          }}
        </QueryView>
      </div>
    </section>
  );
}
