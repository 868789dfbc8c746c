"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { QueryView } from "@/components/ui/query-view";
import { ErrorState, Notice } from "@/components/ui/states";

/**
 * The doctor's own choice "e-mail me when new requests wait" (docs/decisions/prescriptions.md#new-request-e-mails-to-doctors):
 * saved as soon as the box changes; says where the e-mails go, and when none can go out.
 */
export function RequestNotices() {
  const t = useTranslations("doctor.notices");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const setting = useQuery(trpc.doctor.notices.get.queryOptions());
  const change = useMutation(trpc.doctor.notices.set.mutationOptions());
  const [saved, setSaved] = useState(false);
  const toggle = (enabled: boolean) => {
    setSaved(false);
    change.mutate(
      { enabled },
      {
        onSuccess: async (result) => {
          queryClient.setQueryData(trpc.doctor.notices.get.queryKey(), result);
          setSaved(true);
        },
      },
    );
  };
  return (
    <section aria-label={t("heading")} className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 className="text-sm font-semibold text-slate-900">{t("heading")}</h2>
      <QueryView query={setting} loadingLabel={t("loading")}>
        {(data) => (
          <div className="mt-3 space-y-3">
            <label className="flex items-start gap-3 text-sm text-slate-900">
              <input
                type="checkbox"
                checked={data.enabled}
                disabled={change.isPending}
                onChange={(e) => toggle(e.target.checked)}
                className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
              />
              <span>
                {t("label")}
                <span className="block text-xs text-slate-500">{data.recipient ? t("hint", { email: data.recipient }) : t("hintNoAddress")}</span>
              </span>
            </label>
            {data.mailerConfigured ? null : <Notice tone="warning">{t("noMailer")}</Notice>}
            {change.error ? <ErrorState message={errorMessage(change.error)} /> : null}
            {saved ? <Notice>{t("saved")}</Notice> : null}
          </div>
        )}
      </QueryView>
    </section>
  );
}
