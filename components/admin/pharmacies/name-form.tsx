"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { text } from "@/server/wire/schemas";

/** The one field the group, shop and shipping method renames send (their schemas' displayName). */
const nameForm = z.object({ displayName: text(200) });

/**
 * A name to save on its own (renaming a group, a shop or a shipping method, creating a group):
 * the field, Save (or `submitLabel`) and, when editing, Cancel; a refusal shows under the field.
 */
export function NameForm({
  label,
  initial = "",
  submitLabel,
  submitTone,
  onSubmit,
  onCancel,
  className = "flex flex-wrap items-end gap-3",
  hint,
}: {
  label: string;
  initial?: string;
  submitLabel?: string;
  submitTone?: "primary" | "secondary";
  /** Saves the name; rejects with the server's refusal. */
  onSubmit: (displayName: string) => Promise<unknown>;
  onCancel?: () => void;
  className?: string;
  hint?: ReactNode;
}) {
  const t = useTranslations("admin.pharmacies");
  const form = useZodForm(nameForm, { displayName: initial });
  const submit = submitWith(
    form,
    ({ displayName }) => onSubmit(displayName),
    (_, { displayName }) => form.reset({ displayName: onCancel ? displayName : "" }),
  );
  return (
    <form noValidate onSubmit={submit} className={className}>
      <div className="w-full max-w-72">
        <Field form={form} name="displayName" label={label} hint={hint} />
      </div>
      <SubmitButton form={form} tone={submitTone}>
        {submitLabel ?? t("save")}
      </SubmitButton>
      {onCancel ? (
        <Button tone="secondary" onClick={onCancel}>
          {t("cancel")}
        </Button>
      ) : null}
      <div className="w-full empty:hidden">
        <FormError form={form} />
      </div>
    </form>
  );
}
