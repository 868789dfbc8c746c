"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useMemo, type ComponentProps, type InputHTMLAttributes, type ReactNode } from "react";
import { get, useForm, type DefaultValues, type FieldError, type FieldPath, type FieldValues, type Resolver, type UseFormReturn } from "react-hook-form";
import { useTranslations } from "next-intl";
import type { z } from "zod";
import { failureOf, serverFieldErrors, type Fallback } from "@/components/trpc/errors";
import { zodErrorMap } from "@/server/wire/zod-messages";
import { Button } from "./controls";
import { ErrorState } from "./states";

/** The look of a form control (input, select, textarea), for controls given to `Field` as children. */
export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-400 disabled:bg-slate-100";

/**
 * Zod's messages in the page's language, with the server's wording (server/wire/zod-messages.ts):
 * for every check in the browser (`schema.safeParse(value, { error })`; the form kit's resolver).
 */
export function useZodErrorMap(): z.core.$ZodErrorMap {
  const t = useTranslations("errors");
  return useMemo(() => zodErrorMap((key, values) => t(key, values)), [t]);
}

/**
 * A form over a tRPC input schema (the `*.schemas.ts` beside the router): the same zod schema checks
 * the fields in the browser before anything is sent, and the server's answer goes through
 * `showServerErrors`. Submit handlers get the schema's parsed output.
 */
export function useZodForm<Schema extends z.ZodType<unknown, FieldValues>>(schema: Schema, defaultValues: DefaultValues<z.input<Schema>>) {
  const error = useZodErrorMap();
  const resolver = zodResolver(schema as z.ZodType<FieldValues, FieldValues>, { error }) as unknown as Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({ resolver, defaultValues });
}

/** The key under which the form-level message of a refusal is kept. */
const SERVER = "root.server" as const;

/** A form of any values, as the parts below take it (the submit output type does not matter to them). */
export type AnyForm<Values extends FieldValues = FieldValues> = UseFormReturn<Values, unknown, any>;

/**
 * A refused mutation onto its form: each field error (the server reports them under the input's own
 * camelCase path, server/trpc/init.ts) under its field, and the message of a refusal that names no
 * field of this form as the form's error (FormError): the server's message, or the client's fallback
 * by name as the error's type, which FormError words in the page's language.
 */
export function showServerErrors<Values extends FieldValues>(form: AnyForm<Values>, error: unknown) {
  const values = form.getValues();
  let shown = false;
  for (const [path, messages] of Object.entries(serverFieldErrors(error))) {
    if (get(values, path) === undefined) continue;
    form.setError(path as FieldPath<Values>, { type: "server", message: messages.join(" ") }, { shouldFocus: !shown });
    shown = true;
  }
  if (shown) return;
  const failure = failureOf(error);
  form.setError(SERVER, "message" in failure ? { type: "server", message: failure.message } : { type: failure.fallback });
}

/**
 * A kit form's submit handler that sends the parsed values through `action` (a mutation's
 * mutateAsync): a refusal goes onto the form (showServerErrors), success to `then`.
 */
export function submitWith<In extends FieldValues, Out, Result>(
  form: UseFormReturn<In, unknown, Out>,
  action: (values: Out) => Promise<Result>,
  then?: (result: Result, values: Out) => unknown,
) {
  return form.handleSubmit(async (values) => {
    let result: Result;
    try {
      result = await action(values);
    } catch (error) {
      showServerErrors(form, error);
      return;
    }
    await then?.(result, values);
  });
}

/** The attributes that tie a control to its label, hint and error. */
export type FieldControl = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled field of a form: the label, the control (a text input registered under `name`, or
 * `children(control)` for another control, given the ids and aria attributes to spread), a hint,
 * and its error (client or server) with `aria-invalid` and `aria-describedby`.
 */
export function Field<Values extends FieldValues>({
  form,
  name,
  label,
  hint,
  children,
  ...inputProps
}: {
  form: AnyForm<Values>;
  name: FieldPath<Values>;
  label: string;
  hint?: ReactNode;
  children?: (control: FieldControl) => ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "form" | "name" | "children">) {
  const id = useId();
  const message = (get(form.formState.errors, name) as FieldError | undefined)?.message;
  const described = [hint ? `${id}-hint` : null, message ? `${id}-error` : null].filter(Boolean).join(" ");
  const control: FieldControl = { id, ...(message ? { "aria-invalid": true } : {}), ...(described ? { "aria-describedby": described } : {}) };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children ? children(control) : <input {...inputProps} {...form.register(name)} {...control} className={inputClass} />}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level message of a refusal that names no field (showServerErrors). */
export function FormError<Values extends FieldValues>({ form }: { form: AnyForm<Values> }) {
  const t = useTranslations("errors.client");
  const error = form.formState.errors.root?.server;
  if (!error) return null;
  return <ErrorState message={error.message || t(error.type as Fallback)} />;
}

/** The form's submit button: disabled while the form submits, its accessible name unchanged. */
export function SubmitButton<Values extends FieldValues>({
  form,
  children,
  ...props
}: { form: AnyForm<Values> } & Omit<ComponentProps<typeof Button>, "form" | "type">) {
  const submitting = form.formState.isSubmitting;
  return (
    <Button type="submit" disabled={submitting} aria-busy={submitting || undefined} {...props}>
      {children}
    </Button>
  );
}

/** A form's submit button beside its Cancel (which closes the form, nothing sent). */
export function SubmitOrCancel<Values extends FieldValues>({
  form,
  children,
  onCancel,
  ...props
}: { form: AnyForm<Values>; onCancel: () => void } & Omit<ComponentProps<typeof Button>, "form" | "type">) {
  const t = useTranslations("common");
  return (
    <div className="flex flex-wrap gap-2">
      <SubmitButton form={form} {...props}>
        {children}
      </SubmitButton>
      <Button tone="secondary" onClick={onCancel}>
        {t("cancel")}
      </Button>
    </div>
  );
}
