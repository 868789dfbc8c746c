"use client";

import { useQuery } from "@tanstack/react-query";
import { formatUnixTime } from "@/components/ui/unix-time";
import { useTRPC } from "@/components/trpc/react";

/** Which portal's webhooks: the pharmacy portal's (its pharmacies') or the admin tool's (the organisation's). */
export type WebhookPortal = "pharmacy" | "admin";

/** What webhookSubscriptions.health (adminWebhooks.health) says about one subscription's target. */
export type TargetHealth = {
  subscriptionUid: string;
  notificationType: string;
  target: string;
  state: "failing" | "recovering" | "healthy" | "unknown";
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  failuresSinceSuccess: number;
};

const attempts = (n: number) => `${n} failed attempt${n === 1 ? "" : "s"}`;

function describe(h: TargetHealth): string {
  const since = h.lastSuccessAt === null ? "none has succeeded yet" : `the last success was ${formatUnixTime(h.lastSuccessAt)}`;
  const last = h.lastFailureAt === null ? "" : `; last failure ${formatUnixTime(h.lastFailureAt)}`;
  switch (h.state) {
    case "failing":
      return `Keeps failing: no successful delivery in the last 24 hours (${attempts(h.failuresSinceSuccess)}, ${since}${last}).`;
    case "recovering":
      return `Recent failures: ${attempts(h.failuresSinceSuccess)} since the last success ${formatUnixTime(h.lastSuccessAt!)}${last}.`;
    case "healthy":
      return `Delivering: last success ${formatUnixTime(h.lastSuccessAt!)}.`;
    default:
      return "No delivery attempted yet.";
  }
}

const TONES: Record<TargetHealth["state"], { label: string; className: string }> = {
  failing: { label: "Failing", className: "border-red-200 bg-red-50 text-red-800" },
  recovering: { label: "Recent failures", className: "border-amber-200 bg-amber-50 text-amber-900" },
  healthy: { label: "Healthy", className: "border-emerald-200 bg-emerald-50 text-emerald-800" },
  unknown: { label: "No deliveries yet", className: "border-slate-200 bg-slate-50 text-slate-600" },
};

/** A subscription's health: a badge and one line saying why. */
export function TargetHealthBadge({ health }: { health: TargetHealth }) {
  const tone = TONES[health.state];
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <span className={`rounded-full border px-2 py-0.5 font-medium ${tone.className}`}>{tone.label}</span>
      <span>{describe(health)}</span>
    </p>
  );
}

/** The portal's subscriptions' health, refreshed every minute. */
export function useTargetHealth(portal: WebhookPortal) {
  const trpc = useTRPC();
  // Both procedures answer with the same presenter (webhook-subscriptions.presenters.ts); only the portal's runs.
  const pharmacy = useQuery({ ...trpc.webhookSubscriptions.health.queryOptions({}), enabled: portal === "pharmacy", refetchInterval: 60_000 });
  const admin = useQuery({ ...trpc.adminWebhooks.health.queryOptions(), enabled: portal === "admin", refetchInterval: 60_000 });
  return portal === "admin" ? admin : pharmacy;
}

/** A warning naming the targets that keep failing; nothing when none does. */
export function FailingTargetsNotice({ health }: { health: TargetHealth[] | undefined }) {
  const failing = (health ?? []).filter((h) => h.state === "failing");
  if (failing.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">
        {failing.length === 1 ? "A webhook target keeps failing" : `${failing.length} webhook targets keep failing`}: no successful delivery in the last 24
        hours.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {failing.map((h) => (
          <li key={h.subscriptionUid} className="break-all">
            {h.notificationType} to {h.target} ({attempts(h.failuresSinceSuccess)})
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
