"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type KeyboardEvent } from "react";
import type { z } from "zod";
import { formatAmountInput, parseAmount, useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, TextField } from "@/components/ui/controls";
import { useListSearch } from "@/components/ui/use-list-search";
import { Pager } from "@/components/ui/pager";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { pharmacySkuFields } from "@/server/trpc/routers/pharmacy-skus.schemas";
import type { AppRouter } from "@/server/trpc/router";
import type { inferRouterOutputs } from "@trpc/server";

type Sku = inferRouterOutputs<AppRouter>["pharmacy"]["stock"]["list"]["items"][number];
type Field = "stock" | "price" | "externalId";

const PAGE_SIZE = 25;

/**
 * Who edits: a pharmacist (pharmacySkus) or an administrator (adminPharmacyStock), whose procedures
 * take the same inputs and answer the same shapes; only the words differ.
 */
export type StockEditor = "pharmacy" | "admin";

function useStockProcedures(editor: StockEditor) {
  const trpc = useTRPC();
  // One router under both portals (server/trpc/routers/stock.ts): the same inputs and outputs, the portal's scope.
  return editor === "admin" ? trpc.admin.pharmacyStock : trpc.pharmacy.stock;
}

const EMPTY_TEXT: Record<StockEditor, string> = {
  pharmacy: "Your pharmacy's SKUs appear here once your organisation lists them for your pharmacy.",
  admin: "This pharmacy has no SKUs yet: its SKUs appear here once they are listed for it.",
};

/**
 * A pharmacy's SKUs with their stock, price and external id, each editable in place, with its stock
 * movements. `maxStock`: only SKUs with this stock or less (the admin tool's "running out").
 */
export function StockTable({ pharmacyUid, editor, maxStock }: { pharmacyUid: string; editor: StockEditor; maxStock?: number }) {
  const stock = useStockProcedures(editor);
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const list = useQuery(stock.list.queryOptions({ pharmacyUid, search, maxStock, page, limit: PAGE_SIZE }));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="w-full max-w-sm">
          <TextField label="Search" type="search" placeholder={editor === "admin" ? "Name, PZN or the pharmacy's id" : "Name, PZN or your id"} value={searchText} maxLength={100} onChange={(e) => setSearchText(e.target.value)} />
        </div>
        <p className="text-sm text-slate-500">Type a new stock, price or id and press Enter to save it.</p>
      </div>
      {list.isPending ? (
        <LoadingState label="Loading SKUs…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={search ? "No SKU matches your search" : maxStock !== undefined ? "No SKU is running out" : "No SKUs yet"}>
          {search ? "Try another name, PZN or id." : maxStock !== undefined ? `Every SKU has more than ${maxStock} in stock.` : EMPTY_TEXT[editor]}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-3 py-3">SKU</th>
                  <th scope="col" className="px-3 py-3">{editor === "admin" ? "Pharmacy's id" : "Your id"}</th>
                  <th scope="col" className="px-3 py-3">Price (EUR)</th>
                  <th scope="col" className="px-3 py-3">Stock</th>
                  <th scope="col" className="px-3 py-3"><span className="sr-only">History</span></th>
                </tr>
              </thead>
              {list.data.items.map((sku) => (
                <SkuRow key={sku.uid} sku={sku} pharmacyUid={pharmacyUid} editor={editor} />
              ))}
            </table>
          </div>
          <Pager page={page} totalPages={list.data.totalPages} total={list.data.total} noun={["SKU", "SKUs"]} onPage={setPage} />
        </>
      )}
    </div>
  );
}

/** The fields' texts as the inputs show them (the price in the page's language: "4.50", "4,50"). */
const draftsOf = (sku: Sku, locale: string): Record<Field, string> => ({ stock: String(sku.stock), price: formatAmountInput(locale, sku.price), externalId: sku.externalId });

/** The value to send for a field's draft, checked with the procedure's own schema; or the message to show. */
function parseDraft(field: Field, draft: string): { value: number | string } | { error: string } {
  const raw = field === "price" ? parseAmount(draft) : field === "stock" ? (/^\s*-?\d+\s*$/.test(draft) ? Number(draft) : Number.NaN) : draft;
  if (raw === null || Number.isNaN(raw)) return { error: field === "price" ? "Enter an amount in euros, e.g. 4.50." : "A valid integer is required." };
  const schema: z.ZodType = pharmacySkuFields[field];
  const parsed = schema.safeParse(raw);
  return parsed.success ? { value: parsed.data as number | string } : { error: parsed.error.issues[0]?.message ?? "Invalid value." };
}

