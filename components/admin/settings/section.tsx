import type { ReactNode } from "react";

/** One settings area: a heading people and screen readers navigate by, what it does, its controls. */
export function SettingsSection({ id, title, description, children }: { id: string; title: string; description: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">{description}</p>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

export const cardClass = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";
