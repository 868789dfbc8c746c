import type { ReactNode } from "react";

/**
 * A card of a detail page with its heading (h2, or h3 under a page that already has h2s). No
 * accessible name of its own, so a control inside may be named by its own label alone.
 */
export function Card({ title, level = 2, children }: { title: string; level?: 2 | 3; children: ReactNode }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <Heading className="mb-3 text-sm font-semibold text-slate-900">{title}</Heading>
      {children}
    </section>
  );
}

/** One label and value of a card's description list (`<dl>`), side by side. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right text-slate-900">{children}</dd>
    </div>
  );
}
