"use client";

import { useActionState } from "react";
import { ErrorState } from "@/components/ui/states";
import { confirmCheckout, type ConfirmState } from "./actions";

/** The confirm button, busy while the order is placed, with the refusal when there is one. */
export function ConfirmForm({ token, total }: { token: string; total: string }) {
  const [state, action, pending] = useActionState<ConfirmState>(confirmCheckout.bind(null, token), { error: null });
  return (
    <form action={action} className="space-y-3">
      {state.error ? <ErrorState message={state.error} /> : null}
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-100 disabled:cursor-not-allowed disabled:bg-slate-300"
      >
        {pending ? (
          <>
            <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
            Placing your order…
          </>
        ) : (
          `Confirm order · ${total}`
        )}
      </button>
      <p className="text-center text-xs text-slate-500">By confirming, the order goes to a pharmacy of the shop with your prescriptions.</p>
    </form>
  );
}
