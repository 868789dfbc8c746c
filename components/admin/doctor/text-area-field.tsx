"use client";

import { useId, type TextareaHTMLAttributes } from "react";

/** A labelled multi-line input with the server's (or the form's) messages for it under it. */
export function TextAreaField({ label, errors, hint, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; errors?: string[]; hint?: string }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, errors?.length ? `${id}-errors` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={described}
        {...props}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-errors`} className="mt-1 text-xs text-red-700">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
