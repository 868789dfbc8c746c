/**
 * The first page of a list opened without a query string: what the queue and order lists ask for
 * then, so that a page's server render can ask the same (components/trpc/server.tsx) and the browser
 * finds the answer under the same query key. Plain module: server and client components both read it.
 */
export const LIST_PAGE_SIZE = 25;
export const FIRST_PAGE = { page: 0, limit: LIST_PAGE_SIZE } as const;

/** A list page opened with no filter, search or page in its address. */
export const opensUnfiltered = (searchParams: Record<string, string | string[] | undefined>) => Object.keys(searchParams).length === 0;
