"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/router";
import { makeQueryClient } from "./query-client";

/**
 * The portals' data layer, as create-t3-app wires it: tRPC over react-query. `useTRPC()` gives
 * typed query and mutation options (`useQuery(trpc.pharmacy.orders.list.queryOptions(input))`);
 * mutations invalidate the queries they change.
 */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export function TrpcReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
