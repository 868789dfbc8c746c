"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useTranslations } from "next-intl";
import { Suspense } from "react";
import { useFormat } from "@/components/ui/format";
import { PdfView } from "@/components/orders/pdf-view";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useStatusLabel, useSystemNote } from "@/components/ui/status";
import { StatusBadge } from "@/components/ui/status-badge";
import { Decision } from "./decision";
import { DosageEditor } from "./dosage-editor";
import { useDay } from "./format";

// survey-core is large and only a request with an anamnesis needs it: loaded on demand, in the browser.
const AnamnesisSurvey = dynamic(() => import("./anamnesis-survey"), {
  ssr: false,
  loading: () => <AnswersLoading />,
});

function AnswersLoading() {
  return <LoadingState label={useTranslations("doctor.request")("loadingAnswers")} />;
}

/** A refusal as this page says it: a request another doctor took is "not found" to this one. */
function useRequestError() {
  const errorMessage = useErrorMessage();
  const t = useTranslations("doctor.request");
  return (error: unknown): string =>
    error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND" ? t("notFound") : errorMessage(error);
}

/** One prescription request: the patient, the items, the anamnesis answers, the PDF, and the doctor's decision. */
export function DoctorRequestDetail({ uid }: { uid: string }) {
  const t = useTranslations("doctor.request");
  const requestError = useRequestError();
  const day = useDay();
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const systemNote = useSystemNote();
  const trpc = useTRPC();
  const request = useQuery(trpc.doctor.requests.get.queryOptions({ prescriptionUid: uid }));
  if (request.isPending) return <LoadingState label={t("loading")} />;
  if (request.isError) return <ErrorState message={requestError(request.error)} onRetry={() => void request.refetch()} />;
  const r = request.data;
  // Several items may share one anamnesis: each is shown once.
  const anamneses = [...new Map(r.items.flatMap((item) => (item.anamnesis ? [[item.anamnesis.uid, item.anamnesis] as const] : []))).values()];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <Link prefetch={false} href="/admin/doctor" className="font-medium text-brand-800 hover:underline">
          ← {t("all")}
        </Link>
        <span aria-hidden>·</span>
        <StatusBadge kind="prescription" status={r.status} />
        <span>{t("requested", { when: format.dateTime(r.createdAt) })}</span>
        {r.order ? <span>· {t("order", { order: r.order.name })}</span> : null}
        {r.doctor ? <span>· {r.doctor.isMe ? t("assignedToYou") : t("assignedTo", { name: r.doctor.name })}</span> : null}
      </div>

      <Decision request={r} hasAnamnesis={anamneses.length > 0} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={t("patient")}>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-500">{t("name")}</dt>
            <dd className="font-medium text-slate-900">{r.patient.name}</dd>
            <dt className="text-slate-500">{t("dateOfBirth")}</dt>
            <dd className="text-slate-900">{day(r.patient.dateOfBirth)}</dd>
            {r.patient.email ? (
              <>
                <dt className="text-slate-500">{t("email")}</dt>
                <dd className="text-slate-900">{r.patient.email}</dd>
              </>
            ) : null}
            {r.patient.fields.map((field) => (
              <FieldRow key={field.key} label={field.label} value={field.value} />
            ))}
          </dl>
        </Card>

        <DosageEditor request={r} />
      </div>

      <Card title={t("anamnesis")}>
        {anamneses.length === 0 ? (
          <EmptyState title={t("noAnamnesis")}>{t("noAnamnesisHint")}</EmptyState>
        ) : (
          <div className="space-y-4">
            {anamneses.map((a) => (
              <div key={a.uid}>
                <p className="mb-2 text-sm text-slate-600">
                  {a.status === "COMPLETED"
                    ? t("anamnesisCompleted", { name: a.questionnaire.name, when: format.dateTime(a.completedAt) })
                    : t("anamnesisStatus", { name: a.questionnaire.name, status: statusLabel("questionnaireResponse", a.status) })}
                </p>
                <AnamnesisSurvey model={a.questionnaire.model} answers={a.answers} texts={{ noQuestions: t("noQuestions"), notAnswered: t("notAnswered") }} />
              </div>
            ))}
          </div>
        )}
      </Card>

      <Card title={r.signedAt ? t("signedPrescription") : t("preview")}>
        {/* Its own boundary: the viewer's module arriving must not hide the page behind the portal's fallback. */}
        <Suspense fallback={<LoadingState />}>
          <PrescriptionFile uid={r.uid} />
        </Suspense>
      </Card>

      <Card title={t("history")}>
        <ol className="space-y-2 text-sm">
          {r.history.map((h, index) => (
            <li key={index} className="flex flex-wrap gap-x-3">
              <span className="whitespace-nowrap text-slate-500">{format.dateTime(h.at)}</span>
              <span className="text-slate-900">{statusLabel("prescription", h.to)}</span>
              {h.note ? <span className="text-slate-600">{t("quoted", { note: systemNote("prescription", h.note) })}</span> : null}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </>
  );
}

function PrescriptionFile({ uid }: { uid: string }) {
  const t = useTranslations("doctor.request");
  const requestError = useRequestError();
  const trpc = useTRPC();
  // Read again after a decision (the decision invalidates every doctorRequests query): the signed copy replaces the preview.
  const file = useQuery(trpc.doctor.requests.pdf.queryOptions({ prescriptionUid: uid }, { refetchOnWindowFocus: false }));
  if (file.isPending) return <LoadingState label={t("loadingPdf")} />;
  if (file.isError) return <ErrorState message={requestError(file.error)} onRetry={() => void file.refetch()} />;
  return <PdfView filename={file.data.filename} contentBase64={file.data.contentBase64} />;
}

