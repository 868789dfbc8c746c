"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/controls";
import { DataTable } from "@/components/ui/data-table";
import { Field, FormError, SubmitOrCancel, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { saveShopifyConnectionInput } from "@/server/trpc/routers/admin-shops.schemas";

type Connection = { storeUrl: string; accessTokenHint: string; clientSecretHint: string; updatedAt: number };

/**
 * A shop's Shopify connection (docs/decisions/intake.md#shopify): the store, the custom app's
 * secrets (shown only as their last four characters; a blank field keeps the stored one), the
 * webhook address to enter in Shopify, "Test connection", the Shopify tasks that keep failing
 * (tracking links not yet on the shop's orders, abandoned draft orders not yet deleted), and the
 * signed orders intake refused (acknowledged to Shopify, so only seen here).
 */
export function ShopifyConnection({ shop }: { shop: { uid: string; displayName: string; shopify: Connection | null } }) {
  const t = useTranslations("admin.shopify");
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const test = useMutation(trpc.admin.shops.testShopify.mutationOptions());
  const connection = shop.shopify;
  const webhookUrl = `${origin}/api/shopify/webhooks/${shop.uid}`;
  return (
    <section aria-labelledby={`shopify-${shop.uid}`} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={`shopify-${shop.uid}`} className="text-sm font-semibold text-slate-900">
        {t("title")}
      </h3>
      {connection && !editing ? (
        <>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-slate-500">{t("storeUrl")}</dt>
            <dd className="font-mono text-xs break-all text-slate-900">{connection.storeUrl}</dd>
            <dt className="text-slate-500">{t("accessToken")}</dt>
            <dd className="font-mono text-xs text-slate-900">{t("masked", { hint: connection.accessTokenHint })}</dd>
            <dt className="text-slate-500">{t("clientSecret")}</dt>
            <dd className="font-mono text-xs text-slate-900">{t("masked", { hint: connection.clientSecretHint })}</dd>
            <dt className="text-slate-500">{t("webhookUrl")}</dt>
            <dd className="font-mono text-xs break-all text-slate-900">{webhookUrl}</dd>
          </dl>
          <p className="mt-1 text-xs text-slate-500">{t("webhookHint")}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button tone="secondary" disabled={test.isPending} onClick={() => test.mutate({ shopUid: shop.uid })}>
              {test.isPending ? t("testing") : t("test")}
            </Button>
            <Button tone="secondary" aria-label={t("changeLabel", { name: shop.displayName })} onClick={() => setEditing(true)}>
              {t("change")}
            </Button>
          </div>
          <div className="mt-3 space-y-2" aria-live="polite">
            {test.data ? test.data.ok ? <Notice>{t("connected", { name: test.data.shopName })}</Notice> : <ErrorState message={t("failed", { message: test.data.message })} /> : null}
            {test.error ? <ErrorState message={errorMessage(test.error)} /> : null}
          </div>
        </>
      ) : (
        <>
          {connection ? null : <p className="mt-2 text-sm text-slate-500">{t("notConnected")}</p>}
          <ConnectionForm
            shopUid={shop.uid}
            connection={connection}
            onDone={() => {
              setEditing(false);
              test.reset();
            }}
          />
        </>
      )}
      <TaskProblems shopUid={shop.uid} />
      {connection ? <Refusals shopUid={shop.uid} /> : null}
    </section>
  );
}

function ConnectionForm({ shopUid, connection, onDone }: { shopUid: string; connection: Connection | null; onDone: () => void }) {
  const t = useTranslations("admin.shopify");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(trpc.admin.shops.saveShopify.mutationOptions());
  const form = useZodForm(saveShopifyConnectionInput, { shopUid, storeUrl: connection?.storeUrl ?? "", accessToken: "", clientSecret: "" });
  const submit = submitWith(
    form,
    (values) => save.mutateAsync({ ...values, shopUid }),
    async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.admin.shops.pathKey() });
      onDone();
    },
  );
  const keepHint = (hint: string) => (connection ? t("keepHint", { hint }) : undefined);
  return (
    <form noValidate className="mt-3 space-y-3" onSubmit={submit}>
      <div className="grid gap-3 md:grid-cols-3 md:items-start">
        <Field form={form} name="storeUrl" label={t("storeUrl")} hint={t("storeUrlHint")} required autoComplete="off" />
        <Field form={form} name="accessToken" label={t("accessToken")} hint={keepHint(connection?.accessTokenHint ?? "")} type="password" autoComplete="new-password" />
        <Field form={form} name="clientSecret" label={t("clientSecret")} hint={keepHint(connection?.clientSecretHint ?? "")} type="password" autoComplete="new-password" />
      </div>
      <FormError form={form} />
      {connection ? (
        <SubmitOrCancel form={form} onCancel={onDone}>
          {t("save")}
        </SubmitOrCancel>
      ) : (
        <SubmitButton form={form} tone="secondary">
          {t("connect")}
        </SubmitButton>
      )}
    </form>
  );
}

