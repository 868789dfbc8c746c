"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { FieldErrors } from "@/server/domain/errors";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { toFieldErrors } from "@/server/wire/field-errors";
import { registerSubscriptionInput } from "@/server/trpc/routers/webhook-subscriptions.schemas";
import { FailingTargetsNotice, TargetHealthBadge, useTargetHealth, type WebhookPortal } from "./target-health";

/** What differs between the portals' webhook pages: the events, the form's schema, the words, the logs' address. */
const PORTAL = {
  pharmacy: {
    eventTypes: PHARMACY_EVENT_TYPES as readonly string[],
    schema: registerSubscriptionInput,
    intro: "We send a signed POST to your URL when the event happens. Registering the same event type and URL again issues a new secret.",
    empty: "Register one above to be told about new orders, order changes and stock changes.",
    logs: "/pharmacy/api-access/delivery-logs",
  },
  admin: {
    eventTypes: EVENT_TYPES as readonly string[],
    schema: registerSubscriptionInput,
    intro:
      "We send a signed POST to the URL whenever the event happens anywhere in the organisation (the Management API's notification subscriptions). Registering the same event type and URL again issues a new secret.",
    empty: "Register one above to be told about orders, stock, appointments and meetings.",
    logs: "/admin/webhooks/logs",
  },
} as const;

type Subscription = { uid: string; notificationType: string; target: string; pharmacyUid: string | null; headerKey: string | null; createdAt: number };
type TestOutcome = { delivered: boolean; statusCode: number | null; signed: boolean; durationMs: number; error: string | null };

/**
 * The webhook procedures of a portal: one router under both portals (server/trpc/routers/webhooks.ts)
 * with the portal's scope: the pharmacy portal's pharmacies' subscriptions (unsigned tests) or the
 * organisation's (the admin tool's; tests signed with the subscription's secret).
 */
function useSubscriptionsApi(portal: WebhookPortal) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const webhooks = trpc[portal].webhooks;
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooks.pathKey() });
  const list = useQuery(webhooks.list.queryOptions({}));
  const register = useMutation(webhooks.register.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(webhooks.sendTest.mutationOptions());
  const subscriptionOf = (s: Subscription) => ({ pharmacyUid: s.pharmacyUid ?? undefined, subscriptionUid: s.uid });
  return {
    list,
    register,
    // The form's input, parsed by the schema again for the procedure's type.
    registerMutate: (input: unknown, onSuccess: () => void) => register.mutate(registerSubscriptionInput.parse(input), { onSuccess }),
    remove,
    removeAsync: (s: Subscription): Promise<unknown> => remove.mutateAsync(subscriptionOf(s)),
    testPending: (s: Subscription) => test.isPending && test.variables?.subscriptionUid === s.uid,
    sendTest: (s: Subscription, done: (outcome: TestOutcome | { failure: string }) => void) =>
      test.mutate(subscriptionOf(s), { onSuccess: (outcome: TestOutcome) => done(outcome), onError: (error: unknown) => done({ failure: errorMessage(error) }) }),
  };
}

type Api = ReturnType<typeof useSubscriptionsApi>;

/** A portal's webhooks page: register (the secret shown once), the subscriptions with their health, a test send, delete. */
export function WebhookSubscriptions({ portal }: { portal: WebhookPortal }) {
  const trpc = useTRPC();
  const api = useSubscriptionsApi(portal);
  // A group pharmacist registers for one of the group's pharmacies; the admin's subscriptions are the organisation's.
  const pharmacies = useQuery({ ...trpc.pharmacy.pharmacies.list.queryOptions(), enabled: portal === "pharmacy" });
  const pharmacyNames = new Map((pharmacies.data ?? []).map((p) => [p.uid, p.displayName]));
  return (
    <div className="space-y-10">
      <RegisterForm portal={portal} api={api} pharmacies={pharmacies.data ?? []} />
      <SubscriptionList portal={portal} api={api} pharmacyNames={pharmacies.data && pharmacies.data.length > 1 ? pharmacyNames : null} />
    </div>
  );
}

