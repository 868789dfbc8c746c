import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { getLocale } from "next-intl/server";
import { cache, type ReactNode } from "react";
import type { Locale } from "@/i18n/locales";
import { currentPortalUser } from "@/server/auth/portal-session";
import { appRouter } from "@/server/trpc/router";
import { makeQueryClient } from "./query-client";

/**
 * The portals' queries run on the server while the page renders (create-t3-app's pattern), so that
 * a page's HTML already carries its data: no loading placeholder that the data then pushes down
 * (layout shift), and no round trip after hydration before the page shows its content (LCP on a
 * phone). The procedures are the same ones the browser calls, with the same checks: the context is
 * the signed-in user of the page's request and its language.
 */
const queryClientOfRequest = cache(makeQueryClient);

export const serverTrpc = createTRPCOptionsProxy({
  router: appRouter,
  queryClient: queryClientOfRequest,
  ctx: async () => ({ user: await currentPortalUser(), locale: (await getLocale()) as Locale }),
});

type Prefetchable = Parameters<QueryClient["prefetchQuery"]>[0];
/** A procedure's query options (`serverTrpc.x.y.queryOptions(input)`), whatever its data type. */
type ProcedureQuery = { queryKey: readonly unknown[] };

/**
 * Runs the page's queries and hands their answers to the browser's query client. A query that fails
 * is not handed on: the browser asks again and shows its own error state.
 */
export async function WithData({ queries, children }: { queries: ProcedureQuery[]; children: ReactNode }) {
  const queryClient = queryClientOfRequest();
  // Each option object is typed by its procedure; the client's prefetch takes them all alike.
  await Promise.all(queries.map((query) => queryClient.prefetchQuery(query as Prefetchable)));
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>;
}
