import { TRPCClientError } from "@trpc/client";
import type { FieldErrors } from "@/server/domain/errors";

/** What the server's error formatter (server/trpc/init.ts) adds to a tRPC error. */
type ErrorData = { code?: string; fieldErrors?: FieldErrors | null; reason?: string; details?: Record<string, unknown> };

const dataOf = (error: unknown): ErrorData | null => (error instanceof TRPCClientError ? ((error.data as ErrorData | undefined) ?? null) : null);

/** The messages for one input field, to show beside it (flat fields; nested ones under "a.b"). */
export function fieldErrors(error: unknown, field: string): string[] | undefined {
  let node: FieldErrors | string[] | undefined = dataOf(error)?.fieldErrors ?? undefined;
  for (const key of field.split(".")) {
    if (!node || Array.isArray(node)) return undefined;
    node = node[key];
  }
  return Array.isArray(node) ? node : undefined;
}

/** Every field message of a refusal by its path ("mappings.0.identifier"), for a form (components/ui/form.tsx). */
export function serverFieldErrors(error: unknown): Record<string, string[]> {
  const flat: Record<string, string[]> = {};
  const walk = (node: FieldErrors, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (Array.isArray(value)) flat[prefix + key] = value;
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(dataOf(error)?.fieldErrors ?? {}, "");
  return flat;
}

/** A message for people: the server's own for refusals, a plain one for anything unexpected. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof TRPCClientError)) return "Something went wrong. Please try again.";
  // No error data: the server was not reached, or answered something other than tRPC (a proxy's page).
  if (!dataOf(error)) return "Could not reach the server. Check your connection and try again.";
  const code = dataOf(error)?.code;
  if (code === "UNAUTHORIZED") return "Your session has ended: sign in again.";
  if (code === "NOT_FOUND") return "Not found: it does not exist, or it is not one of your pharmacy's.";
  if (code === "INTERNAL_SERVER_ERROR") return "Something went wrong on our side. Please try again.";
  return error.message;
}

/** The domain's meaning of a failure (e.g. "order_cancelled"), for a page that reacts to it. */
export const errorReason = (error: unknown): string | undefined => dataOf(error)?.reason;
