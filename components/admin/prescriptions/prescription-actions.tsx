"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { z } from "zod";
import { PdfView } from "@/components/orders/pdf-view";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { Card } from "@/components/ui/card";
import { Field, FormError, SubmitButton, showServerErrors, useZodForm } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { SIGNED_PDF_MAX_BYTES } from "@/server/trpc/routers/admin-prescriptions.schemas";
import type { Prescription } from "./prescription-detail";

export const SIGNED = ["signed", "NON_QES_SIGNED", "EXTERNALLY_SIGNED"];

/** The prescription's PDF (signed or the latest rendering), or what to do when there is none. */
export function PrescriptionPdf({ uid }: { uid: string }) {
  const t = useTranslations("admin.prescriptions.detail");
  const trpc = useTRPC();
  const file = useQuery(trpc.admin.prescriptions.pdf.queryOptions({ uid }, { refetchOnWindowFocus: false }));
  return (
    <QueryView query={file} loadingLabel={t("loadingPdf")} isEmpty={(data) => !data} empty={<EmptyState title={t("noPdf")}>{t("noPdfHint")}</EmptyState>}>
      {(data) => <PdfView filename={data!.filename} contentBase64={data!.contentBase64} />}
    </QueryView>
  );
}

/** The file's bytes as base64 (what the procedure takes). */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Render the PDF, or record a signature made outside the service (asked once: it sends the prescription on). */
export function PrescriptionActions({ prescription, onRenderRequested, awaitingRender }: { prescription: Prescription; onRenderRequested: () => void; awaitingRender: boolean }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.prescriptions.actions");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const uid = prescription.uid;
  const render = useMutation(trpc.admin.prescriptions.render.mutationOptions({ onSuccess: onRenderRequested }));
  const signed = SIGNED.includes(prescription.status);

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title={t("render")}>
        <p className="text-sm text-slate-600">{signed ? t("neverAgain") : prescription.rendered ? t("renderAgain") : t("renderIntro")}</p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <Button tone="secondary" disabled={render.isPending || awaitingRender || signed} onClick={() => render.mutate({ uid })}>
            {render.isPending || awaitingRender ? t("rendering") : t("renderPdf")}
          </Button>
          {render.isSuccess && !awaitingRender ? <Notice>{t("rendered")}</Notice> : null}
        </div>
        {render.isError ? (
          <div className="mt-3">
            <ErrorState message={errorMessage(render.error)} />
          </div>
        ) : null}
      </Card>
      <Card title={t("signExternally")}>
        {signed ? (
          <p className="text-sm text-slate-600">{prescription.signedAt ? t("signedOn", { date: format.dateTime(prescription.signedAt) }) : t("signedDone")}</p>
        ) : (
          <ExternalSignForm uid={uid} onSigned={() => queryClient.invalidateQueries({ queryKey: trpc.admin.prescriptions.pathKey() })} />
        )}
      </Card>
    </div>
  );
}

function ExternalSignForm({ uid, onSigned }: { uid: string; onSigned: () => Promise<void> }) {
  const t = useTranslations("admin.prescriptions.actions");
  const trpc = useTRPC();
  const sign = useMutation(trpc.admin.prescriptions.externalSign.mutationOptions());
  // The field is named as the procedure's input, so the server's refusal of the file shows under it.
  const schema = useMemo(
    () =>
      z.object({
        signedPdfBase64: z
          .custom<FileList | undefined>()
          .refine((files) => Boolean(files?.length), t("chooseFile"))
          .refine((files) => !files?.[0] || files[0].size <= SIGNED_PDF_MAX_BYTES, t("tooLarge")),
      }),
    [t],
  );
  const form = useZodForm(schema, { signedPdfBase64: undefined });
  const [asking, setAsking] = useState<File | null>(null);
  const [done, setDone] = useState(false);
  const submit = form.handleSubmit(({ signedPdfBase64 }) => setAsking(signedPdfBase64![0]!));
  const confirm = async () => {
    try {
      await sign.mutateAsync({ uid, signedPdfBase64: await readAsBase64(asking!) });
      setDone(true);
      await onSigned();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <>
      <form onSubmit={submit} noValidate className="space-y-3">
        <p className="text-sm text-slate-600">{t("signIntro")}</p>
        <Field form={form} name="signedPdfBase64" label={t("signedPdf")} type="file" accept="application/pdf,.pdf" />
        <FormError form={form} />
        <SubmitButton form={form} disabled={sign.isPending}>
          {sign.isPending ? t("recording") : t("record")}
        </SubmitButton>
      </form>
      {done ? (
        <div className="mt-3">
          <Notice>{t("recorded")}</Notice>
        </div>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        title={t("confirmTitle")}
        confirmLabel={t("confirm")}
        pendingLabel={t("recording")}
        tone="primary"
        onConfirm={confirm}
        onClose={() => setAsking(null)}
      >
        <p>{t("confirmConsequence", { file: asking?.name ?? "" })}</p>
      </ConfirmDialog>
    </>
  );
}
