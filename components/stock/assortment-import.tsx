"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { SelectField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { StatusBadge } from "@/components/ui/status-badge";
import { TRPC_CSV_TEXT_MAX_CHARS } from "@/server/http/body-limits";
import type { AppRouter } from "@/server/trpc/router";
import { useStockProcedures, type StockEditor } from "./stock-procedures";

type Preview = Extract<inferRouterOutputs<AppRouter>["pharmacy"]["stock"]["importPreview"], { ok: true }>;
type Row = Preview["rows"][number];
type Values = NonNullable<Row["after"]>;
type Show = "attention" | "errors" | "all";

const ROWS_PER_PAGE = 50;
const MEBIBYTE = 1024 * 1024;

/**
 * Import of an assortment CSV file: the file is read in the browser (UTF-8, within the size the
 * door takes), previewed by the server row by row (nothing written: each row's outcome and its
 * errors), and applied as a whole after a confirmation, which names what it will do. A file with a
 * row in error cannot be applied: fix it and choose it again. An administrator's import may add
 * SKUs; a pharmacist's changes stock, price and id of the SKUs the pharmacy carries.
 */
export function AssortmentImport({ pharmacyUid, editor }: { pharmacyUid: string; editor: StockEditor }) {
  const t = useTranslations("pharmacy.stock.import");
  const tErrors = useTranslations("errors");
  const errorMessage = useErrorMessage();
  const stock = useStockProcedures(editor);
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [imported, setImported] = useState<{ create: number; update: number; unchanged: number } | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const preview = useMutation(stock.importPreview.mutationOptions());
  const apply = useMutation(stock.importApply.mutationOptions());

  const choose = async (chosen: File | undefined) => {
    setImported(null);
    setReadError(null);
    setFile(null);
    preview.reset();
    apply.reset();
    if (!chosen) return;
    if (chosen.size > TRPC_CSV_TEXT_MAX_CHARS) return setReadError(t("tooLarge", { mb: TRPC_CSV_TEXT_MAX_CHARS / MEBIBYTE }));
    let text: string;
    try {
      // Fatal: a file in another encoding (a spreadsheet's Windows-1252) is refused, not misread.
      text = new TextDecoder("utf-8", { fatal: true }).decode(await chosen.arrayBuffer());
    } catch {
      return setReadError(tErrors("assortments.csv.notUtf8"));
    }
    setFile({ name: chosen.name, text });
    preview.mutate({ pharmacyUid, csv: text });
  };

  const applyFile = async () => {
    const counts = await apply.mutateAsync({ pharmacyUid, csv: file!.text });
    setImported(counts);
    setFile(null);
    preview.reset();
    setInputKey((k) => k + 1);
    // Stock, prices, running-out counts and the SKUs still outside the assortment all may have changed.
    await queryClient.invalidateQueries();
  };

  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          {t("file")}
        </label>
        <input
          key={inputKey}
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${inputId}-hint`}
          onChange={(e) => void choose(e.target.files?.[0])}
          className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
        />
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-500">
          {t("hint", { editor, mb: TRPC_CSV_TEXT_MAX_CHARS / MEBIBYTE })}
        </p>
      </div>
      {imported ? <Notice>{t("imported", imported)}</Notice> : null}
      {readError ? <ErrorState message={readError} /> : null}
      {preview.isPending ? <LoadingState label={t("checking")} /> : null}
      {preview.isError ? <ErrorState message={errorMessage(preview.error)} onRetry={() => file && preview.mutate({ pharmacyUid, csv: file.text })} /> : null}
      {preview.data && !preview.data.ok ? <ErrorState message={t("unreadable", { name: file?.name ?? "", reason: preview.data.error })} /> : null}
      {preview.data?.ok && file ? (
<PreviewOf preview={preview.data} fileName={file.name} editor={editor} onApply={applyFile} />
      ) : null}
    </div>
  );
}

function PreviewOf({
  preview,
  fileName,
  editor,
  onApply,
}: {
  preview: Preview;
  fileName: string;
  editor: StockEditor;
  /** The import; its refusal (the file no longer fits the assortment) shows in the confirmation. */
  onApply: () => Promise<void>;
}) {
  const t = useTranslations("pharmacy.stock.import");
  const format = useFormat();
  const { counts } = preview;
  const changes = counts.create + counts.update;
  const [show, setShow] = useState<Show>(counts.error > 0 ? "errors" : "attention");
  const [page, setPage] = useState(0);
  const rows = preview.rows.filter((r) => show === "all" || (show === "errors" ? r.outcome === "error" : r.outcome !== "unchanged"));
  const shown = rows.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE);
  const values = (v: Values) => t("values", { externalId: v.externalId, price: format.money(v.price), stock: format.number(v.stock) });
  const change = (row: Row) => {
    const { before, after } = row;
    if (!before || !after) return null;
    const parts = [
      before.stock !== after.stock ? t("stockChange", { from: format.number(before.stock), to: format.number(after.stock) }) : null,
      before.price !== after.price ? t("priceChange", { from: format.money(before.price), to: format.money(after.price) }) : null,
      before.externalId !== after.externalId ? t("idChange", { editor, from: before.externalId, to: after.externalId }) : null,
    ];
    return parts.filter(Boolean).join(" · ");
  };
  const columns: Column<Row>[] = [
    {
      header: t("sku"),
      key: true,
      className: "md:min-w-56",
      cell: (row) =>
        row.sku ? (
          <>
            <div className="font-medium text-slate-900">{row.sku.displayName}</div>
            <div className="text-xs font-normal text-slate-500">{row.sku.pzn ? t("pzn", { pzn: row.sku.pzn }) : row.sku.uid}</div>
          </>
        ) : (
          <span className="text-slate-500">{row.reference || t("noReference")}</span>
        ),
    },
    { header: t("line"), className: "tabular-nums whitespace-nowrap", cell: (row) => row.line },
    { header: t("outcome"), cell: (row) => <StatusBadge kind="importOutcome" status={row.outcome} /> },
    {
      header: t("details"),
      cell: (row) =>
        row.outcome === "error" ? (
          <ul className="list-disc space-y-0.5 pl-4 text-red-800">
            {row.errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : row.outcome === "create" ? (
          values(row.after!)
        ) : row.outcome === "update" ? (
          change(row)
        ) : (
          <span className="text-slate-500">{t("sameValues")}</span>
        ),
    },
  ];
  return (
    <section aria-label={t("previewOf", { name: fileName })} className="space-y-3">
      <p role="status" className="text-sm text-slate-700">
        {t("summary", counts)}
      </p>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="w-full max-w-56">
          <SelectField
            label={t("show")}
            value={show}
            onChange={(e) => {
              setShow(e.target.value as Show);
              setPage(0);
            }}
          >
            <option value="attention">{t("showAttention")}</option>
            <option value="errors">{t("showErrors")}</option>
            <option value="all">{t("showAll")}</option>
          </SelectField>
        </div>
        <ConfirmButton
          buttonTone="primary"
          disabled={counts.error > 0 || changes === 0}
          title={t("confirmTitle", { count: changes })}
          confirmLabel={t("confirm")}
          pendingLabel={t("applying")}
          tone="primary"
          onConfirm={onApply}
          consequence={<p>{t("consequence", { editor, create: counts.create, update: counts.update })}</p>}
        >
          {t("apply")}
        </ConfirmButton>
      </div>
      {counts.error > 0 ? <Notice tone="warning">{t("fixErrors", { count: counts.error })}</Notice> : changes === 0 ? <Notice tone="warning">{t("nothingToDo")}</Notice> : null}
      <DataTable
        label={t("rowsOf", { name: fileName })}
        columns={columns}
        rows={shown}
        rowKey={(row) => String(row.line)}
        rowClassName={() => "align-top"}
        empty={<p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">{t("noRowsShown")}</p>}
        pager={
          rows.length > ROWS_PER_PAGE ? (
            <Pager className="border-t border-slate-100 px-3 py-2" page={page} totalPages={Math.ceil(rows.length / ROWS_PER_PAGE)} total={rows.length} noun={[t("rowNoun"), t("rowsNoun")]} onPage={setPage} />
          ) : undefined
        }
      />
    </section>
  );
}
