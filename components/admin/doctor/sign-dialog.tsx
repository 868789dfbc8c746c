"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextField } from "@/components/ui/controls";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";

type Authorisation = { otp?: string; pin?: string };

/**
 * The one confirmation before a doctor signs: what is signed (`children`), and outside the sandbox
 * with which credential at which trust service, and the doctor's own factor for this one signature
 * (the one-time password or PIN their credential asks for). The factor is sent once with the sign
 * call and forgotten: it is cleared after every attempt (a refused one-time password is used up).
 * Without a trust service or a linked credential, it says so and cannot confirm.
 */
export function SignDialog({
  open,
  title,
  onSign,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onSign: (authorisation: Authorisation) => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
}) {
  const t = useTranslations("doctor.decision");
  const trpc = useTRPC();
  const errorMessage = useErrorMessage();
  const status = useQuery({ ...trpc.doctor.signing.status.queryOptions(), enabled: open });
  const [values, setValues] = useState<Authorisation>({});
  const [missing, setMissing] = useState<string[]>([]);
  const data = status.data;
  const factors = data && !data.sandbox ? (data.credential?.authFactors ?? []) : [];
  const cannotSign = !data || (!data.sandbox && (!data.trustService || !data.credential));

  const confirm = async () => {
    const empty = factors.filter((f) => !(f === "OTP" ? values.otp : values.pin)?.trim());
    setMissing(empty);
    if (empty.length > 0) return false;
    try {
      return await onSign(factors.length > 0 ? values : {});
    } finally {
      setValues({});
    }
  };
  const close = () => {
    setValues({});
    setMissing([]);
    onClose();
  };

  return (
    <ConfirmDialog open={open} title={title} confirmLabel={t("signWithQes")} pendingLabel={t("signing")} tone="primary" confirmDisabled={cannotSign} onConfirm={confirm} onClose={close}>
      {children}
      {status.isPending ? <LoadingState label={t("loadingSigning")} /> : null}
      {status.isError ? <ErrorState message={errorMessage(status.error)} onRetry={() => void status.refetch()} /> : null}
      {data && !data.sandbox && !data.trustService ? <Notice tone="warning">{t("noTrustService")}</Notice> : null}
      {data && !data.sandbox && data.trustService && !data.credential ? (
        <Notice tone="warning">
          {t("noCredential")}{" "}
          <Link prefetch={false} href="/admin/doctor/signature" className="font-medium underline">
            {t("linkCredential")}
          </Link>
        </Notice>
      ) : null}
      {data && !data.sandbox && data.trustService && data.credential ? (
        <>
          <p>{t("signRemote", { service: data.trustService.name, subject: data.credential.subjectName })}</p>
          {factors.includes("OTP") ? (
            <TextField
              label={t("otp")}
              hint={t("otpHint", { service: data.trustService.name })}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={64}
              value={values.otp ?? ""}
              onChange={(e) => setValues((v) => ({ ...v, otp: e.target.value }))}
              errors={missing.includes("OTP") ? [t("otpMissing")] : undefined}
            />
          ) : null}
          {factors.includes("PIN") ? (
            <TextField
              label={t("pin")}
              hint={t("pinHint", { service: data.trustService.name })}
              type="password"
              autoComplete="off"
              maxLength={64}
              value={values.pin ?? ""}
              onChange={(e) => setValues((v) => ({ ...v, pin: e.target.value }))}
              errors={missing.includes("PIN") ? [t("pinMissing")] : undefined}
            />
          ) : null}
        </>
      ) : null}
    </ConfirmDialog>
  );
}
