"use client";

import { useTranslations } from "next-intl";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { EmptyState, ErrorState, LoadingState } from "./states";

/**
 * The one ladder of a query's states: pending (LoadingState), failed (ErrorState whose retry
 * refetches), empty (`isEmpty(data)`: the `empty` state) and otherwise `children(data)`. A failed
 * refresh of data already shown keeps the data, with the error above it.
 */
export function QueryView<T>({
  query,
  loadingLabel,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  loadingLabel?: string;
  isEmpty?: (data: T) => boolean;
  /** What an empty result shows (an EmptyState with what to do about it). */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("common.queryView");
  if (query.isPending) return <LoadingState label={loadingLabel} />;
  const retry = () => void query.refetch();
  if (query.isError && query.data === undefined) return <ErrorState message={errorMessage(query.error)} onRetry={retry} />;
  const data = query.data as T;
  if (isEmpty?.(data)) return <>{empty ?? <EmptyState title={t("empty")} />}</>;
  return (
    <>
      {query.isError ? <ErrorState message={t("refreshFailed", { message: errorMessage(query.error) })} onRetry={retry} /> : null}
      {children(data)}
    </>
  );
}
