"use client";

import { useQuery } from "@tanstack/react-query";
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

const attempts = (n: number) => `${n} failed attempt${n === 1 ? "" : "s"}`;

/**
 * What was measured: the failed attempts since the last success, or since the registration when
 * none succeeded yet ("5 failed attempts since it was registered at …, none succeeded; last failure …").
 * Only the state "failing" (target-health.ts: enough failures over an hour) is called "keeps failing".
 */
function measured(h: TargetHealth, dateTime: (unixSeconds: number) => string): string {
  const since =
    h.lastSuccessAt === null
      ? `since it was registered at ${dateTime(h.registeredAt)}, none succeeded`
      : `since the last success at ${dateTime(h.lastSuccessAt)}`;
  const last = h.lastFailureAt === null ? "" : `; last failure at ${dateTime(h.lastFailureAt)}`;
  return `${attempts(h.failuresSinceSuccess)} ${since}${last}`;
}

function describe(h: TargetHealth, dateTime: (unixSeconds: number) => string): string {
  switch (h.state) {
    case "failing":
      return `Keeps failing: ${measured(h, dateTime)}.`;
    case "recovering":
      return `Recent failures: ${measured(h, dateTime)}.`;
    case "healthy":
      return `Delivering: last success ${dateTime(h.lastSuccessAt!)}.`;
    default:
      return "No delivery attempted yet.";
  }
}

/** A subscription's health: a badge and one line saying why. */
export function TargetHealthBadge({ health }: { health: TargetHealth }) {
  const format = useFormat();
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <StatusBadge kind="targetHealth" status={health.state} />
      <span>{describe(health, format.dateTime)}</span>
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
  const format = useFormat();
  const failing = (health ?? []).filter((h) => h.state === "failing");
  if (failing.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">
        {failing.length === 1 ? "A webhook target keeps failing" : `${failing.length} webhook targets keep failing`}: its attempts have failed for an hour
        or more without a success.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {failing.map((h) => (
          <li key={h.subscriptionUid} className="break-all">
            {h.notificationType} to {h.target} ({measured(h, format.dateTime)})
          </li>
        ))}
      </ul>
      <p className="mt-1">
        Check that the receiver is up and answers 2xx. Deliveries are still attempted five times each and then dropped; re-send dropped ones
        from the delivery logs once it works again.
      </p>
    </div>
  );
}
