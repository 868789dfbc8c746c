"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { Button } from "./controls";

type Tone = "primary" | "danger";

export type ConfirmDialogProps = {
  open: boolean;
  /** The heading and the dialog's accessible name: the action, asked ("Revoke “CI key”?"). */
  title: string;
  /** The confirm button's name, for the action ("Confirm revoke", "Sign with QES"). */
  confirmLabel: string;
  /** Shown on the confirm button while the action runs ("Revoking…"). */
  pendingLabel?: string;
  tone?: Tone;
  /** The action cannot be taken now (the dialog says why); Cancel still closes it. */
  confirmDisabled?: boolean;
  /**
   * The action. A promise keeps the dialog open while it runs and shows its failure in the dialog
   * (mutateAsync); one that resolves to `false` keeps it open without a message (a form inside the
   * dialog shows why: a reason missing). Anything else closes the dialog at once (the caller shows
   * progress and errors).
   */
  onConfirm: () => unknown;
  /** The dialog closes: cancelled (button, Escape) or the action done. */
  onClose: () => void;
  /** What the action means: its consequence in words. */
  children: ReactNode;
};

/**
 * The one confirmation of the portals for actions that cannot be undone or change money, stock, a
 * prescription or a key. A native modal <dialog>: the browser keeps focus inside it and makes the
 * page behind it inert; Escape cancels; focus starts on "Cancel" (the safe choice) and returns to
 * the button that opened it. Asks once: the confirm button runs the action.
 */
export function ConfirmDialog({ open, title, confirmLabel, pendingLabel, tone = "danger", confirmDisabled = false, onConfirm, onClose, children }: ConfirmDialogProps) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("common");
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setError(null);
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);

  const confirm = async () => {
    const outcome = onConfirm();
    if (!(outcome instanceof Promise)) return onClose();
    setPending(true);
    setError(null);
    try {
      if ((await outcome) !== false) onClose();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // Escape (or the browser closing it otherwise) is a cancel: the caller's state follows.
      onClose={() => open && onClose()}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-5 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      {open ? (
        <div className="space-y-4">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <div id={bodyId} className="space-y-2 text-sm text-slate-700">
            {children}
          </div>
          {error ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button ref={cancel} tone="secondary" disabled={pending} onClick={onClose}>
              {t("cancel")}
            </Button>
            <Button tone={tone} disabled={pending || confirmDisabled} onClick={() => void confirm()}>
              {pending ? (pendingLabel ?? confirmLabel) : confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

/** A button that opens a ConfirmDialog: the usual shape of a harmful action in a list or a card. */
export function ConfirmButton({
  children,
  buttonLabel,
  buttonTone = "danger",
  disabled,
  className,
  ...dialog
}: Omit<ConfirmDialogProps, "open" | "onClose"> & {
  /** The button's visible text. */
  children: ReactNode;
  /** The button's accessible name when the visible text alone is ambiguous ("Revoke CI key"). */
  buttonLabel?: string;
  buttonTone?: "primary" | "secondary" | "danger";
  disabled?: boolean;
  className?: string;
  /** The consequence, shown in the dialog. */
  consequence: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { consequence, ...rest } = dialog;
  return (
    <>
      <Button tone={buttonTone} aria-label={buttonLabel} disabled={disabled} className={className} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <ConfirmDialog {...rest} open={open} onClose={() => setOpen(false)}>
        {consequence}
      </ConfirmDialog>
    </>
  );
}
