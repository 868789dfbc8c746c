"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";

export type Sku = inferRouterOutputs<AppRouter>["pharmacy"]["stock"]["list"]["items"][number];

/**
 * Who edits: a pharmacist (pharmacy.stock) or an administrator (admin.pharmacyStock), whose procedures
 * take the same inputs and answer the same shapes; only the words differ.
 */
export type StockEditor = "pharmacy" | "admin";

export function useStockProcedures(editor: StockEditor) {
  const trpc = useTRPC();
  // One router under both portals (server/trpc/routers/stock.ts): the same inputs and outputs, the portal's scope.
  return editor === "admin" ? trpc.admin.pharmacyStock : trpc.pharmacy.stock;
}
