"use client";

import Link from "next/link";
import { isNotFound, useErrorMessage } from "@/components/trpc/errors";
import { ErrorState } from "./states";

/**
 * A detail page whose record did not load: "not found" with the way back to its list (a retry
 * would not help), or the failure with a retry.
 */
export function RecordLoadError({ error, notFound, back, onRetry }: { error: unknown; notFound: string; back: { href: string; label: string }; onRetry: () => void }) {
  const errorMessage = useErrorMessage();
  if (!isNotFound(error)) return <ErrorState message={errorMessage(error)} onRetry={onRetry} />;
  return (
    <div className="space-y-4">
      <ErrorState message={notFound} />
      <Link prefetch={false} href={back.href} className="text-sm font-medium text-brand-700 hover:underline">
        {back.label}
      </Link>
    </div>
  );
}
