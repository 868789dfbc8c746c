"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { formatUnixTime } from "@/components/ui/unix-time";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { FailingTargetsNotice, TargetHealthBadge, useTargetHealth } from "@/components/webhooks/target-health";
import type { FieldErrors } from "@/server/domain/errors";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { toFieldErrors } from "@/server/wire/field-errors";
import { registerOrganisationSubscriptionInput } from "@/server/trpc/routers/admin-webhooks.schemas";

/** Settings → Webhooks: the organisation's notification subscriptions (the Management API's). */
export function AdminWebhookSubscriptions() {
  return (
    <div className="space-y-10">
      <RegisterForm />
      <SubscriptionList />
    </div>
  );
}

function RegisterForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notificationType, setNotificationType] = useState<string>("pharmacy_order_updated");
  const [target, setTarget] = useState("");
  const [headerKey, setHeaderKey] = useState("");
  const [headerValue, setHeaderValue] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const register = useMutation(
    trpc.adminWebhooks.register.mutationOptions({
      onSuccess: async () => {
        setTarget("");
        setHeaderKey("");
        setHeaderValue("");
        await queryClient.invalidateQueries({ queryKey: trpc.adminWebhooks.pathKey() });
      },
    }),
  );

  // The domain names fields as the REST API does (notification_type); the form as tRPC does.
  const errorsOf = (field: string, serverField = field) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : (fieldErrors(register.error, field) ?? fieldErrors(register.error, serverField));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = registerOrganisationSubscriptionInput.safeParse({
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
        We send a signed POST to the URL whenever the event happens anywhere in the organisation (the Management API&apos;s notification
        subscriptions). Registering the same event type and URL again issues a new secret.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            label="Event type"
            value={notificationType}
            onChange={(e) => setNotificationType(e.target.value)}
            errors={errorsOf("notificationType", "notification_type")}
          >
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Target URL"
            type="url"
            inputMode="url"
            placeholder="https://ops.example.com/webhooks"
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
          {register.isPending ? "Registering…" : "Register webhook"}
        </Button>
      </form>
      {register.data ? (
        <div className="mt-6">
          <SecretBox
            label="Webhook secret"
            value={register.data.webhookSecret}
            note={`Shown only this once: the receiver checks X-Webhook-Signature (HMAC-SHA256 of the raw body) with it. Registered ${register.data.notificationType} to ${register.data.target}.`}
          />
        </div>
      ) : null}
    </section>
  );
}

type TestOutcome = { delivered: boolean; statusCode: number | null; signed: boolean; durationMs: number; error: string | null };

function describeTest(outcome: TestOutcome): string {
  const kind = outcome.signed ? "Signed test sent" : "Test sent unsigned";
  const answer =
    outcome.statusCode !== null
      ? `the receiver answered HTTP ${outcome.statusCode} in ${outcome.durationMs} ms`
      : `no answer from the receiver: ${outcome.error ?? "the request failed"}`;
  return `${kind} (X-Webhook-Test: true): ${answer}.`;
}

function SubscriptionList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const subscriptions = useQuery(trpc.adminWebhooks.list.queryOptions());
  const health = useTargetHealth("admin");
  const healthOf = new Map((health.data ?? []).map((h) => [h.subscriptionUid, h]));
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | { failure: string }>>({});
  const remove = useMutation(
    trpc.adminWebhooks.delete.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        await queryClient.invalidateQueries({ queryKey: trpc.adminWebhooks.pathKey() });
      },
    }),
  );
  const sendTest = useMutation(trpc.adminWebhooks.sendTest.mutationOptions());

  return (
    <section aria-labelledby="subscriptions-heading">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="subscriptions-heading" className="text-lg font-semibold text-slate-900">
          Subscriptions
        </h2>
        <Link href="/admin/webhooks/logs" className="text-sm font-medium text-brand-700 hover:underline">
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
          <EmptyState title="No webhooks registered">Register one above to be told about orders, stock, appointments and meetings.</EmptyState>
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
                        {s.headerKey ? `Custom header ${s.headerKey} · ` : ""}Registered {formatUnixTime(s.createdAt)}
                      </p>
                      {targetHealth ? <TargetHealthBadge health={targetHealth} /> : null}
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2">
                      <Button
                        tone="secondary"
                        disabled={sendTest.isPending && sendTest.variables?.subscriptionUid === s.uid}
                        onClick={() =>
                          sendTest.mutate(
                            { subscriptionUid: s.uid },
                            {
                              onSuccess: (outcome) => setTests((all) => ({ ...all, [s.uid]: outcome })),
                              onError: (error) => setTests((all) => ({ ...all, [s.uid]: { failure: errorMessage(error) } })),
                            },
                          )
                        }
                      >
                        Send test
                      </Button>
                      <Link
                        href={`/admin/webhooks/logs?subscription=${encodeURIComponent(s.uid)}`}
                        className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
                      >
                        Deliveries
                      </Link>
                      {confirming === s.uid ? (
                        <>
                          <Button
                            tone="danger"
                            disabled={remove.isPending}
                            onClick={() =>
                              remove.mutate(
                                { subscriptionUid: s.uid },
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
                      {"failure" in test ? `The test was not sent: ${test.failure}` : describeTest(test)}
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
