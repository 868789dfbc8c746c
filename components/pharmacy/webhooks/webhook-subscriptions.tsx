"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { formatUnixTime } from "@/components/ui/unix-time";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { FieldErrors } from "@/server/domain/errors";
import { PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { toFieldErrors } from "@/server/wire/field-errors";
import { registerSubscriptionInput } from "@/server/trpc/routers/webhook-subscriptions.schemas";
import { FailingTargetsNotice, TargetHealthBadge, useTargetHealth } from "@/components/webhooks/target-health";

type PharmacyEventType = (typeof PHARMACY_EVENT_TYPES)[number];

export function WebhookSubscriptions() {
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.pharmacies.list.queryOptions());
  const pharmacyNames = new Map((pharmacies.data ?? []).map((p) => [p.uid, p.displayName]));
  return (
    <div className="space-y-10">
      <RegisterForm pharmacies={pharmacies.data ?? []} />
      <SubscriptionList pharmacyNames={pharmacies.data && pharmacies.data.length > 1 ? pharmacyNames : null} />
    </div>
  );
}

function RegisterForm({ pharmacies }: { pharmacies: { uid: string; displayName: string }[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [pharmacyUid, setPharmacyUid] = useState("");
  const [notificationType, setNotificationType] = useState<string>(PHARMACY_EVENT_TYPES[1]);
  const [target, setTarget] = useState("");
  const [headerKey, setHeaderKey] = useState("");
  const [headerValue, setHeaderValue] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const register = useMutation(
    trpc.webhookSubscriptions.register.mutationOptions({
      onSuccess: async () => {
        setTarget("");
        setHeaderKey("");
        setHeaderValue("");
        await queryClient.invalidateQueries({ queryKey: trpc.webhookSubscriptions.list.pathKey() });
      },
    }),
  );
  // A group pharmacist registers for one of the group's pharmacies.
  const choosePharmacy = pharmacies.length > 1;
  const chosenPharmacy = pharmacyUid || pharmacies[0]?.uid || "";

  // The domain names fields as the REST API does (notification_type); the form as tRPC does.
  const errorsOf = (field: string, serverField = field) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : (fieldErrors(register.error, field) ?? fieldErrors(register.error, serverField));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = registerSubscriptionInput.safeParse({
      ...(choosePharmacy ? { pharmacyUid: chosenPharmacy } : {}),
      notificationType,
      target,
      headerKey: headerKey.trim() || null,
      headerValue: headerValue || null,
    });
    if (!parsed.success) {
      setClientErrors(toFieldErrors(parsed.error.issues));
      return;
    }
    setClientErrors({});
    register.mutate(parsed.data);
  }

  return (
    <section aria-labelledby="register-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="register-heading" className="text-lg font-semibold text-slate-900">
        Register a webhook
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        We send a signed POST to your URL when the event happens. Registering the same event type and URL again issues a new secret.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          {choosePharmacy ? (
            <SelectField label="Pharmacy" value={chosenPharmacy} onChange={(e) => setPharmacyUid(e.target.value)}>
              {pharmacies.map((p) => (
                <option key={p.uid} value={p.uid}>
                  {p.displayName}
                </option>
              ))}
            </SelectField>
          ) : null}
          <SelectField
            label="Event type"
            value={notificationType}
            onChange={(e) => setNotificationType(e.target.value)}
            errors={errorsOf("notificationType", "notification_type")}
          >
            {PHARMACY_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Target URL"
            type="url"
            inputMode="url"
            placeholder="https://erp.example.com/webhooks"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            errors={errorsOf("target")}
          />
          <TextField
            label="Custom header name (optional)"
            placeholder="X-Shared-Token"
            value={headerKey}
            onChange={(e) => setHeaderKey(e.target.value)}
            errors={errorsOf("headerKey", "header_key")}
          />
          <TextField
            label="Custom header value (optional)"
            value={headerValue}
            onChange={(e) => setHeaderValue(e.target.value)}
            errors={errorsOf("headerValue", "header_value")}
            hint="Sent with every delivery; stored encrypted and never shown again."
          />
        </div>
        {register.error && !register.error.data?.fieldErrors ? <ErrorState message={errorMessage(register.error)} /> : null}
        <Button type="submit" disabled={register.isPending}>
          {register.isPending ? "Registering…" : "Register"}
        </Button>
      </form>
      {register.data ? (
        <div className="mt-6">
          <SecretBox
            label="Webhook secret"
            value={register.data.webhookSecret}
            note={`Shown only this once: your receiver checks X-Webhook-Signature (HMAC-SHA256 of the body) with it. Registered ${register.data.notificationType} to ${register.data.target}.`}
          />
        </div>
      ) : null}
    </section>
  );
}

type TestOutcome = { delivered: boolean; statusCode: number | null; durationMs: number; error: string | null };

function describeTest(outcome: TestOutcome): string {
  const took = `in ${outcome.durationMs} ms`;
  if (outcome.statusCode !== null) return `Your receiver answered HTTP ${outcome.statusCode} ${took}.`;
  return `No answer from your receiver: ${outcome.error ?? "the request failed"}.`;
}

function SubscriptionList({ pharmacyNames }: { pharmacyNames: Map<string, string> | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const subscriptions = useQuery(trpc.webhookSubscriptions.list.queryOptions({}));
  const health = useTargetHealth("pharmacy");
  const healthOf = new Map((health.data ?? []).map((h) => [h.subscriptionUid, h]));
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | { failure: string }>>({});
  const remove = useMutation(
    trpc.webhookSubscriptions.delete.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await queryClient.invalidateQueries({ queryKey: trpc.webhookSubscriptions.list.pathKey() });
      },
    }),
  );
  const sendTest = useMutation(trpc.webhookSubscriptions.sendTest.mutationOptions());

  return (
    <section aria-labelledby="subscriptions-heading">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="subscriptions-heading" className="text-lg font-semibold text-slate-900">
          Subscriptions
        </h2>
        <Link href="/pharmacy/api-access/delivery-logs" className="text-sm font-medium text-brand-700 hover:underline">
          Webhook delivery logs →
        </Link>
      </div>
      <div className="mt-3 space-y-3">
        {notice ? <Notice>{notice}</Notice> : null}
        <FailingTargetsNotice health={health.data} />
        {remove.error ? <ErrorState message={errorMessage(remove.error)} /> : null}
        {subscriptions.isPending ? (
          <LoadingState label="Loading webhook subscriptions…" />
        ) : subscriptions.isError ? (
          <ErrorState message={errorMessage(subscriptions.error)} onRetry={() => subscriptions.refetch()} />
        ) : subscriptions.data.length === 0 ? (
          <EmptyState title="No webhooks registered">Register one above to be told about new orders, order changes and stock changes.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
            {subscriptions.data.map((s) => {
              const test = tests[s.uid];
              const targetHealth = healthOf.get(s.uid);
              return (
                <li key={s.uid} className="px-4 py-4" aria-label={`${s.notificationType} to ${s.target}`}>
                  <div className="flex flex-wrap items-start justify-between gap-4">
                    <div className="min-w-0">
                      <p className="font-mono text-sm font-medium text-slate-900">{s.notificationType}</p>
                      <p className="break-all text-sm text-slate-700">{s.target}</p>
                      <p className="mt-1 text-xs text-slate-500">
                        {pharmacyNames ? `${pharmacyNames.get(s.pharmacyUid ?? "") ?? "Pharmacy"} · ` : ""}
                        {s.headerKey ? `Custom header ${s.headerKey} · ` : ""}Registered {formatUnixTime(s.createdAt)}
                      </p>
                      {targetHealth ? <TargetHealthBadge health={targetHealth} /> : null}
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <Button
                        tone="secondary"
                        disabled={sendTest.isPending && sendTest.variables?.target === s.target}
                        onClick={() =>
                          sendTest.mutate(
                            { pharmacyUid: s.pharmacyUid ?? undefined, notificationType: s.notificationType as PharmacyEventType, target: s.target },
                            {
                              onSuccess: (outcome) => setTests((all) => ({ ...all, [s.uid]: outcome })),
                              onError: (error) => setTests((all) => ({ ...all, [s.uid]: { failure: errorMessage(error) } })),
                            },
                          )
                        }
                      >
                        Send test
                      </Button>
                      {confirming === s.uid ? (
                        <>
                          <Button
                            tone="danger"
                            disabled={remove.isPending}
                            onClick={() =>
                              remove.mutate(
                                { pharmacyUid: s.pharmacyUid ?? undefined, subscriptionUid: s.uid },
                                { onSuccess: () => setNotice(`Deleted the ${s.notificationType} webhook to ${s.target}.`) },
                              )
                            }
                          >
                            Confirm delete
                          </Button>
                          <Button tone="secondary" onClick={() => setConfirming(null)}>
                            Cancel
                          </Button>
                        </>
                      ) : (
                        <Button tone="danger" onClick={() => setConfirming(s.uid)}>
                          Delete
                        </Button>
                      )}
                    </div>
                  </div>
                  {test ? (
                    <p
                      role="status"
                      className={`mt-3 rounded-md border px-3 py-2 text-sm ${
                        "failure" in test || !test.delivered ? "border-amber-200 bg-amber-50 text-amber-900" : "border-emerald-200 bg-emerald-50 text-emerald-800"
                      }`}
                    >
                      {"failure" in test ? `The test was not sent: ${test.failure}` : `Test sent (unsigned, X-Webhook-Test: true). ${describeTest(test)}`}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
