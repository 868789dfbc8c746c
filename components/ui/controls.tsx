"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type ComponentProps, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 disabled:bg-slate-100";

type Tone = "primary" | "secondary" | "danger";
const toneClass: Record<Tone, string> = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-300",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
  danger: "border border-red-300 bg-white text-red-700 hover:bg-red-50 disabled:text-slate-400",
};

/** A button (type="button" unless told); its ref reaches the <button> (React 19 passes ref as a prop). */
export function Button({ tone = "primary", className = "", ...props }: ComponentProps<"button"> & { tone?: Tone }) {
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-100 disabled:cursor-not-allowed ${toneClass[tone]} ${className}`}
    />
  );
}

/** The server's messages for one field (a tRPC error's data.fieldErrors[field]), shown under it. */
function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-700">
      {errors.join(" ")}
    </p>
  );
}

/** A label, the control it names, an optional hint and the server's messages for it. */
function Field({ id, label, errors, hint, children }: { id: string; label: string; errors?: string[]; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}

/** The attributes that tie a control to its errors for screen readers. */
const invalidity = (id: string, errors?: string[]) =>
  errors?.length ? { "aria-invalid": true, "aria-describedby": `${id}-errors` } : {};

/** A labelled text input with its errors; the label names the input for people and tests alike. */
export function TextField({ label, errors, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; errors?: string[]; hint?: ReactNode }) {
  const id = useId();
  return (
    <Field id={id} label={label} errors={errors} hint={hint}>
      <input id={id} {...invalidity(id, errors)} {...props} className={`mt-1 ${inputClass}`} />
    </Field>
  );
}

export function SelectField({ label, errors, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; errors?: string[] }) {
  const id = useId();
  return (
    <Field id={id} label={label} errors={errors}>
      <select id={id} {...invalidity(id, errors)} {...props} className={`mt-1 ${inputClass}`}>
        {children}
      </select>
    </Field>
  );
}

/** A secret shown once (an API key, a webhook secret): read-only, selectable, with a copy button. */
export function SecretBox({ label, value, note }: { label: string; value: string; note?: ReactNode }) {
  const t = useTranslations("common.secret");
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-lg border border-amber-200 bg-amber-50 p-4">
      <label htmlFor={id} className="block text-sm font-medium text-amber-900">
        {label}
      </label>
      <div className="mt-2 flex gap-2">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} font-mono`} />
        <Button
          tone="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? t("copied") : t("copy")}
        </Button>
      </div>
      <p className="mt-2 text-xs text-amber-900">{note ?? t("shownOnce")}</p>
    </div>
  );
}