function RegisterForm({ portal, api, pharmacies }: { portal: WebhookPortal; api: Api; pharmacies: { uid: string; displayName: string }[] }) {
  const { eventTypes, schema, intro } = PORTAL[portal];
  const [pharmacyUid, setPharmacyUid] = useState("");
  const [notificationType, setNotificationType] = useState<string>("pharmacy_order_updated");
  const [target, setTarget] = useState("");
  const [headerKey, setHeaderKey] = useState("");
  const [headerValue, setHeaderValue] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const register = api.register;
  const choosePharmacy = pharmacies.length > 1;
  const chosenPharmacy = pharmacyUid || pharmacies[0]?.uid || "";

  const errorsOf = (field: string) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : fieldErrors(register.error, field);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = schema.safeParse({
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
    api.registerMutate(parsed.data, () => {
      setTarget("");
      setHeaderKey("");
      setHeaderValue("");
    });
  }

  return (
    <section aria-labelledby="register-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="register-heading" className="text-lg font-semibold text-slate-900">
        Register a webhook
      </h2>
      <p className="mt-1 text-sm text-slate-600">{intro}</p>
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
            errors={errorsOf("notificationType")}
          >
            {eventTypes.map((type) => (
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
            errors={errorsOf("headerKey")}
          />
          <TextField
            label="Custom header value (optional)"
            value={headerValue}
            onChange={(e) => setHeaderValue(e.target.value)}
            errors={errorsOf("headerValue")}
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

function describeTest(outcome: TestOutcome): string {
  const kind = outcome.signed ? "Signed test sent" : "Test sent unsigned";
  const answer =
    outcome.statusCode !== null
      ? `Your receiver answered HTTP ${outcome.statusCode} in ${outcome.durationMs} ms.`
      : `No answer from your receiver: ${outcome.error ?? "the request failed"}.`;
  return `${kind} (X-Webhook-Test: true). ${answer}`;
}

function SubscriptionList({ portal, api, pharmacyNames }: { portal: WebhookPortal; api: Api; pharmacyNames: Map<string, string> | null }) {
  const format = useFormat();
  const { empty, logs } = PORTAL[portal];
  const subscriptions = api.list;
  const health = useTargetHealth(portal);
  const healthOf = new Map((health.data ?? []).map((h) => [h.subscriptionUid, h]));
  const [notice, setNotice] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | { failure: string }>>({});

  return (
    <section aria-labelledby="subscriptions-heading">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="subscriptions-heading" className="text-lg font-semibold text-slate-900">
          Subscriptions
        </h2>
        <Link href={logs} className="text-sm font-medium text-brand-700 hover:underline">
          Webhook delivery logs →
        </Link>
      </div>
      <div className="mt-3 space-y-3">
        {notice ? <Notice>{notice}</Notice> : null}
        <FailingTargetsNotice health={health.data} />
        {subscriptions.isPending ? (
          <LoadingState label="Loading webhook subscriptions…" />
        ) : subscriptions.isError ? (
          <ErrorState message={errorMessage(subscriptions.error)} onRetry={() => subscriptions.refetch()} />
        ) : subscriptions.data.length === 0 ? (
          <EmptyState title="No webhooks registered">{empty}</EmptyState>
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
                        {s.headerKey ? `Custom header ${s.headerKey} · ` : ""}Registered {format.dateTime(s.createdAt)}
                      </p>
                      {targetHealth ? <TargetHealthBadge health={targetHealth} /> : null}
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2">
                      <Button
                        tone="secondary"
                        disabled={api.testPending(s)}
                        onClick={() => api.sendTest(s, (outcome) => setTests((all) => ({ ...all, [s.uid]: outcome })))}
                      >
                        Send test
                      </Button>
                      <Link
                        href={`${logs}?subscription=${encodeURIComponent(s.uid)}`}
                        className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
                      >
                        Deliveries
                      </Link>
                      <ConfirmButton
                        title={`Delete the ${s.notificationType} webhook to ${s.target}?`}
                        confirmLabel="Confirm delete"
                        pendingLabel="Deleting…"
                        onConfirm={async () => {
                          await api.removeAsync(s);
                          setNotice(`Deleted the ${s.notificationType} webhook to ${s.target}.`);
                        }}
                        consequence={<p>No more {s.notificationType} events are sent to this target; deliveries still queued for it end at their next attempt. Its delivery logs stay readable. To receive the events again, register the target anew.</p>}
                      >
                        Delete
                      </ConfirmButton>
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
