"use client";

import { TRPCClientError } from "@trpc/client";
import type { ReactNode } from "react";
import type { FieldPath, FieldValues } from "react-hook-form";
import { errorReason } from "@/components/trpc/errors";
import { inputClass, showServerErrors, type FieldControl, type AnyForm } from "@/components/ui/form";
import type { PortalOrderDetail } from "@/server/trpc/routers/pharmacy-orders.presenters";

export type Order = PortalOrderDetail;

/** After an action: the page-wide notice (done, or a lost race) and a refetch of the order and its threads. */
export type Settle = (outcome: { ok: true; text: string } | { ok: false; error: unknown }) => Promise<void>;

const codeOf = (error: unknown) => (error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined);
export { isNotFound } from "@/components/trpc/errors";
/** Someone else changed the order meanwhile: nothing was changed, the page shows the order as it is now. */
export const isConflict = (error: unknown) => codeOf(error) === "CONFLICT" || errorReason(error) === "order_changed";

/**
 * Runs an action card's mutation: done → the notice `text(result)`; a lost race → the page-wide
 * notice only; any other refusal → onto the card's form (each field error under its field).
 * True when it was done.
 */
export async function runAction<Values extends FieldValues, Result>(
  form: AnyForm<Values>,
  action: Promise<Result>,
  settle: Settle,
  text: (result: Result) => string,
): Promise<boolean> {
  try {
    const result = await action;
    await settle({ ok: true, text: text(result) });
    return true;
  } catch (error) {
    if (!isConflict(error)) showServerErrors(form, error);
    await settle({ ok: false, error });
    return false;
  }
}

/** A multi-line control of a Field (comments, questions), registered under `name`. */
export function TextArea<Values extends FieldValues>({ form, name, control }: { form: AnyForm<Values>; name: FieldPath<Values>; control: FieldControl }): ReactNode {
  return <textarea rows={3} maxLength={5000} {...form.register(name)} {...control} className={inputClass} />;
}
