"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect, useState, type FormEvent } from "react";
import { useFormat } from "@/components/ui/format";
import { PdfView } from "@/components/orders/pdf-view";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, TextField } from "@/components/ui/controls";
import { Card, DetailRow } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { SIGNED_PDF_MAX_BYTES } from "@/server/trpc/routers/admin-prescriptions.schemas";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { SOURCE_LABELS } from "./format";

type Prescription = inferRouterOutputs<AppRouter>["admin"]["prescriptions"]["get"];

/** While a requested rendering is under way, the prescription is read again this often. */
const RENDER_POLL_MS = 2_000;
const SIGNED = ["signed", "NON_QES_SIGNED", "EXTERNALLY_SIGNED"];

/** One prescription: who and what, its history, its PDF, and render / external sign. */
export function PrescriptionDetail({ uid }: { uid: string }) {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [awaitingRender, setAwaitingRender] = useState(false);
  const prescription = useQuery({
    ...trpc.admin.prescriptions.get.queryOptions({ uid }),
    refetchInterval: (query) => (awaitingRender && !query.state.data?.rendered ? RENDER_POLL_MS : false),
  });
  const rendered = prescription.data?.rendered;
  useEffect(() => {
    if (awaitingRender && rendered) {
      setAwaitingRender(false);
      void queryClient.invalidateQueries({ queryKey: trpc.admin.prescriptions.pdf.queryKey({ uid }) });
    }
  }, [awaitingRender, rendered, queryClient, trpc, uid]);

  if (prescription.isPending) return <LoadingState label="Loading the prescription…" />;
  if (prescription.isError) {
    return prescription.error.data?.code === "NOT_FOUND" ? (
      <EmptyState title="Prescription not found">
        It does not exist, or it is not one of your organisation&apos;s. <Link href="/admin/prescriptions" className="text-brand-700 hover:underline">All prescriptions</Link>
      </EmptyState>
    ) : (
      <ErrorState message={errorMessage(prescription.error)} onRetry={() => void prescription.refetch()} />
    );
  }
  const p = prescription.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <Link href="/admin/prescriptions" className="text-brand-700 hover:underline">
          ← All prescriptions
        </Link>
        <StatusBadge kind="prescription" status={p.status} />
        <span>{SOURCE_LABELS[p.source] ?? p.source}</span>
        <span>Created {format.dateTime(p.createdAt)}</span>
        {p.signedAt ? <span>Signed {format.dateTime(p.signedAt)}</span> : null}
        <span className="font-mono text-xs text-slate-400">{p.uid}</span>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Patient">
          <dl className="space-y-1 text-sm">
            <DetailRow label="Name">{p.patient.name}</DetailRow>
            <DetailRow label="Email">{p.patient.email ?? "—"}</DetailRow>
            <DetailRow label="Date of birth">{p.patient.dateOfBirth ?? "—"}</DetailRow>
          </dl>
        </Card>
        <Card title="Doctor">
          <p className="text-sm text-slate-800">{p.doctor?.name ?? "Not assigned yet"}</p>
        </Card>
        <Card title="Order">
          {p.order ? (
            <dl className="space-y-1 text-sm">
              <DetailRow label="Order">
                <Link href={`/admin/orders/${p.order.uid}`} className="text-brand-700 hover:underline">
                  {p.order.name}
                </Link>
              </DetailRow>
              <DetailRow label="Status"><StatusBadge kind="order" status={p.order.status} /></DetailRow>
            </dl>
          ) : (
            <p className="text-sm text-slate-600">No order.</p>
          )}
        </Card>
      </div>
      <Lines prescription={p} />
      <Actions prescription={p} onRenderRequested={() => setAwaitingRender(true)} awaitingRender={awaitingRender} />
      <Card title={SIGNED.includes(p.status) ? "Signed PDF" : "Rendered PDF"}>
        <Pdf uid={uid} />
      </Card>
      <History prescription={p} />
    </div>
  );
}