/** This shop's Shopify tasks that failed (retrying, or given up): tracking links, draft order deletions. */
function TaskProblems({ shopUid }: { shopUid: string }) {
  const t = useTranslations("admin.shopify");
  const format = useFormat();
  const trpc = useTRPC();
  const problems = useQuery(trpc.admin.shops.shopifyTaskProblems.queryOptions());
  const mine = (problems.data ?? []).filter((p) => p.shopUid === shopUid);
  if (problems.error) return <ErrorState message={t("problemsFailed")} />;
  if (mine.length === 0) return null;
  return (
    <div className="mt-4">
      <h4 className="text-sm font-semibold text-red-800">{t("problemsTitle")}</h4>
      <p className="mt-1 text-xs text-slate-500">{t("problemsHint")}</p>
      <div className="mt-2">
        <DataTable
          label={t("problemsTitle")}
          rows={mine}
          rowKey={(p) => p.taskUid}
          rowClassName={() => "align-top"}
          columns={[
            {
              header: t("task"),
              key: true,
              cell: (p) => (p.kind === "tracking" ? t("trackingTask", { name: p.subject }) : t("draftDeletionTask", { id: p.subject })),
            },
            {
              header: t("state"),
              cell: (p) => (p.state === "FAILED" ? t("gaveUp", { attempts: p.attempts }) : t("retrying", { attempts: p.attempts, at: format.dateTime(p.nextAttemptAt) })),
            },
            { header: t("lastError"), cell: (p) => <span className="text-xs break-words">{p.lastError}</span> },
          ]}
        />
      </div>
    </div>
  );
}

/** This shop's signed Shopify orders that order intake refused, newest first, with intake's reason. */
function Refusals({ shopUid }: { shopUid: string }) {
  const t = useTranslations("admin.shopify");
  const format = useFormat();
  const trpc = useTRPC();
  const refusals = useQuery(trpc.admin.shops.shopifyRefusals.queryOptions({ shopUid }));
  return (
    <div className="mt-4">
      <h4 className="text-sm font-semibold text-slate-900">{t("refusalsTitle")}</h4>
      <p className="mt-1 text-xs text-slate-500">{t("refusalsHint")}</p>
      <div className="mt-2">
        {refusals.error ? (
          <ErrorState message={t("refusalsFailed")} onRetry={() => void refusals.refetch()} />
        ) : !refusals.data ? (
          <LoadingState label={t("refusalsLoading")} />
        ) : refusals.data.length === 0 ? (
          <EmptyState title={t("refusalsEmpty")} />
        ) : (
          <DataTable
            label={t("refusalsTitle")}
            rows={refusals.data}
            rowKey={(r) => r.uid}
            rowClassName={() => "align-top"}
            columns={[
              { header: t("receivedAt"), key: true, cell: (r) => format.dateTime(r.receivedAt) },
              { header: t("shopifyOrderId"), cell: (r) => <span className="font-mono text-xs">{r.shopifyOrderId ?? t("noOrderId")}</span> },
              { header: t("reason"), cell: (r) => <span className="text-xs break-words">{r.reason}</span> },
            ]}
          />
        )}
      </div>
    </div>
  );
}
