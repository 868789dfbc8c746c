"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, inputClass, useZodForm, submitWith } from "@/components/ui/form";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { EVENT_TYPES, PHARMACY_EVENT_TYPES, type EventType } from "@/server/domain/webhooks/event-types";
import { registerSubscriptionInput } from "@/server/trpc/routers/webhook-subscriptions.schemas";
import { FailingTargetsNotice, TargetHealthBadge, useTargetHealth, type WebhookPortal } from "./target-health";

/** What differs between the portals' webhook pages: the events and the logs' address (the words are messages webhooks.<portal>.*). */
const PORTAL = {
  pharmacy: { eventTypes: PHARMACY_EVENT_TYPES as readonly string[], logs: "/pharmacy/api-access/delivery-logs" },
  admin: { eventTypes: EVENT_TYPES as readonly string[], logs: "/admin/webhooks/logs" },
} as const;

/** The form's fields as typed (empty optional fields are no value) into the procedure's input. */
const registerForm = z
  .object({ pharmacyUid: z.string(), notificationType: z.string(), target: z.string(), headerKey: z.string(), headerValue: z.string() })
  .transform((v): z.input<typeof registerSubscriptionInput> => ({
    ...(v.pharmacyUid ? { pharmacyUid: v.pharmacyUid } : {}),
    // Checked by the schema below.
    notificationType: v.notificationType as z.input<typeof registerSubscriptionInput>["notificationType"],
    target: v.target,
    headerKey: v.headerKey.trim() || null,
    headerValue: v.headerValue || null,
  }))
  .pipe(registerSubscriptionInput);

type Subscription = { uid: string; notificationType: string; target: string; plainHttp: boolean; pharmacyUid: string | null; headerKey: string | null; createdAt: number };
type TestOutcome = { delivered: boolean; statusCode: number | null; signed: boolean; durationMs: number; error: string | null };

/**
 * The webhook procedures of a portal: one router under both portals (server/trpc/routers/webhooks.ts)
 * with the portal's scope: the pharmacy portal's pharmacies' subscriptions (unsigned tests) or the
 * organisation's (the admin tool's; tests signed with the subscription's secret).
 */
function useSubscriptionsApi(portal: WebhookPortal) {
  const errorMessage = useErrorMessage();
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
  const t = useTranslations("webhooks");
  const { eventTypes } = PORTAL[portal];
  const register = api.register;
  const choosePharmacy = pharmacies.length > 1;
  const form = useZodForm(registerForm, { pharmacyUid: "", notificationType: "pharmacy_order_updated", target: "", headerKey: "", headerValue: "" });
  const submit = submitWith(
    form,
    (input) => register.mutateAsync({ ...input, pharmacyUid: choosePharmacy ? (input.pharmacyUid ?? pharmacies[0]?.uid) : undefined }),
    () => form.reset({ ...form.getValues(), target: "", headerKey: "", headerValue: "" }),
  );

  return (
    <section aria-labelledby="register-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="register-heading" className="text-lg font-semibold text-slate-900">
        {t("registerHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t(`${portal}.intro`)}</p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          {choosePharmacy ? (
            <Field form={form} name="pharmacyUid" label={t("pharmacy.label")}>
              {(control) => (
                <select {...form.register("pharmacyUid")} {...control} className={inputClass}>
                  {pharmacies.map((p) => (
                    <option key={p.uid} value={p.uid}>
                      {p.displayName}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          <Field form={form} name="notificationType" label={t("eventType")}>
            {(control) => (
              <select {...form.register("notificationType")} {...control} className={inputClass}>
                {eventTypes.map((type) => (
                  <option key={type} value={type}>
                    {t("eventTypeOption", { label: t(`eventTypes.${type as EventType}`), type })}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field form={form} name="target" label={t("target")} type="url" inputMode="url" placeholder="https://erp.example.com/webhooks" />
          <Field form={form} name="headerKey" label={t("headerKey")} placeholder="X-Shared-Token" />
          <Field form={form} name="headerValue" label={t("headerValue")} hint={t("headerValueHint")} />
        </div>
        <FormError form={form} />
        <SubmitButton form={form}>{form.formState.isSubmitting ? t("registering") : t("register")}</SubmitButton>
      </form>
      {register.data ? (
        <div className="mt-6">
          <SecretBox label={t("secret")} value={register.data.webhookSecret} note={t("secretNote", { event: register.data.notificationType, target: register.data.target })} />
        </div>
      ) : null}
    </section>
  );
}

function SubscriptionList({ portal, api, pharmacyNames }: { portal: WebhookPortal; api: Api; pharmacyNames: Map<string, string> | null }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("webhooks");
  const format = useFormat();
  const { logs } = PORTAL[portal];
  const subscriptions = api.list;
  const health = useTargetHealth(portal);
  const healthOf = new Map((health.data ?? []).map((h) => [h.subscriptionUid, h]));
  const [notice, setNotice] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | { failure: string }>>({});

  return (
    <section aria-labelledby="subscriptions-heading">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="subscriptions-heading" className="text-lg font-semibold text-slate-900">
          {t("subscriptions")}
        </h2>
        <Link prefetch={false} href={logs} className="text-sm font-medium text-brand-700 hover:underline">
          {t("logsLink")} →
        </Link>
      </div>
      <div className="mt-3 space-y-3">
        {notice ? <Notice>{notice}</Notice> : null}
        <FailingTargetsNotice health={health.data} />
        {subscriptions.isPending ? (
          <LoadingState label={t("loading")} />
        ) : subscriptions.isError ? (
          <ErrorState message={errorMessage(subscriptions.error)} onRetry={() => subscriptions.refetch()} />
        ) : subscriptions.data.length === 0 ? (
          <EmptyState title={t("empty")}>{t(`${portal}.empty`)}</EmptyState>
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
                      {s.plainHttp ? (
                        <p className="mt-1 text-xs font-medium text-amber-800" role="note">
                          {t("plainHttp")}
                        </p>
                      ) : null}
                      <p className="mt-1 text-xs text-slate-500">
                        {pharmacyNames ? `${pharmacyNames.get(s.pharmacyUid ?? "") ?? t("pharmacy.label")} · ` : ""}
                        {s.headerKey ? `${t("customHeader", { name: s.headerKey })} · ` : ""}
                        {t("registered", { at: format.dateTime(s.createdAt) })}
                      </p>
                      {targetHealth ? <TargetHealthBadge health={targetHealth} /> : null}
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2">
                      <Button
                        tone="secondary"
                        disabled={api.testPending(s)}
                        onClick={() => api.sendTest(s, (outcome) => setTests((all) => ({ ...all, [s.uid]: outcome })))}
                      >
                        {t("sendTest")}
                      </Button>
                      <Link prefetch={false}
                        href={`${logs}?subscription=${encodeURIComponent(s.uid)}`}
                        className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
                      >
                        {t("deliveries")}
                      </Link>
                      <ConfirmButton
                        title={t("deleteTitle", { event: s.notificationType, target: s.target })}
                        confirmLabel={t("deleteConfirm")}
                        pendingLabel={t("deleting")}
                        onConfirm={async () => {
                          await api.removeAsync(s);
                          setNotice(t("deleted", { event: s.notificationType, target: s.target }));
                        }}
                        consequence={<p>{t("deleteConsequence", { event: s.notificationType })}</p>}
                      >
                        {t("delete")}
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
                      {"failure" in test
                        ? t("testNotSent", { reason: test.failure })
                        : t("testSent", { signed: String(test.signed), answered: String(test.statusCode !== null), status: test.statusCode ?? 0, ms: test.durationMs, error: test.error ?? t("requestFailed") })}
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
