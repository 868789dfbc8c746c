"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type ReactNode, type SelectHTMLAttributes } from "react";
import type { FieldPath, FieldValues } from "react-hook-form";
import { useTRPC } from "@/components/trpc/react";
import type { AnyForm } from "@/components/ui/form";

/** A card of a catalogue page, named by its heading. */
export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="min-w-0 text-base font-semibold break-words text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A labelled checkbox of a kit form (react-hook-form). */
export function CheckboxField<Values extends FieldValues>({ form, name, label }: { form: AnyForm<Values>; name: FieldPath<Values>; label: string }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 sm:pt-6">
      <input id={id} type="checkbox" {...form.register(name)} className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100" />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}

/** "" → null (a cleared field); a number, or NaN when the text is not one. */
export function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^-?\d+(?:[.,]\d+)?$/.test(trimmed) ? Number(trimmed.replace(",", ".")) : Number.NaN;
}

/** Refetches everything of the catalogue after a change. */
export function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.catalogue.pathKey() });
}

/** A value once it has stopped changing for a moment (what is typed, before it is looked up). */
export function useSettled<T>(value: T, delayMs = 300): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the value's content
  }, [key, delayMs]);
  return settled;
}

/**
 * Other products with the handle and other SKUs with the PZN being typed: the spec makes neither
 * unique, so the forms warn under the field and save anyway (issue 22 item 9).
 */
export function useDuplicates(query: { handle?: string | null; pzn?: string | null; exceptProductUid?: string; exceptSkuUid?: string }) {
  const trpc = useTRPC();
  const settled = useSettled({
    handle: query.handle?.trim() || undefined,
    pzn: query.pzn?.trim() || undefined,
    exceptProductUid: query.exceptProductUid,
    exceptSkuUid: query.exceptSkuUid,
  });
  const found = useQuery(trpc.admin.catalogue.duplicates.queryOptions(settled, { enabled: Boolean(settled.handle || settled.pzn) }));
  const asked = Boolean(settled.handle || settled.pzn);
  return { products: asked ? (found.data?.products ?? []) : [], skus: asked ? (found.data?.skus ?? []) : [] };
}

/** A warning under a field (with role status, so it is read out when it appears). */
export function FieldWarning({ children }: { children: ReactNode }) {
  return (
    <span role="status" className="mt-1 block font-medium text-amber-800">
      {children}
    </span>
  );
}

/** A select as the kit's Field renders its inputs (give it the Field's control and the form's register). */
export function SelectControl(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      {...props}
      className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400"
    />
  );
}
