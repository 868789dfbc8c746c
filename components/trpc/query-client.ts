import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters } from "@tanstack/react-query";

/**
 * The portals' react-query client. A mutation invalidates the queries it changed so that they are
 * read again after the write. react-query refetches a query that has data with a new request, but
 * a query still loading its first data keeps that first request, which may have read before the
 * write (a secret created while its list was still loading stayed missing from it): such requests
 * are cancelled first, so that the refetch reads after the write.
 */
export class PortalQueryClient extends QueryClient {
  override async invalidateQueries(filters: InvalidateQueryFilters = {}, options?: InvalidateOptions): Promise<void> {
    await this.cancelQueries({
      ...filters,
      fetchStatus: "fetching",
      predicate: (query) => query.state.data === undefined && (filters.predicate?.(query) ?? true),
    });
    return super.invalidateQueries(filters, options);
  }
}

export function makeQueryClient(): QueryClient {
  return new PortalQueryClient({
    defaultOptions: {
      // Data a pharmacist looks at is refetched when they come back to the tab, and at most
      // every few seconds on re-render; lists where new work arrives set refetchInterval too.
      queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}