function SkuRow({ sku, pharmacyUid, editor }: { sku: Sku; pharmacyUid: string; editor: StockEditor }) {
  const format = useFormat();
  const stock = useStockProcedures(editor);
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState(() => draftsOf(sku, format.locale));
  // A value changed elsewhere (the API, an order completion) replaces a field's draft unless the
  // pharmacist is editing that field.
  const [shown, setShown] = useState(() => draftsOf(sku, format.locale));
  const current = draftsOf(sku, format.locale);
  if (current.stock !== shown.stock || current.price !== shown.price || current.externalId !== shown.externalId) {
    setShown(current);
    setDrafts((d) => ({
      stock: d.stock === shown.stock ? current.stock : d.stock,
      price: d.price === shown.price ? current.price : d.price,
      externalId: d.externalId === shown.externalId ? current.externalId : d.externalId,
    }));
  }
  const [localErrors, setLocalErrors] = useState<Partial<Record<Field, string[]>>>({});
  const [saved, setSaved] = useState<Field | null>(null);
  const [showMovements, setShowMovements] = useState(false);
  const update = useMutation(
    stock.update.mutationOptions({
      onSuccess: (row, input) => {
        const field: Field = input.stock !== undefined ? "stock" : input.price !== undefined ? "price" : "externalId";
        setDrafts((d) => ({ ...d, [field]: draftsOf(row, format.locale)[field] }));
        setShown((v) => ({ ...v, [field]: draftsOf(row, format.locale)[field] }));
        setSaved(field);
        void queryClient.invalidateQueries({ queryKey: stock.pathKey() });
      },
    }),
  );

  const save = (field: Field) => {
    const parsed = parseDraft(field, drafts[field]);
    if ("error" in parsed) {
      setLocalErrors({ [field]: [parsed.error] });
      return;
    }
    setLocalErrors({});
    setSaved(null);
    update.mutate({ pharmacyUid, pharmacySkuUid: sku.uid, [field]: parsed.value });
  };
  const errorsOf = (field: Field) => localErrors[field] ?? fieldErrors(update.error, field);
  const sentField: Field | undefined = update.variables
    ? update.variables.stock !== undefined
      ? "stock"
      : update.variables.price !== undefined
        ? "price"
        : "externalId"
    : undefined;
  const otherError = update.isError && !["stock", "price", "externalId"].some((f) => fieldErrors(update.error, f)) ? errorMessage(update.error) : null;

  const cell = (field: Field, label: string, inputMode: "numeric" | "decimal" | "text", width: string) => (
    <CellInput
      label={label}
      value={drafts[field]}
      inputMode={inputMode}
      width={width}
      errors={errorsOf(field)}
      busy={update.isPending && sentField === field}
      saved={saved === field && !update.isPending}
      onChange={(value) => {
        setDrafts((d) => ({ ...d, [field]: value }));
        setSaved(null);
      }}
      onEnter={() => save(field)}
    />
  );

  return (
    <tbody className="divide-y divide-slate-100 border-b border-slate-200 last:border-b-0">
      <tr className="align-top">
        <td className="min-w-56 px-3 py-3">
          <div className="font-medium text-slate-900">{sku.sku.displayName}</div>
          <div className="text-xs text-slate-500">
            {sku.sku.productDisplayName}
            {sku.sku.pzn ? ` · PZN ${sku.sku.pzn}` : ""}
            {sku.sku.digital ? " · digital" : ""}
          </div>
          <div className="text-xs text-slate-400">Updated {format.dateTime(sku.updatedAt)}</div>
        </td>
        <td className="px-3 py-3">{cell("externalId", `External id of ${sku.sku.displayName}`, "text", "w-36")}</td>
        <td className="px-3 py-3">{cell("price", `Price of ${sku.sku.displayName}`, "decimal", "w-24")}</td>
        <td className="px-3 py-3">{cell("stock", `Stock of ${sku.sku.displayName}`, "numeric", "w-24")}</td>
        <td className="px-3 py-3 text-right">
          <Button tone="secondary" aria-expanded={showMovements} aria-label={`Stock movements of ${sku.sku.displayName}`} onClick={() => setShowMovements((s) => !s)}>
            {showMovements ? "Hide" : "Movements"}
          </Button>
        </td>
      </tr>
      {otherError ? (
        <tr>
          <td colSpan={5} className="px-4 pb-3">
            <p role="alert" className="text-sm text-red-700">
              {otherError}
            </p>
          </td>
        </tr>
      ) : null}
      {showMovements ? (
        <tr>
          <td colSpan={5} className="bg-slate-50 px-4 py-3">
            <StockMovements pharmacyUid={pharmacyUid} sku={sku} editor={editor} />
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}

function CellInput(props: {
  label: string;
  value: string;
  inputMode: "numeric" | "decimal" | "text";
  width: string;
  errors?: string[];
  busy: boolean;
  saved: boolean;
  onChange: (value: string) => void;
  onEnter: () => void;
}) {
  const id = useId();
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      props.onEnter();
    }
  };
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {props.label}
      </label>
      <input
        id={id}
        value={props.value}
        inputMode={props.inputMode}
        aria-invalid={props.errors?.length ? true : undefined}
        aria-describedby={props.errors?.length ? `${id}-errors` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={onKeyDown}
        className={`${props.width} rounded-md border px-2 py-1.5 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 ${props.errors?.length ? "border-red-400" : "border-slate-300"}`}
      />
      <p aria-live="polite" className="mt-1 h-4 text-xs text-slate-500">
        {props.busy ? "Saving…" : props.saved ? <span className="text-emerald-700">Saved</span> : null}
      </p>
      {props.errors?.length ? (
        <p id={`${id}-errors`} className="max-w-40 text-xs text-red-700">
          {props.errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

const REASON_LABELS = {
  manual_change: "Manual change",
  order_completion: "Order completion",
  order_cancellation: "Cancellation after completion",
  initial: "Initial stock",
} as const;

function StockMovements({ pharmacyUid, sku, editor }: { pharmacyUid: string; sku: Sku; editor: StockEditor }) {
  const format = useFormat();
  const stock = useStockProcedures(editor);
  const movements = useQuery(stock.movements.queryOptions({ pharmacyUid, pharmacySkuUid: sku.uid, limit: 10 }));
  if (movements.isPending) return <LoadingState label="Loading stock movements…" />;
  if (movements.isError) return <ErrorState message={errorMessage(movements.error)} onRetry={() => void movements.refetch()} />;
  if (movements.data.length === 0) return <EmptyState title="No stock movements yet">Changes of this SKU's stock are listed here.</EmptyState>;
  return (
    <table className="min-w-full text-sm" aria-label={`Recent stock movements of ${sku.sku.displayName}`}>
      <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-4">When</th>
          <th scope="col" className="py-1 pr-4">Change</th>
          <th scope="col" className="py-1 pr-4">Stock after</th>
          <th scope="col" className="py-1 pr-4">Why</th>
          <th scope="col" className="py-1 pr-4">Who</th>
        </tr>
      </thead>
      <tbody>
        {movements.data.map((m) => (
          <tr key={m.uid} className="border-t border-slate-200">
            <td className="whitespace-nowrap py-1.5 pr-4 text-slate-600">{format.dateTime(m.createdAt)}</td>
            <td className={`py-1.5 pr-4 font-medium tabular-nums ${m.delta < 0 ? "text-red-700" : "text-emerald-700"}`}>{m.delta > 0 ? `+${m.delta}` : m.delta}</td>
            <td className="py-1.5 pr-4 tabular-nums">{m.stockAfter}</td>
            <td className="py-1.5 pr-4">
              {REASON_LABELS[m.reason]}
              {m.pharmacyOrder ? ` (${m.pharmacyOrder.name ?? m.pharmacyOrder.uid})` : ""}
            </td>
            <td className="py-1.5 pr-4 text-slate-700">
              {m.by.type === "SYSTEM" ? "System" : `${m.by.name ?? "Unknown"} (${m.by.type === "USER" ? "portal user" : "API key"})`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
