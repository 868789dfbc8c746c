"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { useFormat } from "@/components/ui/format";
import { PdfView } from "@/components/orders/pdf-view";
import { Button } from "@/components/ui/controls";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { declineInput, holdInput } from "@/server/trpc/routers/doctor.schemas";
import type { presentRequest } from "@/server/trpc/routers/doctor.presenters";
import { useStatusLabel } from "@/components/ui/status";
import { StatusBadge } from "@/components/ui/status-badge";
import { TextAreaField } from "./text-area-field";

// survey-core is large and only a request with an anamnesis needs it: loaded on demand, in the browser.
const AnamnesisSurvey = dynamic(() => import("./anamnesis-survey"), {
  ssr: false,
  loading: () => <LoadingState label="Loading the answers…" />,
});

/** A refusal as this page says it: a request another doctor took is "not found" to this one. */
function requestError(error: unknown): string {
  if (error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND") {
    return "This request does not exist, or another doctor has taken it.";
  }
  return errorMessage(error);
}

/** One prescription request: the patient, the items, the anamnesis answers, the PDF, and the doctor's decision. */
export function DoctorRequestDetail({ uid }: { uid: string }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const request = useQuery(trpc.doctor.requests.get.queryOptions({ prescriptionUid: uid }));
  if (request.isPending) return <LoadingState label="Loading the request…" />;
  if (request.isError) return <ErrorState message={requestError(request.error)} onRetry={() => void request.refetch()} />;
  const r = request.data;
  // Several items may share one anamnesis: each is shown once.
  const anamneses = [...new Map(r.items.flatMap((item) => (item.anamnesis ? [[item.anamnesis.uid, item.anamnesis] as const] : []))).values()];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <Link href="/admin/doctor" className="font-medium text-brand-800 hover:underline">
          ← All requests
        </Link>
        <span aria-hidden>·</span>
        <StatusBadge kind="prescription" status={r.status} />
        <span>requested {format.dateTime(r.createdAt)}</span>
        {r.order ? <span>· order {r.order.name}</span> : null}
        {r.doctor ? <span>· {r.doctor.isMe ? "assigned to you" : `assigned to ${r.doctor.name}`}</span> : null}
      </div>

      <Decision request={r} hasAnamnesis={anamneses.length > 0} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Patient">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-500">Name</dt>
            <dd className="font-medium text-slate-900">{r.patient.name}</dd>
            <dt className="text-slate-500">Date of birth</dt>
            <dd className="text-slate-900">{r.patient.dateOfBirth ?? "—"}</dd>
            {r.patient.email ? (
              <>
                <dt className="text-slate-500">Email</dt>
                <dd className="text-slate-900">{r.patient.email}</dd>
              </>
            ) : null}
            {r.patient.fields.map((field) => (
              <FieldRow key={field.key} label={field.label} value={field.value} />
            ))}
          </dl>
        </Card>

        <Card title="Items">
          <table className="min-w-full text-sm">
            <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="pb-2 pr-4">SKU</th>
                <th scope="col" className="pb-2 pr-4 text-right">Quantity</th>
                <th scope="col" className="pb-2">Dosage</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {r.items.map((item) => (
                <tr key={item.uid}>
                  <td className="py-2 pr-4 text-slate-900">
                    {item.sku.name}
                    <div className="text-xs text-slate-500">PZN {item.sku.pzn ?? "—"}</div>
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums text-slate-900">{item.quantity}</td>
                  <td className="py-2 text-slate-700">{item.dosage ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </div>

      <Card title="Anamnesis">
        {anamneses.length === 0 ? (
          <EmptyState title="No anamnesis">The order&apos;s items came without a questionnaire response.</EmptyState>
        ) : (
          <div className="space-y-4">
            {anamneses.map((a) => (
              <div key={a.uid}>
                <p className="mb-2 text-sm text-slate-600">
                  {a.questionnaire.name} · {a.status === "COMPLETED" ? `completed ${format.dateTime(a.completedAt)}` : statusLabel("questionnaireResponse", a.status).toLowerCase()}
                </p>
                <AnamnesisSurvey model={a.questionnaire.model} answers={a.answers} />
              </div>
            ))}
          </div>
        )}
      </Card>

      <Card title={r.signedAt ? "Signed prescription" : "Prescription (preview of what you sign)"}>
        <PrescriptionFile uid={r.uid} />
      </Card>

      <Card title="History">
        <ol className="space-y-2 text-sm">
          {r.history.map((h, index) => (
            <li key={index} className="flex flex-wrap gap-x-3">
              <span className="whitespace-nowrap text-slate-500">{format.dateTime(h.at)}</span>
              <span className="text-slate-900">{statusLabel("prescription", h.to)}</span>
              {h.note ? <span className="text-slate-600">“{h.note}”</span> : null}
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

type Mode = "actions" | "sign" | "decline" | "hold";
type Request = ReturnType<typeof presentRequest>;

/**
 * The doctor's decision: sign (after a summary of what is signed, and of what is missing), decline
 * with a reason, or put on hold with a note. Each asks once before it acts.
 */
function Decision({ request, hasAnamnesis }: { request: Request; hasAnamnesis: boolean }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const { uid, status, awaitingDecision, signedAt } = request;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>("actions");
  const [reason, setReason] = useState("");
  const [note, setNote] = useState("");
  const [formErrors, setFormErrors] = useState<Record<string, string[] | undefined>>({});
  const [done, setDone] = useState<string | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.doctor.requests.pathKey() });
  };
  const after = (message: string) => async () => {
    setMode("actions");
    setDone(message);
    await refresh();
  };
  const sign = useMutation(
    trpc.doctor.requests.sign.mutationOptions({
      onSuccess: async (r) => after(r.status === "NON_QES_SIGNED" ? "Signed without a QES (the provider allows it). The order goes to the pharmacy." : "Signed. The order goes to the pharmacy.")(),
    }),
  );
  const decline = useMutation(trpc.doctor.requests.decline.mutationOptions({ onSuccess: after("Declined. The patient's order will not be dispensed.") }));
  const hold = useMutation(trpc.doctor.requests.hold.mutationOptions({ onSuccess: after("Put on hold. The request stays in your queue.") }));
  const pending = sign.isPending || decline.isPending || hold.isPending;
  // A failed signature is shown in its dialog.
  const lastError = [decline, hold].find((m) => m.isError)?.error;

  if (awaitingDecision && request.order?.onHold) {
    return (
      <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 shadow-sm">
        Order {request.order.name} is on hold: the organisation paused it. You can decide on this request once the hold is released.
      </p>
    );
  }

  if (!awaitingDecision) {
    return (
      <div className="space-y-3">
        {done ? <Notice>{done}</Notice> : null}
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm">
          {signedAt ? `Signed ${format.dateTime(signedAt)}.` : `This request is ${statusLabel("prescription", status).toLowerCase()}: there is nothing left to decide.`}
        </p>
      </div>
    );
  }

  return (
    <section aria-label="Decision" className="space-y-3 rounded-xl border border-brand-100 bg-white p-5 shadow-sm">
      {done ? <Notice>{done}</Notice> : null}
      {mode === "actions" ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            disabled={pending}
            onClick={() => {
              setDone(null);
              sign.reset();
              setMode("sign");
            }}
          >
            {sign.isPending ? "Signing…" : "Sign prescription"}
          </Button>
          <Button tone="secondary" disabled={pending} onClick={() => { setDone(null); setFormErrors({}); setMode("hold"); }}>
            Put on hold
          </Button>
          <Button tone="danger" disabled={pending} onClick={() => { setDone(null); setFormErrors({}); setMode("decline"); }}>
            Decline
          </Button>
          <p className="text-xs text-slate-500">Signing approves the request and signs it with your qualified electronic signature.</p>
        </div>
      ) : null}

      <ConfirmDialog
        open={mode === "sign"}
        title={`Sign the prescription for ${request.patient.name}?`}
        confirmLabel="Sign with QES"
        pendingLabel="Signing…"
        tone="primary"
        onConfirm={() => sign.mutateAsync({ prescriptionUid: uid })}
        onClose={() => setMode((m) => (m === "sign" ? "actions" : m))}
      >
        <SignSummary request={request} hasAnamnesis={hasAnamnesis} />
      </ConfirmDialog>

      {mode === "decline" ? (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = declineInput.safeParse({ prescriptionUid: uid, reason });
            if (!parsed.success) return setFormErrors({ reason: parsed.error.issues.filter((i) => i.path[0] === "reason").map((i) => i.message) });
            setFormErrors({});
            decline.mutate(parsed.data);
          }}
          noValidate
        >
          <h2 className="text-sm font-semibold text-slate-900">Decline the request</h2>
          <TextAreaField
            label="Reason"
            required
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            errors={formErrors.reason ?? fieldErrors(decline.error, "reason")}
            hint="Recorded with the decision. The patient's order for these items is cancelled."
          />
          <div className="flex gap-3">
            <Button type="submit" tone="danger" disabled={pending}>
              {decline.isPending ? "Declining…" : "Confirm decline"}
            </Button>
            <Button tone="secondary" disabled={pending} onClick={() => setMode("actions")}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      {mode === "hold" ? (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = holdInput.safeParse({ prescriptionUid: uid, note });
            if (!parsed.success) return setFormErrors({ note: parsed.error.issues.filter((i) => i.path[0] === "note").map((i) => i.message) });
            setFormErrors({});
            hold.mutate(parsed.data);
          }}
          noValidate
        >
          <h2 className="text-sm font-semibold text-slate-900">Put the request on hold</h2>
          <TextAreaField
            label="Note"
            required
            value={note}
            onChange={(e) => setNote(e.target.value)}
            errors={formErrors.note ?? fieldErrors(hold.error, "note")}
            hint="What is needed before you can decide (recorded with the request)."
          />
          <div className="flex gap-3">
            <Button type="submit" disabled={pending}>
              {hold.isPending ? "Saving…" : "Confirm hold"}
            </Button>
            <Button tone="secondary" disabled={pending} onClick={() => setMode("actions")}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      {lastError && !fieldErrors(lastError, "reason") && !fieldErrors(lastError, "note") ? <ErrorState message={requestError(lastError)} /> : null}
    </section>
  );
}

/** What the doctor signs, and the facts the request lacks, said in words before the signature. */
function SignSummary({ request, hasAnamnesis }: { request: Request; hasAnamnesis: boolean }) {
  const missing = [
    ...(hasAnamnesis ? [] : ["No anamnesis: the order's items came without a questionnaire response."]),
    ...(request.patient.dateOfBirth ? [] : ["No date of birth for the patient."]),
    ...request.items.filter((item) => !item.sku.pzn).map((item) => `No PZN for ${item.sku.name}.`),
  ];
  return (
    <>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">Patient</dt>
        <dd className="text-slate-900">{request.patient.name}</dd>
        <dt className="text-slate-500">Date of birth</dt>
        <dd className="text-slate-900">{request.patient.dateOfBirth ?? "not given"}</dd>
      </dl>
      <p className="text-slate-500">Items</p>
      <ul aria-label="Items to sign" className="list-disc space-y-1 pl-5">
        {request.items.map((item) => (
          <li key={item.uid}>
            {item.quantity} × {item.sku.name} (PZN {item.sku.pzn ?? "none"}){item.dosage ? `, ${item.dosage}` : ""}
          </li>
        ))}
      </ul>
      {missing.length > 0 ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          <p className="font-medium">Missing from this request:</p>
          <ul aria-label="Missing from this request" className="list-disc pl-5">
            {missing.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p>Your qualified electronic signature is applied to the prescription and the order goes to the pharmacy. A signed prescription cannot be withdrawn here.</p>
    </>
  );
}

function PrescriptionFile({ uid }: { uid: string }) {
  const trpc = useTRPC();
  // Read again after a decision (the decision invalidates every doctorRequests query): the signed copy replaces the preview.
  const file = useQuery(trpc.doctor.requests.pdf.queryOptions({ prescriptionUid: uid }, { refetchOnWindowFocus: false }));
  if (file.isPending) return <LoadingState label="Loading the prescription…" />;
  if (file.isError) return <ErrorState message={requestError(file.error)} onRetry={() => void file.refetch()} />;
  return <PdfView filename={file.data.filename} contentBase64={file.data.contentBase64} />;
}

