"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useTRPC } from "@/components/trpc/react";

/** Which portal's webhooks: the pharmacy portal's (its pharmacies') or the admin tool's (the organisation's). */
export type WebhookPortal = "pharmacy" | "admin";

/** What pharmacy.webhooks.health (admin.webhooks.health) says about one subscription's target. */
export type TargetHealth = {
  subscriptionUid: string;
  notificationType: string;
  target: string;
  state: "failing" | "recovering" | "healthy" | "unknown";
  registeredAt: number;
  /** Where failuresSinceSuccess is counted from: the last success, else the registration. */
  measuredSince: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  failuresSinceSuccess: number;
};

/**
 * What was measured: the failed attempts since the last success, or since the registration when
 * none succeeded yet ("5 failed attempts since it was registered at …, none succeeded; last failure …").
 * Only the state "failing" (target-health.ts: enough failures over an hour) is called "keeps failing".
 */
function useMeasured() {
  const t = useTranslations("webhooks.health");
  const format = useFormat();
  return (h: TargetHealth) =>
    t("measured", {
      count: h.failuresSinceSuccess,
      since: h.lastSuccessAt === null ? "registration" : "success",
      registered: format.dateTime(h.registeredAt),
      success: format.dateTime(h.lastSuccessAt),
      failure: h.lastFailureAt === null ? "none" : format.dateTime(h.lastFailureAt),
    });
}

/** A subscription's health: a badge and one line saying why. */
export function TargetHealthBadge({ health }: { health: TargetHealth }) {
  const t = useTranslations("webhooks.health");
  const format = useFormat();
  const measured = useMeasured();
  const line =
    health.state === "failing"
      ? t("failing", { measured: measured(health) })
      : health.state === "recovering"
        ? t("recovering", { measured: measured(health) })
        : health.state === "healthy"
          ? t("healthy", { at: format.dateTime(health.lastSuccessAt) })
          : t("unknown");
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <StatusBadge kind="targetHealth" status={health.state} />
      <span>{line}</span>
    </p>
  );
}

/** The portal's subscriptions' health, refreshed every minute. */
export function useTargetHealth(portal: WebhookPortal) {
  const trpc = useTRPC();
  // One router under both portals (server/trpc/routers/webhooks.ts): the portal's scope decides whose.
  return useQuery({ ...trpc[portal].webhooks.health.queryOptions({}), refetchInterval: 60_000 });
}

/** A warning naming the targets that keep failing; nothing when none does. */
export function FailingTargetsNotice({ health }: { health: TargetHealth[] | undefined }) {
  const t = useTranslations("webhooks.health");
  const measured = useMeasured();
  const failing = (health ?? []).filter((h) => h.state === "failing");
  if (failing.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">{t("failingTargets", { count: failing.length })}</p>
      <ul className="mt-1 list-disc pl-5">
        {failing.map((h) => (
          <li key={h.subscriptionUid} className="break-all">
            {t("failingTarget", { event: h.notificationType, target: h.target, measured: measured(h) })}
          </li>
        ))}
      </ul>
      <p className="mt-1">{t("failingAdvice")}</p>
    </div>
  );
}
