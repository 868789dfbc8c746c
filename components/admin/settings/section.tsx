"use client";

import type { ComponentProps, FormEventHandler, ReactNode } from "react";
import type { FieldValues } from "react-hook-form";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { FormError, SubmitOrCancel, type AnyForm } from "@/components/ui/form";

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

/** The card a settings row is changed in (above the list): its inputs, Save and Cancel, the form's error. */
export function EditCard<V extends FieldValues>({
  form,
  onSubmit,
  label,
  heading,
  saveText,
  onCancel,
  children,
}: {
  form: AnyForm<V>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  label: string;
  heading: string;
  saveText: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label} className={`${cardClass} bg-slate-50`}>
      <h3 className="text-sm font-semibold text-slate-900">{heading}</h3>
      <div className="mt-4 grid items-start gap-4 sm:grid-cols-3">{children}</div>
      <div className="mt-4">
        <SubmitOrCancel form={form} onCancel={onCancel}>
          {saveText}
        </SubmitOrCancel>
      </div>
      <FormError form={form} />
    </form>
  );
}