function Lines({ prescription }: { prescription: Prescription }) {
  return (
    <Card title="Lines">
      {prescription.lines.length === 0 ? (
        <EmptyState title="No lines" />
      ) : (
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-2 pr-4">SKU</th>
              <th scope="col" className="py-2 pr-4">PZN</th>
              <th scope="col" className="py-2 pr-4">Quantity</th>
              <th scope="col" className="py-2 pr-4">Dosage</th>
              <th scope="col" className="py-2 pr-4">Anamnesis</th>
            </tr>
          </thead>
          <tbody>
            {prescription.lines.map((l) => (
              <tr key={l.uid} className="border-t border-slate-100">
                <td className="py-2 pr-4 font-medium text-slate-900">{l.sku.displayName}</td>
                <td className="py-2 pr-4 tabular-nums">{l.sku.pzn ?? "—"}</td>
                <td className="py-2 pr-4 tabular-nums">{l.quantity}</td>
                <td className="py-2 pr-4">{l.dosage ?? "—"}</td>
                <td className="py-2 pr-4">{l.anamnesisUid ? <span className="font-mono text-xs">{l.anamnesisUid.slice(0, 8)}</span> : "None"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function History({ prescription }: { prescription: Prescription }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  return (
    <Card title="History">
      <table className="min-w-full text-sm">
        <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4">When</th>
            <th scope="col" className="py-2 pr-4">Change</th>
            <th scope="col" className="py-2 pr-4">Who</th>
            <th scope="col" className="py-2 pr-4">Note</th>
          </tr>
        </thead>
        <tbody>
          {prescription.history.map((h) => (
            <tr key={h.uid} className="border-t border-slate-100 align-top">
              <td className="whitespace-nowrap py-2 pr-4 text-slate-600">{format.dateTime(h.at)}</td>
              <td className="py-2 pr-4">{h.fromStatus ? `${statusLabel("prescription", h.fromStatus)} → ${statusLabel("prescription", h.toStatus)}` : `Created as ${statusLabel("prescription", h.toStatus)}`}</td>
              <td className="py-2 pr-4 text-slate-700">{h.by.type === "SYSTEM" ? "System" : `${h.by.name ?? "Unknown"} (${h.by.type === "USER" ? "user" : "API key"})`}</td>
              <td className="py-2 pr-4 text-slate-700">{h.note ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function Pdf({ uid }: { uid: string }) {
  const trpc = useTRPC();
  const file = useQuery(trpc.admin.prescriptions.pdf.queryOptions({ uid }, { refetchOnWindowFocus: false }));
  if (file.isPending) return <LoadingState label="Loading the PDF…" />;
  if (file.isError) return <ErrorState message={errorMessage(file.error)} onRetry={() => void file.refetch()} />;
  if (!file.data) return <EmptyState title="No PDF yet">Render the prescription to see it here.</EmptyState>;
  return <PdfView filename={file.data.filename} contentBase64={file.data.contentBase64} />;
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

function Actions({ prescription, onRenderRequested, awaitingRender }: { prescription: Prescription; onRenderRequested: () => void; awaitingRender: boolean }) {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const uid = prescription.uid;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.prescriptions.pathKey() });
  const render = useMutation(trpc.admin.prescriptions.render.mutationOptions({ onSuccess: onRenderRequested }));
  const sign = useMutation(trpc.admin.prescriptions.externalSign.mutationOptions({ onSuccess: refresh }));
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const signed = SIGNED.includes(prescription.status);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setFileError("Choose the signed PDF.");
    if (file.size > SIGNED_PDF_MAX_BYTES) return setFileError("The file is larger than 700 KB.");
    setFileError(null);
    sign.mutate({ uid, signedPdfBase64: await readAsBase64(file) });
  }
  const signErrors = fileError ? [fileError] : fieldErrors(sign.error, "signedPdfBase64");

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Render">
        <p className="text-sm text-slate-600">
          {signed
            ? "A signed prescription is never rendered again."
            : prescription.rendered
              ? "The PDF is rendered. Render again after the prescription changed."
              : "Produces the prescription PDF in the background; it appears below when ready."}
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <Button tone="secondary" disabled={render.isPending || awaitingRender || signed} onClick={() => render.mutate({ uid })}>
            {render.isPending || awaitingRender ? "Rendering…" : "Render PDF"}
          </Button>
          {render.isSuccess && !awaitingRender ? <Notice>Rendered.</Notice> : null}
        </div>
        {render.isError ? (
          <div className="mt-3">
            <ErrorState message={errorMessage(render.error)} />
          </div>
        ) : null}
      </Card>
      <Card title="Sign externally">
        {signed ? (
          <p className="text-sm text-slate-600">Signed{prescription.signedAt ? ` on ${format.dateTime(prescription.signedAt)}` : ""}.</p>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-3">
            <p className="text-sm text-slate-600">
              For a prescription without anamnesis, waiting for a doctor, whose rendered PDF was signed outside the service with a qualified signature.
            </p>
            <TextField
              label="Signed PDF"
              type="file"
              accept="application/pdf,.pdf"
              errors={signErrors}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setFileError(null);
              }}
            />
            {sign.error && !signErrors ? <ErrorState message={errorMessage(sign.error)} /> : null}
            <Button type="submit" disabled={sign.isPending}>
              {sign.isPending ? "Recording…" : "Record external signature"}
            </Button>
          </form>
        )}
        {sign.isSuccess ? (
          <div className="mt-3">
            <Notice>Recorded as externally signed; the prescription is on its way to the pharmacy.</Notice>
          </div>
        ) : null}
      </Card>
    </div>
  );
}

