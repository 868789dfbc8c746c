"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { isNotFound } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { verifyWalletPassInput } from "@/server/trpc/routers/pharmacy-wallet-passes.schemas";

/** What the last check answered: the pass's validity and status, or that no pass has the value (the API's 404). */
type Outcome = { valid: boolean; status: string | null; at: number };


/**
 * The counter check of a wallet pass: a hand-held scanner types the barcode value into the field and
 * presses Enter, which submits; the answer is only valid or not and the pass's status. The field is
 * emptied and keeps the focus after each check, ready for the next scan; the value is never shown back.
 */
export function WalletPassCheck() {
  const t = useTranslations("pharmacy.walletPass");
  const format = useFormat();
  const trpc = useTRPC();
  const verify = useMutation(trpc.pharmacy.walletPasses.verify.mutationOptions());
  const form = useZodForm(verifyWalletPassInput, { barcodeValue: "" });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { setFocus } = form;
  useEffect(() => setFocus("barcodeValue"), [setFocus]);

  const submit = submitWith(
    form,
    async (values) => {
      // An answer on screen is always this scan's: a refused scan leaves none behind.
      setOutcome(null);
      try {
        return await verify.mutateAsync(values);
      } catch (error) {
        // A value of no pass of the organisation is an answer at the counter, not a failure of the page.
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    (answer) => {
      setOutcome({ valid: answer?.valid ?? false, status: answer?.status ?? null, at: Math.floor(Date.now() / 1000) });
      form.reset({ barcodeValue: "" });
      setFocus("barcodeValue");
    },
  );

  return (
    <div className="max-w-2xl space-y-6">
      <form onSubmit={submit} noValidate aria-label={t("formLabel")} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-end gap-4">
          <div className="w-full min-w-0 sm:flex-1">
            <Field
              form={form}
              name="barcodeValue"
              label={t("barcodeValue")}
              hint={t("barcodeHint")}
              maxLength={200}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
            />
          </div>
          <SubmitButton form={form} className="sm:mb-5">
            {t("check")}
          </SubmitButton>
        </div>
        <FormError form={form} />
      </form>

      <section aria-labelledby="wallet-pass-result" aria-live="polite" className="space-y-2">
        <h2 id="wallet-pass-result" className="text-sm font-semibold text-slate-900">
          {t("result")}
        </h2>
        {outcome === null ? (
          <p className="text-sm text-slate-600">{t("noCheckYet")}</p>
        ) : (
          <div
            data-valid={outcome.valid}
            className={`rounded-xl border p-5 ${outcome.valid ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-red-300 bg-red-50 text-red-900"}`}
          >
            <p className="text-2xl font-semibold">{outcome.valid ? t("valid") : t("notValid")}</p>
            {outcome.status !== null ? (
              <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                {t("status")} <StatusBadge kind="walletPass" status={outcome.status} />
              </p>
            ) : (
              <p className="mt-2 text-sm">{t("unknown")}</p>
            )}
            <p className="mt-2 text-xs opacity-80">{t("checkedAt", { at: format.dateTime(outcome.at) })}</p>
          </div>
        )}
      </section>
    </div>
  );
}
