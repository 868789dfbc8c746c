"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { Button, SelectField } from "@/components/ui/controls";
import { ErrorState } from "@/components/ui/states";
import { useStockProcedures, type StockEditor } from "./stock-procedures";

type Separator = "," | ";";

/** A file name of the pharmacy's name and today's date: "assortment-apotheke-am-markt-2026-11-26.csv". */
const fileNameOf = (pharmacyName: string) => {
  const slug = pharmacyName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `assortment-${slug || "pharmacy"}-${new Date().toISOString().slice(0, 10)}.csv`;
};

/**
 * The assortment as a CSV file the browser saves: the columns the import reads (sku_uid, pzn,
 * display_name, external_id, price_cents, stock), comma- or semicolon-separated (German spreadsheets
 * expect semicolons). The file starts with a byte-order mark so that spreadsheets read it as UTF-8;
 * the import drops it.
 */
export function AssortmentExport({ pharmacyUid, editor }: { pharmacyUid: string; editor: StockEditor }) {
  const t = useTranslations("pharmacy.stock.export");
  const errorMessage = useErrorMessage();
  const stock = useStockProcedures(editor);
  const queryClient = useQueryClient();
  const [separator, setSeparator] = useState<Separator>(",");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    setPending(true);
    setError(null);
    try {
      const { csv, pharmacyName } = await queryClient.fetchQuery({ ...stock.exportCsv.queryOptions({ pharmacyUid, separator }), staleTime: 0 });
      const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = fileNameOf(pharmacyName);
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">{t("hint")}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full max-w-56">
          <SelectField label={t("separator")} value={separator} onChange={(e) => setSeparator(e.target.value as Separator)}>
            <option value=",">{t("comma")}</option>
            <option value=";">{t("semicolon")}</option>
          </SelectField>
        </div>
        <Button onClick={() => void download()} disabled={pending} aria-busy={pending || undefined}>
          {pending ? t("preparing") : t("download")}
        </Button>
      </div>
      {error ? <ErrorState message={error} /> : null}
    </div>
  );
}
