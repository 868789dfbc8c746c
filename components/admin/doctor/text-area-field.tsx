"use client";

import type { TextareaHTMLAttributes } from "react";

/** A multi-line control for a kit `Field` (its id and aria attributes spread in), in the inputs' look. */
export function TextAreaControl(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      rows={3}
      {...props}
      className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-400"
    />
  );
}
