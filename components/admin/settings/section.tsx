"use client";

import type { ComponentProps, ReactNode } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";

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

/** A settings row's actions: edit it (in the card above the list), and remove it after a confirmation. */
export function EditAndRemove({
  edit,
  onEdit,
  remove,
}: {
  edit: { label: string; text: string };
  onEdit: () => void;
  remove: Omit<ComponentProps<typeof ConfirmButton>, "children"> & { text: string };
}) {
  const { text, ...confirm } = remove;
  return (
    <div className="flex gap-2 md:justify-end">
      <Button tone="secondary" aria-label={edit.label} onClick={onEdit}>
        {edit.text}
      </Button>
      <ConfirmButton {...confirm}>{text}</ConfirmButton>
    </div>
  );
}
