"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/** A region still loading: announced to screen readers, a calm placeholder for everyone else. */
export function LoadingState({ label }: { label?: string }) {
  const t = useTranslations("common");
  return (
    <div role="status" aria-live="polite" aria-busy="true" className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-6 text-sm text-slate-500">
      <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
      {label ?? t("loading")}
    </div>
  );
}

/** Nothing to show, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-10 text-center">
      <p className="text-sm font-medium text-slate-900">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-500">{children}</div> : null}
    </div>
  );
}

/** A failure the user can act on: what went wrong, and a retry when there is one. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const t = useTranslations("common");
  return (
    <div role="alert" className="flex items-center justify-between gap-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <span>{message}</span>
      {onRetry ? (
        <button type="button" onClick={onRetry} className="rounded-md border border-red-300 bg-white px-3 py-1 font-medium text-red-800 hover:bg-red-100">
          {t("tryAgain")}
        </button>
      ) : null}
    </div>
  );
}

/** A short confirmation after an action ("Saved."). */
export function Notice({ children, tone = "success" }: { children: ReactNode; tone?: "success" | "warning" }) {
  const colours = tone === "success" ? "border-emerald-200 bg-emerald-50 text-emerald-800" : "border-amber-200 bg-amber-50 text-amber-900";
  return (
    <p role="status" className={`rounded-md border px-3 py-2 text-sm ${colours}`}>
      {children}
    </p>
  );
}
