"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PrescriberForm } from "./prescriber-form";

/** One doctor of the organisation: who they are, and the prescriber details their prescriptions name (the form). */
export function DoctorDetail({ doctorUid }: { doctorUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.doctors.detail");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const doctor = useQuery(trpc.admin.doctors.get.queryOptions({ doctorUid }));
  const [saved, setSaved] = useState(false);
  const change = useMutation(
    trpc.admin.doctors.changePrescriberDetails.mutationOptions({
      onSuccess: (result) => {
        setSaved(true);
        queryClient.setQueryData(trpc.admin.doctors.get.queryKey({ doctorUid }), result);
      },
    }),
  );

  if (doctor.isPending) return <LoadingState label={t("loading")} />;
  if (doctor.isError) {
    const notFound = doctor.error instanceof TRPCClientError && (doctor.error.data as { code?: string } | undefined)?.code === "NOT_FOUND";
    return <ErrorState message={notFound ? t("notFound") : errorMessage(doctor.error)} onRetry={notFound ? undefined : () => void doctor.refetch()} />;
  }
  const d = doctor.data;

  return (
    <div className="min-w-0 space-y-6">
      <p className="text-sm">
        <Link prefetch={false} href="/admin/users" className="text-brand-700 hover:text-brand-800">
          ← {t("users")}
        </Link>
      </p>
      <section aria-labelledby="doctor-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="doctor-heading" className="text-lg font-semibold break-words text-slate-900">
          {d.name}
        </h2>
        <p className="text-xs break-words text-slate-500">
          <span className="font-mono break-all">{d.uid}</span>
          {" · "}
          {d.email ?? t("noEmail")}
          {" · "}
          {d.canSignQes ? t("signsQes") : t("noQes")}
          {" · "}
          {d.user ? t("user", { email: d.user.email }) : t("noUser")}
        </p>
        <div className="mt-6">
          {saved ? (
            <div className="mb-4">
              <Notice>{t("saved")}</Notice>
            </div>
          ) : null}
          <PrescriberForm
            initial={d.prescriber}
            doctorEmail={d.email}
            onSubmit={(details) => {
              setSaved(false);
              return change.mutateAsync({ doctorUid, ...details });
            }}
          />
        </div>
      </section>
    </div>
  );
}
