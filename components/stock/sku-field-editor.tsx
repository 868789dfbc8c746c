"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useState, type KeyboardEvent } from "react";
import type { z } from "zod";
import { useErrorMessage, fieldErrors } from "@/components/trpc/errors";
import { useZodErrorMap } from "@/components/ui/form";
import { formatAmountInput, parseAmount, useFormat } from "@/components/ui/format";
import { pharmacySkuFields } from "@/server/trpc/routers/pharmacy-skus.schemas";
import { useStockProcedures, type Sku, type StockEditor } from "./stock-procedures";

type Field = "stock" | "price" | "externalId";

/** A field's text as its input shows it (the price in the page's language: "4.50", "4,50"). */
const textOf = (sku: Sku, field: Field, locale: string): string =>
  field === "price" ? formatAmountInput(locale, sku.price) : field === "stock" ? String(sku.stock) : sku.externalId;

const WIDTH: Record<Field, string> = { externalId: "w-36", price: "w-24", stock: "w-24" };
const INPUT_MODE: Record<Field, "numeric" | "decimal" | "text"> = { externalId: "text", price: "decimal", stock: "numeric" };

/**
 * One editable value of a SKU (stock, price or the pharmacy's id): Enter saves it, checked first with
 * the procedure's own schema. A value changed elsewhere (the API, an order completion) replaces
 * the text unless the pharmacist has changed it.
 */
export function SkuFieldEditor({ sku, field, pharmacyUid, editor }: { sku: Sku; field: Field; pharmacyUid: string; editor: StockEditor }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("pharmacy.stock");
  const zodErrors = useZodErrorMap();
  const format = useFormat();
  const stock = useStockProcedures(editor);
  const queryClient = useQueryClient();
  const id = useId();
  const current = textOf(sku, field, format.locale);
  const [draft, setDraft] = useState(current);
  const [shown, setShown] = useState(current);
  if (current !== shown) {
    setShown(current);
    if (draft === shown) setDraft(current);
  }
  const [localError, setLocalError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    stock.update.mutationOptions({
      onSuccess: (row) => {
        const text = textOf(row, field, format.locale);
        setDraft(text);
        setShown(text);
        setSaved(true);
        void queryClient.invalidateQueries({ queryKey: stock.pathKey() });
      },
    }),
  );

  const save = () => {
    const raw = field === "price" ? parseAmount(draft) : field === "stock" ? (/^\s*-?\d+\s*$/.test(draft) ? Number(draft) : Number.NaN) : draft;
    if (raw === null || Number.isNaN(raw)) return setLocalError(field === "price" ? t("amountInvalid") : t("integerInvalid"));
    const parsed = (pharmacySkuFields[field] as z.ZodType).safeParse(raw, { error: zodErrors });
    if (!parsed.success) return setLocalError(parsed.error.issues[0]?.message ?? t("invalid"));
    setLocalError(null);
    setSaved(false);
    update.mutate({ pharmacyUid, pharmacySkuUid: sku.uid, [field]: parsed.data as number | string });
  };
  const serverErrors = fieldErrors(update.error, field);
  const error = localError ?? serverErrors?.join(" ") ?? (update.isError ? errorMessage(update.error) : null);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    save();
  };
  const label = field === "price" ? t("priceOf", { name: sku.sku.displayName }) : field === "stock" ? t("stockOf", { name: sku.sku.displayName }) : t("externalIdOf", { name: sku.sku.displayName });
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        value={draft}
        inputMode={INPUT_MODE[field]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-errors` : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          setSaved(false);
        }}
        onKeyDown={onKeyDown}
        className={`${WIDTH[field]} max-w-full rounded-md border px-2 py-1.5 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 ${error ? "border-red-400" : "border-slate-300"}`}
      />
      <p aria-live="polite" className="mt-1 h-4 text-xs text-slate-500">
        {update.isPending ? t("saving") : saved ? <span className="text-emerald-700">{t("saved")}</span> : null}
      </p>
      {error ? (
        <p id={`${id}-errors`} role={serverErrors || localError ? undefined : "alert"} className="max-w-40 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
