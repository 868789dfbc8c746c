"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { SignInForm } from "@/components/sign-in-form";
import { TextField, Button } from "@/components/ui/controls";
import { ErrorState, Notice } from "@/components/ui/states";
import { useErrorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PASSWORD_MIN_LENGTH } from "@/server/auth/password-policy";

/** Choosing a password through a one-time link (invitation or reset); then signing in right here. */
export function SetPasswordForm({ token, purpose, email }: { token: string; purpose: "INVITATION" | "PASSWORD_RESET"; email: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("passwordLink");
  const trpc = useTRPC();
  const [mismatch, setMismatch] = useState(false);
  const set = useMutation(trpc.passwordLinks.setPassword.mutationOptions());

  if (set.isSuccess) {
    return (
      <div className="space-y-5">
        <Notice>{t("done")}</Notice>
        <SignInForm defaultEmail={set.data.email} />
      </div>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const confirmPassword = String(form.get("confirmPassword") ?? "");
    setMismatch(password !== confirmPassword);
    if (password !== confirmPassword) return;
    set.mutate({ token, purpose, password, confirmPassword });
  }

  const linkProblem = fieldErrors(set.error, "token");
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-5" noValidate>
      <p className="text-sm text-slate-600">
        {t.rich("forEmail", { email, b: (chunks) => <span className="font-medium text-slate-900">{chunks}</span> })}
      </p>
      {linkProblem ? <ErrorState message={linkProblem.join(" ")} /> : null}
      <TextField
        label={t("newPassword")}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        autoFocus
        hint={t("hint", { min: PASSWORD_MIN_LENGTH })}
        errors={fieldErrors(set.error, "password")}
      />
      <TextField
        label={t("confirmPassword")}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        errors={mismatch ? [t("mismatch")] : fieldErrors(set.error, "confirmPassword")}
      />
      {set.error && !set.error.data?.fieldErrors ? <ErrorState message={errorMessage(set.error)} /> : null}
      <Button type="submit" disabled={set.isPending} className="w-full">
        {set.isPending ? t("saving") : t("submit")}
      </Button>
    </form>
  );
}
